import Foundation
import MarbleCore
import MarbleKit

/// The whole job as users run it: `RenderJob` on the benchmark song to an MP4 (decode, analysis, render,
/// convert, x264, AAC, mux, with its stages overlapping on their threads).
///
/// Per-frame times are the intervals between finished frames on the encoding thread (the job's progress
/// callback, called after every frame here), i.e. what the output side sees; fps is frames / wall time.
struct PipelineBench {
    let preset: String
    let size: BenchConfiguration.Size
    let threads: Int

    func run(song: String, configuration c: BenchConfiguration) throws(MarbleError) -> BenchResult {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("marble-bench-\(getpid())-pipeline-\(size).mp4").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var options = RenderOptions(input: song, output: output)
        options.width = size.width
        options.height = size.height
        options.fps = c.fps
        options.preset = preset
        options.threads = threads
        options.encoderPreset = c.encoderPreset
        options.crf = c.crf
        let job = try RenderJob(options: options)
        var interval = StageTimer(name: "frame interval")
        var last: UInt64 = 0
        var countedFrom = 0, allocationsAtWarmup = 0, allocationsAtLast = 0, lastFrame = 0
        AllocationCounter.start()
        defer { AllocationCounter.stop() }
        let summary = try job.run(progressInterval: 0) { p in
            let now = MonotonicClock.now()
            if p.frames > c.warmup && last != 0 { interval.record(nanoseconds: now &- last) }
            last = now
            if p.frames == c.warmup || (countedFrom == 0 && p.frames > c.warmup) {
                countedFrom = p.frames
                allocationsAtWarmup = AllocationCounter.count
            }
            allocationsAtLast = AllocationCounter.count
            lastFrame = p.frames
        }
        let steadyFrames = lastFrame - countedFrom
        var stats = interval.stats(frames: max(1, interval.count))
        let allocs = AllocationCounter.isCounting && steadyFrames > 0
            ? Double(allocationsAtLast - allocationsAtWarmup) / Double(steadyFrames) : nil
        stats.allocationsPerFrame = allocs
        return BenchResult(name: "render \(preset)", kind: .pipeline, width: size.width, height: size.height,
                           threads: threads, frames: summary.frames, total: stats, stages: [stats],
                           fps: summary.framesPerSecond, allocationsPerFrame: allocs,
                           peakRSSMegabytes: MachineInfo.peakRSSMegabytes(),
                           note: String(format: "x264 %@, %.2fx real time", c.encoderPreset.rawValue, summary.realTimeFactor))
    }
}
