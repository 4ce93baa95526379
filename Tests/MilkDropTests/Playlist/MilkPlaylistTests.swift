import Foundation
@testable import MilkDrop
import Testing

@Suite("Playlists: switching after a while, hard cuts on strong beats, soft blends otherwise")
struct MilkPlaylistTests {
    /// A folder with `count` small presets (each a different zoom) and one that does not compile.
    private func folder(_ count: Int) throws -> (String, [String]) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("milk-playlist-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        var paths: [String] = []
        for i in 0..<count {
            let path = root + "/p\(i).milk"
            try Data("zoom=\(1 + Double(i) / 100)\nper_frame_1=wave_r = \(i);\n".utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let broken = root + "/zz-broken.milk"
        try Data("per_frame_1=zoom = (;\n".utf8).write(to: URL(fileURLWithPath: broken))
        paths.append(broken)
        return (root, paths)
    }

    private func options(switch seconds: Double, blend: Double = 2, hardCuts: Bool = true) -> MilkPlaylist.Options {
        var o = MilkPlaylist.Options()
        o.switchSeconds = seconds; o.blendSeconds = blend; o.hardCuts = hardCuts
        return o
    }

    @Test("without beats: a soft blend starts 2 s after the switch time, runs its length, then the next preset plays")
    func softBlend() throws {
        let (root, paths) = try folder(2)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let list = try MilkPlaylist(paths: paths, options: options(switch: 10, blend: 2))
        list.configure(width: 32, height: 18, scale: 1)
        let first = list.active.preset.name
        var t = 0.0
        while t < 11.9 { list.update(time: t, isBeat: false, bass: 1); t += 1.0 / 30 }
        #expect(list.transition == .none && list.active.preset.name == first)
        list.update(time: 12.0, isBeat: false, bass: 1)
        #expect(list.transition == .blending(0))
        list.update(time: 13.0, isBeat: false, bass: 1)
        #expect(list.transition == .blending(0.5))
        list.update(time: 14.01, isBeat: false, bass: 1)
        #expect(list.transition == .none && list.active.preset.name != first)
        #expect(list.switches == 1 && list.cuts == 0)
    }

    @Test("asked to skip (OSC /marble/milkdrop/next): a cut to the next preset at the next frame, mid-blend too")
    func skip() throws {
        let (root, paths) = try folder(3)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let list = try MilkPlaylist(paths: paths, options: options(switch: 10, blend: 2))
        list.configure(width: 32, height: 18, scale: 1)
        let first = list.active.preset.name
        list.update(time: 1, isBeat: false, bass: 1)
        #expect(list.active.preset.name == first)
        list.skipToNext()
        #expect(list.active.preset.name == first, "not before the next frame")
        list.update(time: 1.1, isBeat: false, bass: 1)
        let second = list.active.preset.name
        #expect(second != first && list.cuts == 1 && list.transition == .none)
        list.update(time: 13.2, isBeat: false, bass: 1)      // 2 s past the switch time, no beat: a blend starts
        #expect(list.transition == .blending(0))
        list.skipToNext()
        list.update(time: 13.3, isBeat: false, bass: 1)
        #expect(list.transition == .none && list.incoming == nil && list.active.preset.name != second && list.cuts == 2)
        // The timer starts again from the skip: no switch before 10 s more.
        list.update(time: 21, isBeat: false, bass: 1)
        #expect(list.transition == .none && list.switches == 3)
    }

    @Test("a skip with a single preset changes nothing")
    func skipAlone() throws {
        let (root, paths) = try folder(1)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let list = try MilkPlaylist(paths: [paths[0]], options: options(switch: 10))
        list.configure(width: 32, height: 18, scale: 1)
        list.skipToNext()
        list.update(time: 0.5, isBeat: false, bass: 1)
        #expect(list.switches == 0 && list.cuts == 0)
    }

    @Test("a strong beat at the switch time cuts at once; a very strong one may cut after half the time")
    func hardCuts() throws {
        let (root, paths) = try folder(3)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let list = try MilkPlaylist(paths: paths, options: options(switch: 10))
        list.configure(width: 32, height: 18, scale: 1)
        let first = list.active.preset.name
        list.update(time: 4, isBeat: true, bass: 3)          // too early even for a very strong beat
        #expect(list.active.preset.name == first)
        list.update(time: 10.2, isBeat: true, bass: 1.1)     // a beat, but weak
        #expect(list.active.preset.name == first)
        list.update(time: 10.5, isBeat: true, bass: 1.5)     // a strong beat: cut
        #expect(list.active.preset.name != first && list.cuts == 1 && list.transition == .none)
        let second = list.active.preset.name
        list.update(time: 16, isBeat: true, bass: 2.6)       // past half of 10 s, very strong: early cut
        #expect(list.active.preset.name != second && list.cuts == 2)
    }

    @Test("a preset that does not load is skipped with its reason; the list goes round; shuffling is repeatable")
    func skipsAndShuffle() throws {
        let (root, paths) = try folder(2)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let list = try MilkPlaylist(paths: paths, options: options(switch: 1, blend: 0))
        list.configure(width: 32, height: 18, scale: 1)
        var seen: [String] = [list.active.preset.name]
        for k in 1...4 { list.update(time: Double(k) * 3.5, isBeat: false, bass: 1); seen.append(list.active.preset.name) }
        #expect(seen == ["p0", "p1", "p0", "p1", "p0"])
        #expect(list.skipped.count == 1 && list.skipped[0].path.hasSuffix("zz-broken.milk"))
        var shuffled = options(switch: 1); shuffled.shuffle = true; shuffled.seed = 7
        let a = try MilkPlaylist(paths: paths, options: shuffled), b = try MilkPlaylist(paths: paths, options: shuffled)
        #expect(a.paths == b.paths && Set(a.paths) == Set(paths))
        #expect(throws: MilkPresetError.self) { _ = try MilkPlaylist(paths: [paths.last!]) }
    }

    @Test("the built-in preset loads under its name")
    func builtIn() throws {
        let list = try MilkPlaylist(paths: [DefaultPreset.name])
        #expect(list.active.preset.name == DefaultPreset.name)
        #expect(!list.active.preset.perVertex.isEmpty)
    }
}
