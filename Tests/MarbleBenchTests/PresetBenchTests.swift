import Foundation
@testable import MarbleBench
import MarbleCore
@testable import MarbleKit
@testable import MarbleRender
import Testing

/// `marble bench`'s presets go through the pipeline `marble render` runs (``RenderJob/open``), stage by
/// stage on one thread.
@Suite("PresetBench", .serialized)
struct PresetBenchTests {
    let scene = Preset(name: "two-layers", layers: [LayerSpec(shader: "bars"), LayerSpec(shader: "waveform")])

    func song(seconds: Double) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("preset-bench-\(getpid())-\(seconds).wav").path
        try BenchSignal(seconds: seconds).write(to: path)
        return path
    }

    func configuration(encode: Bool) -> BenchConfiguration {
        var c = BenchConfiguration()
        c.frames = 4
        c.warmup = 2
        c.encode = encode
        return c
    }

    @Test("each stage of the render is timed: decode, analysis, every layer, render, convert, and encode with --encode; the render path's mallocs counted", arguments: [false, true])
    func stages(encode: Bool) throws {
        let path = try song(seconds: 1)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bench = PresetBench(preset: scene, size: BenchConfiguration.Size(64, 36), threads: 1)
        let r = try bench.run(song: path, configuration: configuration(encode: encode))
        let expected = ["decode", "analysis", "layer 1: bars", "layer 2: waveform", "render (all layers)", "convert"]
        #expect(r.stages.map(\.name) == expected + (encode ? ["encode"] : []))
        #expect(r.frames == 4 && r.kind == .preset && r.name == "two-layers")
        #expect(r.total.p50 > 0)
        // Counted; whether they are 0 is for `marble bench --guard` to say, in a release build and a process
        // of its own (see BenchGuardTests.realRun).
        #expect((r.allocationsPerFrame != nil) == AllocationCounter.isCounting)
    }

    @Test("a song shorter than warm-up + measured frames is a clear error, not a shorter measurement")
    func shortSong() throws {
        // 0.05 s at 60 fps is 3 frames; the run needs 6.
        let path = try song(seconds: 0.05)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bench = PresetBench(preset: scene, size: BenchConfiguration.Size(64, 36), threads: 1)
        let error = #expect(throws: MarbleError.self) { try bench.run(song: path, configuration: configuration(encode: false)) }
        #expect(error?.message.hasSuffix("the benchmark song ended after 3 frames") == true, "\(String(describing: error))")
    }
}
