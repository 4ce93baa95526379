import Foundation
import MarbleCore
import MarbleMedia
import MarbleRender

/// What `marble bench` measures, and how.
package struct BenchConfiguration: Sendable {
    package typealias Size = FrameSize

    package var sizes: [Size] = [Size(1280, 720), Size(1920, 1080)]
    package var threads: [Int] = [StripScheduler.availableCores]
    /// Measured frames per benchmark (after the warm-up).
    package var frames = 240
    /// Frames rendered and thrown away first (caches, page faults, thread start-up).
    package var warmup = 30
    package var fps = Rational(60)
    /// Only benchmarks whose name contains this (case-insensitive).
    package var filter: String?
    /// Also run colour conversion into the real encoder (x264) in the preset benchmarks.
    package var encode = false
    package var encoderPreset = EncoderPreset.ultrafast
    package var crf = 20
    package var includeShaders = true
    package var includePresets = true
    package var includePipeline = true
    /// The MilkDrop presets of ``MilkDropBenchSet`` (when projectm-data is installed).
    package var includeMilkDrop = true
    /// What the stage times are read from: wall time (default), or the calling thread's CPU time (the
    /// guard, on one thread: blind to time the thread spent preempted on a busy machine).
    package var clock = BenchClock.wall

    package init() {}

    /// Milliseconds one frame may take to keep up with `fps` (16.7 ms at 60 fps).
    package var budgetMilliseconds: Double { 1000 / fps.doubleValue }

    package func matches(_ name: String) -> Bool {
        guard let filter, !filter.isEmpty else { return true }
        return name.lowercased().contains(filter.lowercased())
    }

    /// The most frames one benchmark measures or warms up with.
    package static let maximumFrames = 100_000

    package func validate() throws(MarbleError) {
        // Every measured frame keeps its stage times (a few doubles): bounded, not sized by a typo.
        _ = try Limits.check(frames, in: 1...Self.maximumFrames, "--frames")
        _ = try Limits.check(warmup, in: 0...Self.maximumFrames, "--warmup")
        guard !sizes.isEmpty else { throw MarbleError(.option, "--size: give at least one size") }
        for size in sizes where !size.isValidFrameSize {
            throw MarbleError(.option, "--size \(size): expected even WIDTHxHEIGHT between 16x16 and 7680x4320, e.g. 1920x1080")
        }
        for t in threads { _ = try Limits.check(t, in: Limits.threads, "--threads") }
        _ = try Limits.check(rate: fps)
    }
}

/// The clocks a benchmark can read, in nanoseconds.
package enum BenchClock: String, Sendable {
    /// Monotonic wall time (what a viewer waits).
    case wall
    /// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`): only meaningful when the work runs on
    /// that thread, i.e. with one render thread.
    case threadCPU = "thread-cpu"

    package func now() -> UInt64 {
        switch self {
        case .wall: return MonotonicClock.now()
        case .threadCPU:
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
        }
    }
}
