import Foundation
import MarbleCore
import Testing
@testable import Shaders

@Suite("The milkdrop layer: a .milk preset (or the built-in one) as a layer")
struct MilkDropLayerTests {
    static let width = 96, height = 54

    /// A preset written for the test: a bright dotted wave drawn into a zooming, turning feedback.
    static let spiral = """
        [preset00]
        fDecay=0.95
        fGammaAdj=1.5
        nWaveMode=0
        bWaveDots=0
        bWaveThick=1
        bAdditiveWaves=1
        fWaveAlpha=1
        fWaveScale=1.5
        zoom=1.05
        rot=0.05
        warp=0
        per_frame_1=wave_r = 1; wave_g = 0.5 + 0.5 * sin(time); wave_b = 0.2;
        per_pixel_1=zoom = zoom + 0.02 * rad;
        """

    static func write(_ text: String, name: String = "spiral.milk") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("milkdrop-layer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        return dir + "/" + name
    }

    static func features(_ n: Int) -> AudioFeatures {
        var f = AudioFeatures(bandCount: 8, waveformLength: 1024)
        for i in 0..<1024 { f.waveformLeft[i] = 0.7 * Float(sin(Double(i + n * 735) * 0.05)); f.waveformRight[i] = f.waveformLeft[i] }
        f.bass = 1.2; f.mid = 1; f.treble = 1; f.bassAttenuated = 1; f.midAttenuated = 1; f.trebleAttenuated = 1
        return f
    }

    static func lit(_ bytes: [UInt8]) -> Int {
        stride(from: 0, to: bytes.count, by: 4).count { bytes[$0] > 40 || bytes[$0 + 1] > 40 || bytes[$0 + 2] > 40 }
    }

    @Test("a preset file draws its wave into the feedback: more of the frame is lit as the trails build up")
    func drawsAndFeedsBack() throws {
        let path = try Self.write(Self.spiral)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let rig = try Rig("milkdrop", ["file": .text(path), "render_scale": .number(1)], width: Self.width, height: Self.height)
        let first = rig.render(uniforms(frame: 0, features: Self.features(0), width: Self.width, height: Self.height))
        var last = first
        for n in 1..<30 { last = rig.render(uniforms(frame: n, features: Self.features(n), width: Self.width, height: Self.height)) }
        #expect(Self.lit(first) > 0)
        #expect(Self.lit(last) > Self.lit(first) * 2, "trails: \(Self.lit(first)) lit pixels at first, \(Self.lit(last)) after 30 frames")
        #expect(stride(from: 3, to: last.count, by: 4).allSatisfy { last[$0] == 255 })   // opaque
    }

    @Test("an explicit render scale draws at that size and scales up: close to the full-size picture, any strips alike")
    func renderScale() throws {
        let path = try Self.write(Self.spiral)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let full = try Rig("milkdrop", ["file": .text(path), "render_scale": .number(1)], width: Self.width, height: Self.height)
        let half = try Rig("milkdrop", ["file": .text(path), "render_scale": .number(0.5)], width: Self.width, height: Self.height)
        var a: [UInt8] = [], b: [UInt8] = [], c: [UInt8] = []
        for n in 0..<20 {
            let u = uniforms(frame: n, features: Self.features(n), width: Self.width, height: Self.height)
            a = full.render(u)
            b = half.render(u)
            c = half.render(u, strips: 5)   // the same frame again, other strips
        }
        #expect(b == c)
        #expect(stride(from: 3, to: b.count, by: 4).allSatisfy { b[$0] == 255 })
        func mean(_ p: [UInt8]) -> Double { Double(p.enumerated().filter { $0.offset % 4 != 3 }.reduce(0) { $0 + Int($1.element) }) / Double(p.count * 3 / 4) }
        // The same picture drawn at half the resolution: as bright within a factor of two (lines are
        // relatively thicker at 48x27, so brighter).
        let ma = mean(a), mb = mean(b)
        #expect(Self.lit(b) > 0 && mb > ma * 0.5 && mb < ma * 2 + 4, "mean \(ma) at full size, \(mb) at half")
        #expect(a != b)
    }

    @Test("a seek back restarts the preset: frame 5 after frames 0–9 is frame 5 of a fresh start")
    func seekBackRestarts() throws {
        let path = try Self.write(Self.spiral)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        func rig() throws -> Rig { try Rig("milkdrop", ["file": .text(path)], width: Self.width, height: Self.height) }
        let fresh = try rig()
        var expected: [UInt8] = []
        for n in 0...5 { expected = fresh.render(uniforms(frame: n, features: Self.features(n), width: Self.width, height: Self.height)) }
        let other = try rig()
        for n in 0...9 { _ = other.render(uniforms(frame: n, features: Self.features(n), width: Self.width, height: Self.height)) }
        var again: [UInt8] = []
        for n in 0...5 { again = other.render(uniforms(frame: n, features: Self.features(n), width: Self.width, height: Self.height)) }
        #expect(again == expected)
        // The same frame prepared twice (as the compositor's checks do) gives the same picture.
        let twice = fresh.render(uniforms(frame: 5, features: Self.features(5), width: Self.width, height: Self.height), strips: 3)
        #expect(twice == expected)
    }

    @Test("errors name the problem: a missing file, a folder without presets, an equation that does not compile")
    func errors() throws {
        #expect(throws: MarbleError.self) { _ = try Rig("milkdrop", ["file": .text("/nonexistent/x.milk")]) }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("milkdrop-empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        do {
            _ = try Rig("milkdrop", ["file": .text(empty)])
            Issue.record("an empty folder was accepted")
        } catch let e as MarbleError {
            #expect(e.message.contains("no .milk presets"))
        }
        let broken = try Self.write("per_frame_1=zoom = cos(;\n", name: "broken.milk")
        defer { try? FileManager.default.removeItem(atPath: (broken as NSString).deletingLastPathComponent) }
        do {
            _ = try Rig("milkdrop", ["file": .text(broken)])
            Issue.record("a broken preset was accepted")
        } catch let e as MarbleError {
            #expect(e.message.contains("broken.milk:1"), "\(e.message)")
        }
    }
}
