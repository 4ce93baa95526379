import Foundation
import MarbleCore
import MarbleKit
import Synchronization
import Testing
import TestSupport
@testable import MarbleStudio

/// The studio's render queue, with real renders of a short tone at 64x36 and 10 fps (15 frames for
/// 1.5 s). Renders report every frame (`progressInterval: 0`); a test acts at a known frame through
/// `onProgress`, which runs on the render's thread before it goes on, so nothing depends on timing.
@Suite(.serialized) struct RenderQueueTests {
    let songs = temporaryFolder(prefix: "studio-songs")
    let output = temporaryFolder(prefix: "studio-renders")
    let tiny = RenderSettings(size: "64x36", fps: Rational(10))
    let preset = (name: "spectrum", path: "spectrum")

    /// The queue, for hooks made before it.
    final class Later: Sendable {
        private let value = Mutex<RenderQueue?>(nil)
        func set(_ queue: RenderQueue) { value.withLock { $0 = queue } }
        var queue: RenderQueue? { value.withLock { $0 } }
    }

    /// A render thread held at its first frame drawn until the test lets it go.
    final class Hold: Sendable {
        let reached = Arrivals()
        let release = DispatchSemaphore(value: 0)
        let id: String
        init(_ id: String) { self.id = id }
        func onProgress(_ status: RenderStatus) {
            guard status.id == id, status.state == .rendering, reached.count == 0 else { return }
            reached.arrive()
            release.wait()
        }
    }

    func song(seconds: Double = 1.5) throws -> String { try TestMedia.tone("flac", seconds: seconds) }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() }

    @Test("a render reports its progress up to the total, ends done, and its file is there")
    func done() async throws {
        let observer = EndingRecorder<RenderStatus> { $0.state.hasEnded }
        let queue = RenderQueue(outputFolder: output.path, progressInterval: 0, onChange: observer.callback)
        let submitted = try queue.submit(song: (try song(), "album/tone.flac"), preset: preset, settings: tiny)
        #expect(submitted.id == "r1" && submitted.state == .waiting && submitted.output == "spectrum-tone.mp4")
        #expect(submitted.song == "album/tone.flac" && submitted.preset == "spectrum" && submitted.command.hasPrefix("marble render '/"))
        await observer.ended.reach(1)
        queue.shutdown()

        #expect(observer.states("r1") == [.waiting, .analysing, .rendering, .done])
        let rendering = observer.events.all.filter { $0.state == .rendering }
        #expect(rendering.map(\.frames) == Array(1...15))
        #expect(rendering.allSatisfy { $0.totalFrames == 15 })
        let last = try #require(observer.last("r1"))
        #expect(last.frames == 15 && last.totalFrames == 15 && last.error == nil && last.eta == 0)
        let path = output.appendingPathComponent("spectrum-tone.mp4").path
        #expect(try queue.file("r1") == path)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(last.bytes > 0 && last.bytes == size)
        #expect(try Probe(path).streams.first { $0.type == "video" }?.frames == 15)
        #expect(try files() == ["spectrum-tone.mp4"])   // the work folder is gone
        #expect(queue.list() == [last])
    }

    @Test("a running render cancelled leaves no file and no piece", arguments: [1, 2])
    func cancelRunning(segments: Int) async throws {
        let observer = EndingRecorder<RenderStatus> { $0.state.hasEnded }
        let later = Later()
        let queue = RenderQueue(outputFolder: output.path, progressInterval: 0, onProgress: { status in
            if status.state == .rendering { _ = try? later.queue?.cancel(status.id) }
        }, onChange: observer.callback)
        later.set(queue)
        var settings = tiny
        settings.segments = segments
        _ = try queue.submit(song: (try song(seconds: 4), "long.flac"), preset: preset, settings: settings)
        await observer.ended.reach(1)
        queue.shutdown()
        #expect(observer.states("r1") == [.waiting, .analysing, .rendering, .cancelled])
        #expect(observer.last("r1")?.error == nil)
        #expect(try files() == [])
        #expect(throws: RenderLookupError.notDone(id: "r1", state: .cancelled)) { try queue.file("r1") }
    }

    @Test("a corrupt song fails, saying why; nothing is left")
    func corrupt() async throws {
        let bad = songs.appendingPathComponent("bad.mp3").path
        try Data("this is not a song".utf8).write(to: URL(fileURLWithPath: bad))
        let observer = EndingRecorder<RenderStatus> { $0.state.hasEnded }
        let queue = RenderQueue(outputFolder: output.path, onChange: observer.callback)
        _ = try queue.submit(song: (bad, "bad.mp3"), preset: preset, settings: tiny)
        await observer.ended.reach(1)
        queue.shutdown()
        let last = try #require(observer.last("r1"))
        #expect(last.state == .failed)
        #expect(last.error?.hasPrefix(bad) == true, "\(last.error ?? "no error")")
        #expect(try files() == [])
    }

    @Test("with one render at a time the second waits until the first is done; a song removed meanwhile fails it, saying why")
    func oneAtATime() async throws {
        let observer = EndingRecorder<RenderStatus> { $0.state.hasEnded }
        let hold = Hold("r1")
        let queue = RenderQueue(outputFolder: output.path, concurrency: 1, progressInterval: 0, onProgress: hold.onProgress,
                                onChange: observer.callback)
        _ = try queue.submit(song: (try song(), "tone.flac"), preset: preset, settings: tiny)
        await hold.reached.reach(1)
        let gone = songs.appendingPathComponent("gone.flac").path
        try FileManager.default.copyItem(atPath: try song(), toPath: gone)
        let second = try queue.submit(song: (gone, "gone.flac"), preset: preset, settings: tiny)
        _ = try queue.submit(song: (try song(), "tone.flac"), preset: preset, settings: tiny)
        #expect(second.state == .waiting)
        #expect(queue.list().map(\.id) == ["r3", "r2", "r1"])
        #expect(queue.list().map(\.state) == [.waiting, .waiting, .rendering])
        try FileManager.default.removeItem(atPath: gone)
        hold.release.signal()
        await observer.ended.reach(3)
        queue.shutdown()

        let events = observer.events.all
        let firstDone = try #require(events.firstIndex { $0.id == "r1" && $0.state == .done })
        let secondStarts = try #require(events.firstIndex { $0.id == "r2" && $0.state != .waiting })
        let secondEnds = try #require(events.firstIndex { $0.id == "r2" && $0.state.hasEnded })
        let thirdStarts = try #require(events.firstIndex { $0.id == "r3" && $0.state != .waiting })
        #expect(firstDone < secondStarts && secondEnds < thirdStarts)
        #expect(observer.states("r2") == [.waiting, .analysing, .failed])
        #expect(observer.last("r2")?.error?.contains(gone) == true, "\(observer.last("r2")?.error ?? "no error")")
        #expect(observer.states("r3") == [.waiting, .analysing, .rendering, .done])
        #expect(try files() == ["spectrum-tone 2.mp4", "spectrum-tone.mp4"])
    }

    @Test("names never overwrite: a file there is skipped, and so is one that appears while the render runs")
    func names() async throws {
        let mine = output.appendingPathComponent("spectrum-tone.mp4")
        try Data("mine".utf8).write(to: mine)
        let observer = EndingRecorder<RenderStatus> { $0.state.hasEnded }
        let hold = Hold("r1")
        let queue = RenderQueue(outputFolder: output.path, progressInterval: 0, onProgress: hold.onProgress, onChange: observer.callback)
        // The command shown before a render is the one it then runs, its free name included.
        let shown = try queue.command(song: (try song(), "a/tone.flac"), preset: preset, settings: tiny)
        let first = try queue.submit(song: (try song(), "a/tone.flac"), preset: preset, settings: tiny)
        #expect(shown == first.command && shown.contains("spectrum-tone 2.mp4"))
        let second = try queue.submit(song: (try song(), "b/tone.flac"), preset: preset, settings: tiny)
        #expect(first.output == "spectrum-tone 2.mp4" && second.output == "spectrum-tone 3.mp4")
        await hold.reached.reach(1)
        let squatter = output.appendingPathComponent("spectrum-tone 2.mp4")
        try Data("theirs".utf8).write(to: squatter)
        hold.release.signal()
        await observer.ended.reach(2)
        queue.shutdown()

        #expect(try Data(contentsOf: mine) == Data("mine".utf8))
        #expect(try Data(contentsOf: squatter) == Data("theirs".utf8))
        let r1 = try #require(observer.last("r1"))
        #expect(r1.state == .done && r1.output == "spectrum-tone 4.mp4" && r1.command.contains("/spectrum-tone 4.mp4'"))
        #expect(observer.last("r2")?.output == "spectrum-tone 3.mp4")
        #expect(try files() == ["spectrum-tone 2.mp4", "spectrum-tone 3.mp4", "spectrum-tone 4.mp4", "spectrum-tone.mp4"])
    }

    @Test("file names: the song's stem, made safe")
    func sanitizedNames() {
        #expect(RenderQueue.stem(of: "album/01 song.mp3") == "01 song")
        #expect(RenderQueue.stem(of: "a.b.c") == "a.b")
        #expect(RenderQueue.stem(of: ".hidden") == ".hidden")
        #expect(RenderQueue.sanitized("../x\u{1}y") == "_._x_y")
        #expect(RenderQueue.sanitized("") == "render")
        #expect(RenderQueue.sanitized(String(repeating: "é", count: 150)).utf8.count == 200)
    }

    @Test("in 2 pieces: the frame count and, at crf 0, the decoded pictures of the render in one piece; no piece left")
    func segments() async throws {
        let observer = EndingRecorder<RenderStatus> { $0.state.hasEnded }
        let queue = RenderQueue(outputFolder: output.path, concurrency: 2, progressInterval: 0, onChange: observer.callback)
        var one = tiny
        one.crf = 0
        var two = one
        two.segments = 2
        _ = try queue.submit(song: (try song(), "one.flac"), preset: preset, settings: one)
        _ = try queue.submit(song: (try song(), "two.flac"), preset: preset, settings: two)
        await observer.ended.reach(2)
        queue.shutdown()
        #expect(observer.states("r2") == [.waiting, .analysing, .rendering, .joining, .done])
        #expect(observer.last("r2")?.frames == 15 && observer.last("r2")?.totalFrames == 15)
        let a = try frameHashes(queue.file("r1")), b = try frameHashes(queue.file("r2"))
        #expect(a.count == 15 && a == b)
        #expect(Set(a).count > 1)   // the pictures move, or the comparison would prove little
        #expect(try files() == ["spectrum-one.mp4", "spectrum-two.mp4"])
    }

    /// The per-frame hashes of the decoded video (framemd5's last column).
    func frameHashes(_ file: String) throws -> [String] {
        let text = String(decoding: try TestMedia.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]), as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test("shutdown cancels the waiting and the running renders, waits for them, leaves nothing, and refuses new ones")
    func shutdown() async throws {
        let observer = EndingRecorder<RenderStatus> { $0.state.hasEnded }
        let hold = Hold("r1")
        let queue = RenderQueue(outputFolder: output.path, progressInterval: 0, onProgress: hold.onProgress, onChange: observer.callback)
        _ = try queue.submit(song: (try song(), "tone.flac"), preset: preset, settings: tiny)
        await hold.reached.reach(1)
        _ = try queue.submit(song: (try song(), "tone.flac"), preset: preset, settings: tiny)
        async let stopped: Void = onThread { queue.shutdown() }
        await observer.ended.reach(1)   // r2 cancelled: r1's flag was raised in the same step
        hold.release.signal()
        await stopped
        #expect(observer.states("r1") == [.waiting, .analysing, .rendering, .cancelled])
        #expect(observer.states("r2") == [.waiting, .cancelled])
        #expect(try files() == [])
        #expect(throws: MarbleError(.cancelled, "the studio is stopping: no new render")) {
            try queue.submit(song: (try song(), "tone.flac"), preset: preset, settings: tiny)
        }
    }

    @Test("refusals: a full queue (try later), bad settings, a missing song, an unknown render")
    func refusals() throws {
        let full = RenderQueue(outputFolder: output.path, maxWaiting: 0) { _ in }
        #expect(throws: MarbleError(.transient, "the render queue is full: 0 renders are waiting")) {
            try full.submit(song: (try song(), "tone.flac"), preset: preset, settings: tiny)
        }
        let queue = RenderQueue(outputFolder: output.path) { _ in }
        #expect(throws: MarbleError(.option, "settings.crf: 99: must be between 0 and 63")) {
            try queue.submit(song: (try song(), "tone.flac"), preset: preset, settings: RenderSettings(crf: 99))
        }
        let missing = songs.appendingPathComponent("missing.flac").path
        #expect(throws: MarbleError(.input, "\(missing): no such file")) {
            try queue.submit(song: (missing, "missing.flac"), preset: preset, settings: tiny)
        }
        #expect(throws: RenderLookupError.notFound(id: "r9")) { try queue.cancel("r9") }
        #expect(throws: RenderLookupError.notFound(id: "r9")) { try queue.file("r9") }
        #expect(queue.list() == [])
        queue.shutdown()
        full.shutdown()
    }

    @Test("a RENDER in JSON: every field, null where there is no value")
    func statusJSON() throws {
        let status = RenderStatus(id: "r7", song: "album/01 song.mp3", preset: "mine", output: "mine-01 song.mp4",
                                  command: "marble render …", state: .waiting)
        let json = String(decoding: try JSONEncoder().encode(status), as: UTF8.self)
        for field in [#""totalFrames":null"#, #""eta":null"#, #""error":null"#, #""state":"waiting""#, #""frames":0"#, #""bytes":0"#] {
            #expect(json.contains(field), "\(json)")
        }
        #expect(try JSONDecoder().decode(RenderStatus.self, from: Data(json.utf8)) == status)
    }
}

extension EndingRecorder where Event == RenderStatus {
    /// Render `id`'s states as delivered, each once in a row.
    func states(_ id: String) -> [RenderStatus.State] {
        events.all.filter { $0.id == id }.map(\.state).reduce(into: []) { if $0.last != $1 { $0.append($1) } }
    }

    func last(_ id: String) -> RenderStatus? { events.all.last { $0.id == id } }
}
