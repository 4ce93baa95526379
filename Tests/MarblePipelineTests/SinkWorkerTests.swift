import Clocks
import Foundation
import MarbleCore
@testable import MarblePipeline
import TestSupport
import Testing

/// A sink's failure and a sink that stops returning, under each ``SinkFailureRule``: with the paced
/// source and recording sink of ``FramePipelineTests`` (the clock is a test clock; each step waits for
/// what the healthy sink reports, never for time).
@Suite struct SinkWorkerTests {
    let base = FramePipelineTests()

    /// Throws at frame `failAt` (a full disk, a lost window); records whether it was aborted.
    final class FailingSink: FrameSink {
        let failAt: Int
        private(set) var taken = 0
        private(set) var aborted = false, finished = false
        init(failAt: Int) { self.failAt = failAt }
        var needs: FrameNeeds { .rgba }
        var label: String { "failing.mp4" }
        func consume(_ slot: FrameSlot) throws(MarbleError) {
            guard slot.index < failAt else { throw MarbleError(.output, "failing.mp4: cannot write: No space left on device") }
            taken += 1
        }
        func finish(stopped: Bool) throws(MarbleError) { finished = true }
        func abort() { aborted = true }
    }

    /// A display whose first present never returns until `gate` opens (a window on a frozen X server),
    /// given up on after a tenth of a second.
    final class FrozenSink: FrameSink {
        let gate = DispatchSemaphore(value: 0)
        var needs: FrameNeeds { .rgba }
        var label: String { "window" }
        var showsLatestOnly: Bool { true }
        var stallLimit: Double { 0.1 }
        func consume(_ slot: FrameSlot) throws(MarbleError) { gate.wait() }
        func finish(stopped: Bool) throws(MarbleError) { gate.wait() }
        func abort() {}
    }

    @Test("closesSink: a sink that fails is aborted alone; the other gets every frame and is finished; the run names the lost one")
    func failedSinkClosedAlone() async throws {
        let clock = TestClock()
        let source = FramePipelineTests.PacedSource(count: 30, interval: 0.01, clock: clock)
        let failing = FailingSink(failAt: 5), good = FramePipelineTests.RecordingSink()
        let run = base.start(FramePipeline(source: source, renderer: try base.renderer(), sinks: [failing, good],
                                           policy: .realtime, sinkFailures: .closesSink))
        await base.step(clock, frames: 30, interval: 0.01, witness: good.arrivals)
        let stats = try #require(await run.value, "the run goes on without the failed sink")
        #expect(good.indices == Array(0..<30) && good.finished == false)
        #expect(failing.taken == 5 && failing.aborted && !failing.finished)
        #expect(stats.failedOutputs == [.init(label: "failing.mp4", message: "failing.mp4: cannot write: No space left on device")])
    }

    @Test("closesSink: when every sink failed, the run fails with the first error")
    func everySinkFailed() throws {
        let clock = TestClock()
        let source = FramePipelineTests.PacedSource(count: 1_000_000, interval: 0, clock: clock)
        let pipeline = FramePipeline(source: source, renderer: try base.renderer(), sinks: [FailingSink(failAt: 2), FailingSink(failAt: 4)],
                                     policy: .realtimeBuffered, sinkFailures: .closesSink)
        #expect(throws: MarbleError.self) { _ = try pipeline.run(cancel: CancellationFlag()) }
    }

    @Test("stopsRun (render): one sink's failure ends the run and aborts the other")
    func failureStopsRun() throws {
        let clock = TestClock()
        let source = FramePipelineTests.PacedSource(count: 1_000_000, interval: 0, clock: clock)
        let good = FramePipelineTests.RecordingSink()
        let pipeline = FramePipeline(source: source, renderer: try base.renderer(), sinks: [FailingSink(failAt: 3), good],
                                     policy: .offline)
        #expect(throws: MarbleError.self) { _ = try pipeline.run(cancel: CancellationFlag()) }
        #expect(good.finished == nil, "aborted")
    }

    @Test("a sink that stops returning is abandoned when the run ends: the others finish, the run names it")
    func frozenSinkAbandoned() async throws {
        let clock = TestClock()
        let source = FramePipelineTests.PacedSource(count: 20, interval: 0.01, clock: clock)
        let frozen = FrozenSink(), good = FramePipelineTests.RecordingSink()
        defer { frozen.gate.signal(); frozen.gate.signal() }   // lets the abandoned thread go after the test
        let run = base.start(FramePipeline(source: source, renderer: try base.renderer(), sinks: [frozen, good],
                                           policy: .realtime, sinkFailures: .closesSink))
        await base.step(clock, frames: 20, interval: 0.01, witness: good.arrivals)
        let stats = try #require(await run.value)
        #expect(good.indices == Array(0..<20) && good.finished == false)
        #expect(stats.failedOutputs == [.init(label: "window", message: "window: not responding for 0.1 s; abandoned")])
    }

    @Test("a lone sink that stops returning holds up no frame clock: the source runs to its end, the run fails naming it")
    func loneFrozenSink() async throws {
        let clock = TestClock()
        let source = FramePipelineTests.PacedSource(count: 20, interval: 0.01, clock: clock)
        let frozen = FrozenSink()
        defer { frozen.gate.signal(); frozen.gate.signal() }
        let run = base.start(FramePipeline(source: source, renderer: try base.renderer(), sinks: [frozen],
                                           policy: .realtime, sinkFailures: .closesSink))
        await base.step(clock, frames: 20, interval: 0.01, witness: source.producedFrames)
        let value = await run.value
        #expect(value == nil, "every output lost: the run fails")
    }
}
