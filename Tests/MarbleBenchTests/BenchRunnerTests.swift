import Foundation
@testable import MarbleAnalysis
@testable import MarbleBench
import MarbleCore
@testable import MarbleKit
@testable import MarbleMedia
@testable import MarblePipeline
@testable import MarbleRender
import Shaders
import Testing

@Suite("BenchRunner", .serialized)
struct BenchRunnerTests {
    @Test("the synthetic song is deterministic, in range, and has beats the analysis finds")
    func signal() throws {
        let a = BenchSignal(seconds: 4), b = BenchSignal(seconds: 4)
        #expect(a.left == b.left && a.right == b.right)
        #expect(a.left.count == 4 * 48_000)
        #expect(a.left.allSatisfy { abs($0) <= 1 } && a.left.contains { abs($0) > 0.5 })
        let features = try a.features(fps: Rational(60), frames: 240)
        #expect(features.contains { $0.isOnset })
        #expect(features.contains { $0.bass > 0 })
    }

    @Test("the signal's WAV decodes back to the same length")
    func wav() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let s = BenchSignal(seconds: 1)
        try s.write(to: path)
        let decoder = try AudioDecoder(path: path)
        while try decoder.decodeNext({ _, _ in }) {}
        #expect(decoder.sampleRate == 48_000)
        #expect(decoder.samplesDelivered == s.left.count)
    }

    @Test("a small run covers every shader and preset, the MilkDrop set (when installed), and the pipeline with --encode")
    func smallRun() throws {
        var c = BenchConfiguration()
        c.sizes = [BenchConfiguration.Size(64, 36)]
        c.threads = [1]
        c.frames = 3
        c.warmup = 1
        c.encode = true
        let report = try BenchRunner(configuration: c).run()
        let shaders = Set(report.results.filter { $0.kind == .shader }.map(\.name))
        #expect(shaders == Set(ShaderLibrary.all.map { $0.descriptor.name }))
        let presets = Set(report.results.filter { $0.kind == .preset }.map(\.name))
        // The fixed MilkDrop set runs as presets named "milkdrop …", those of it installed here.
        let milkdrop = Set(MilkDropBenchSet.scenes().map(\.name))
        #expect(presets == Set(PresetLibrary.names()).union(milkdrop))
        // Every preset of the set, once each way: classic, scaled, shader presets automatic and full size, without shaders.
        #expect(milkdrop.count == MilkDropBenchSet.files.count + MilkDropBenchSet.scaled.count
                + 2 * MilkDropBenchSet.shaderFiles.count + MilkDropBenchSet.withoutShaders.count)
        #expect(report.results.contains { $0.kind == .pipeline })
        for r in report.results {
            #expect(r.total.p50 > 0, "\(r.name)")
            #expect(r.fps > 0)
        }
        let spectrum = try #require(report.results.first { $0.kind == .preset && $0.name == "spectrum" })
        let names = spectrum.stages.map(\.name)
        #expect(names.first == "decode" && names.contains("analysis") && names.contains("convert") && names.last == "encode")
        #expect(names.contains { $0.hasPrefix("layer 1:") })
    }

    @Test("the filter keeps only matching names")
    func filter() throws {
        var c = BenchConfiguration()
        c.sizes = [BenchConfiguration.Size(32, 16)]
        c.threads = [1]
        c.frames = 2
        c.warmup = 0
        c.filter = "BARS"
        let report = try BenchRunner(configuration: c).run()
        #expect(Set(report.results.map(\.name)) == ["bars"])
        #expect(Set(report.results.map(\.kind)) == [.shader, .preset])
    }
}

@Suite("FFmpegComparison")
struct FFmpegComparisonTests {
    @Test("the FFmpeg side is the reference command at the same size, rate and encoder settings")
    func command() {
        let c = FFmpegComparison(sizes: [BenchConfiguration.Size(1280, 720)], fps: Rational(60), encoderPreset: .ultrafast, crf: 20)
        let cqt = c.arguments(filter: "showcqt", size: c.sizes[0], song: "in.wav", output: "out.mp4")
        #expect(cqt.contains("[0:a]showcqt=s=1280x720:fps=60,format=yuv420p[v]"))
        let joined = cqt.joined(separator: " ")
        #expect(joined.contains("-i in.wav"))
        #expect(joined.contains("-map [v] -map 0:a -c:v libx264 -preset ultrafast -crf 20 -c:a aac out.mp4"))
        let waves = c.arguments(filter: "showwaves", size: c.sizes[0], song: "in.wav", output: "o.mp4")
        #expect(waves.contains("[0:a]showwaves=s=1280x720:rate=60,format=yuv420p[v]"))
    }

    @Test("ratio is our speed over FFmpeg's")
    func ratio() {
        let r = FFmpegComparisonResult(filter: "showcqt", width: 64, height: 36, fps: 60, encoderPreset: "ultrafast",
                                       songSeconds: 10, oursSeconds: 5, ffmpegSeconds: 2.5)
        #expect(r.oursSpeed == 2 && r.ffmpegSpeed == 4 && r.ratio == 0.5)
    }
}

@Suite("FFmpegComparison medians")
struct FFmpegComparisonMedianTests {
    @Test("each side counts its median round, not its best", arguments: [
        ([3.0, 1.0, 2.0], 2.0), ([4.0, 1.0, 3.0, 2.0], 2.5), ([5.0], 5.0),
    ])
    func median(values: [Double], expected: Double) {
        #expect(FFmpegComparison.median(values) == expected)
    }

    @Test("no rounds: infinity, never a crash")
    func empty() { #expect(FFmpegComparison.median([]) == .infinity) }

    @Test("without --size the comparison covers 720p, 1080p and 2160p")
    func sizes() {
        #expect(FFmpegComparison.defaultSizes.map(\.height) == [720, 1080, 2160])
        #expect(FFmpegComparison(sizes: [], fps: Rational(60)).rounds == 3)
    }

    @Test("CPU seconds of this process grow with work done on it")
    func cpu() {
        let before = FFmpegComparison.cpuSeconds(children: false)
        var x = 0.0
        for i in 0..<20_000_000 { x += Double(i & 7) }
        #expect(x > 0)
        #expect(FFmpegComparison.cpuSeconds(children: false) > before)
    }
}

@Suite("FFmpegComparison encoder floor")
struct FFmpegComparisonFloorTests {
    @Test("encoders alone: the song's number of black frames (same size, rate, preset, CRF) and the song's sound as AAC")
    func command() {
        let c = FFmpegComparison(sizes: [BenchConfiguration.Size(1920, 1080)], fps: Rational(60), encoderPreset: .ultrafast,
                                 crf: 23, songSeconds: 2.5)
        let joined = c.encoderOnlyArguments(size: c.sizes[0], song: "in.wav", output: "floor.mp4").joined(separator: " ")
        #expect(joined.contains("-f lavfi -i color=c=black:s=1920x1080:r=60 -i in.wav -map 0:v -map 1:a -frames:v 150"))
        #expect(joined.contains("-c:v libx264 -preset ultrafast -crf 23 -c:a aac floor.mp4"))
    }

    @Test("the ceiling is FFmpeg's time over the encoder's alone; absent when not measured")
    func ceiling() {
        let r = FFmpegComparisonResult(filter: "showcqt", width: 64, height: 36, fps: 60, encoderPreset: "ultrafast",
                                       songSeconds: 10, oursSeconds: 5, ffmpegSeconds: 8, encoderOnlySeconds: 4)
        #expect(r.encoderOnlySpeed == 2.5 && r.ratioCeiling == 2)
        #expect(r.shareOfCeiling == 0.8)   // ours takes 5 s where the encoders alone take 4
        let none = FFmpegComparisonResult(filter: "showcqt", width: 64, height: 36, fps: 60, encoderPreset: "ultrafast",
                                          songSeconds: 10, oursSeconds: 5, ffmpegSeconds: 8)
        #expect(none.encoderOnlySpeed == nil && none.ratioCeiling == nil && none.shareOfCeiling == nil)
    }

    @Test("the ceiling guard: a size below the share fails, one line per size, sizes without a ceiling left out")
    func ceilingGuard() {
        func result(_ w: Int, ours: Double, ceiling: Double, filter: String = "showcqt") -> FFmpegComparisonResult {
            FFmpegComparisonResult(filter: filter, width: w, height: w / 2, fps: 60, encoderPreset: "ultrafast", songSeconds: 10,
                                   oursSeconds: ours, ffmpegSeconds: 8, encoderOnlySeconds: ceiling)
        }
        var runs = [result(1280, ours: 5, ceiling: 4.5), result(1280, ours: 5, ceiling: 4.5, filter: "showwaves"),
                    result(1920, ours: 5, ceiling: 3), result(3840, ours: 5, ceiling: 0)]
        let verdict = FFmpegComparison.ceilingShares(runs, atLeast: 0.85)
        #expect(verdict.below == ["1920x960"])
        #expect(verdict.lines.count == 2)
        #expect(verdict.lines[0].hasPrefix("ok   1280x640") && verdict.lines[0].contains("90% of the encoders alone's speed on black frames"))
        #expect(verdict.lines[1].hasPrefix("FAIL 1920x960") && verdict.lines[1].contains("60%"))
        #expect(FFmpegComparison.ceilingShares(runs, atLeast: 0.5).below.isEmpty)
        // On our own pictures: only the sizes measured that way count.
        #expect(FFmpegComparison.ceilingShares(runs, atLeast: 0.85, ownPictures: true).lines.isEmpty)
        runs[2].ownPicturesSeconds = 4.8
        let own = FFmpegComparison.ceilingShares(runs, atLeast: 0.97, ownPictures: true)
        #expect(own.below == ["1920x960"] && own.lines == ["FAIL 1920x960 x264 ultrafast: ours reaches 96% of the encoders alone's speed on our own pictures (at least 97% asked)"])
    }
}
