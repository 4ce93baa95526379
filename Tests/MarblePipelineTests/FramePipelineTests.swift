import Clocks
import Foundation
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleMedia
@testable import MarblePipeline
@testable import MarbleRender
import Synchronization
import TestSupport
import Testing

/// The frame path's policies, with a source that makes frames at a chosen pace on a test clock and
/// sinks that record what they were given (the pipeline, renderer and file sink under test are the real
/// ones). The tests advance the clock and await what each advance brings: no sleeps, and no verdict
/// that depends on how fast the machine is.
@Suite struct FramePipelineTests {
    /// Frames 0..<count, frame n due `n × interval` seconds after the pacer's origin, with the frame's
    /// index in `features.level` so a sink can tell which frame it got.
    final class PacedSource: FrameSource, @unchecked Sendable {
        let count: Int
        let interval: Double
        let pacer: RealTimePacer
        /// One arrival per frame produced (drawn or dropped).
        let producedFrames = Arrivals()
        private var next = 0

        init(count: Int, interval: Double, clock: TestClock<Duration>) {
            self.count = count
            self.interval = interval
            pacer = RealTimePacer(clock: clock)
        }

        var produced: Int { producedFrames.count }
        var hasPictures: Bool { false }
        var warnings: [String] { [] }
        func makeFeatures() -> AudioFeatures { AudioFeatures(bandCount: 8, waveformLength: 16) }

        func nextDueFrame(cancel: CancellationFlag) throws(MarbleError) -> DueFrame? {
            guard next < count, !cancel.isCancelled else { return nil }
            pacer.wait(until: UInt64((Double(next) * interval * 1e9).rounded()))
            defer { next += 1 }
            return DueFrame(index: next)
        }

        func produce(_ due: DueFrame, into slot: FrameSlot?) throws(MarbleError) {
            defer { producedFrames.arrive() }
            guard let slot else { return }
            slot.index = due.index
            slot.time = Double(due.index) / 30
            slot.features.level = Float(due.index)
        }
    }

    /// Records the frames it was given, one arrival each; with `held`, holds frame 0 until `gate` opens
    /// (a display or an encoder that froze for a moment).
    final class RecordingSink: FrameSink {
        let needs: FrameNeeds
        let showsLatestOnly: Bool
        let gate = DispatchSemaphore(value: 0)
        let held: Bool
        let arrivals = Arrivals()
        private(set) var indices: [Int] = []
        private(set) var levels: [Float] = []
        private(set) var finished: Bool?
        /// Held on its gate as long as a test needs, however loaded the machine: never taken for a
        /// stalled sink (the limit is measured on the wall clock, these tests run on a test clock).
        var stallLimit: Double { 1e6 }

        init(held: Bool = false, display: Bool = false, needs: FrameNeeds = .rgba) {
            self.held = held
            self.needs = needs
            showsLatestOnly = display
        }

        func consume(_ slot: FrameSlot) throws(MarbleError) {
            indices.append(slot.index)
            levels.append(slot.features.level)
            arrivals.arrive()
            if held && indices.count == 1 { gate.wait() }
        }
        func finish(stopped: Bool) throws(MarbleError) { finished = stopped }
        func abort() { finished = nil }
    }

    func renderer(width: Int = 32, height: Int = 16) throws -> FrameRenderer {
        try FrameRenderer(scene: try PresetLibrary.load("spectrum"), width: width, height: height, fps: Rational(30), threads: 1)
    }

    /// Hands a pipeline to the thread that runs it. Safety of @unchecked Sendable: after the handover
    /// only that thread uses the pipeline.
    struct Handover: @unchecked Sendable { let pipeline: FramePipeline }

    /// Runs `pipeline` on a thread of its own (it blocks); the test drives the clock meanwhile.
    func start(_ pipeline: FramePipeline, cancel: CancellationFlag = CancellationFlag()) -> Task<PipelineStatistics?, Never> {
        let handover = Handover(pipeline: pipeline)
        return Task { await onThread { try? handover.pipeline.run(cancel: cancel) } }
    }

    /// Advances the clock to each frame's due time in turn and waits until `witness` has it, so the
    /// pipeline is never more than one frame behind the clock, however slow the machine is.
    func step(_ clock: TestClock<Duration>, frames: Int, interval: Double, witness: Arrivals) async {
        for n in 0..<frames {
            await clock.advance(to: TestClock.Instant(offset: .nanoseconds(Int64((Double(n) * interval * 1e9).rounded()))))
            await witness.reach(n + 1)
        }
    }

    @Test("offline: every frame reaches every sink in order, a held sink holds the source back")
    func offlineWaits() async throws {
        let clock = TestClock()
        let source = PacedSource(count: 40, interval: 0, clock: clock)
        let slow = RecordingSink(held: true), other = RecordingSink()
        let run = start(FramePipeline(source: source, renderer: try renderer(), sinks: [slow, other], policy: .offline))
        // 12 slots (4 + a queue of 4 per sink): frame 0 held, 1-4 queued for it, the rest in flight.
        await source.producedFrames.reach(12)
        #expect(source.produced == 12, "the source waits for the held sink")
        slow.gate.signal()
        let stats = try #require(await run.value)
        #expect(slow.indices == Array(0..<40))
        #expect(other.indices == Array(0..<40))
        #expect(slow.levels == (0..<40).map(Float.init), "each slot carries its own frame's features")
        #expect(stats.frames == 40 && stats.dropped == 0)
        #expect(slow.finished == false)
    }

    @Test("real time: a sink behind the frame clock makes frames drop and be counted, never queue up")
    func realtimeDrops() async throws {
        let clock = TestClock()
        let source = PacedSource(count: 60, interval: 0.002, clock: clock)
        let slow = RecordingSink(held: true)
        let run = start(FramePipeline(source: source, renderer: try renderer(), sinks: [slow], policy: .realtime))
        await clock.advance(by: .milliseconds(120))
        await source.producedFrames.reach(60)
        slow.gate.signal()
        let stats = try #require(await run.value)
        #expect(source.produced == 60, "every frame is analysed, drawn or not")
        // A lone sink has the pool's 4 slots: frame 0 held, 1-3 waiting; 4-59 found no slot.
        #expect(slow.indices == [0, 1, 2, 3])
        #expect(stats.frames == 4 && stats.dropped == 56, "\(stats.frames) drawn, \(stats.dropped) dropped")
        #expect(zip(slow.indices, slow.levels).allSatisfy { Float($0) == $1 })
    }

    @Test("real time, several sinks: a stalled one misses frames (its own count); the other gets every frame")
    func stalledSinkDoesNotStallOthers() async throws {
        let clock = TestClock()
        let source = PacedSource(count: 60, interval: 0.005, clock: clock)
        let stalled = RecordingSink(held: true), other = RecordingSink()
        let run = start(FramePipeline(source: source, renderer: try renderer(), sinks: [stalled, other], policy: .realtime))
        await step(clock, frames: 60, interval: 0.005, witness: other.arrivals)
        stalled.gate.signal()
        let stats = try #require(await run.value)
        #expect(stats.sourceDropped == 0, "the source never waited for the stalled sink")
        #expect(other.indices == Array(0..<60), "the healthy sink saw every frame")
        // Frame 0 held, 1-4 in its queue of 4, 5-59 missed.
        #expect(stalled.indices == [0, 1, 2, 3, 4] && stats.outputs[0].dropped == 55)
        #expect(stats.outputs[1].dropped == 0 && stats.dropped == stats.outputs[0].dropped)
        #expect(zip(stalled.indices, stalled.levels).allSatisfy { Float($0) == $1 }, "each frame kept its own slot")
    }

    /// Holds its first frame until `gate` opens (a display that froze for a moment, or an output that did).
    final class GatedSink: FrameSink {
        let gate = DispatchSemaphore(value: 0)
        let showsLatestOnly: Bool
        private(set) var indices: [Int] = []
        init(display: Bool) { showsLatestOnly = display }
        var needs: FrameNeeds { .rgba }
        func consume(_ slot: FrameSlot) throws(MarbleError) {
            indices.append(slot.index)
            if indices.count == 1 { gate.wait() }
        }
        func finish(stopped: Bool) throws(MarbleError) {}
        func abort() {}
    }

    /// Opens the gates once it has been given frame `at`.
    final class OpeningSink: FrameSink {
        let gates: [DispatchSemaphore]
        let arrivals = Arrivals()
        let at: Int
        init(gates: [DispatchSemaphore], at: Int) { self.gates = gates; self.at = at }
        var needs: FrameNeeds { .rgba }
        func consume(_ slot: FrameSlot) throws(MarbleError) {
            if slot.index == at { gates.forEach { $0.signal() } }
            arrivals.arrive()
        }
        func finish(stopped: Bool) throws(MarbleError) {}
        func abort() {}
    }

    @Test("real time: a display that was held up skips to the newest frame waiting; another output takes the oldest")
    func displayShowsNewestFrame() async throws {
        let clock = TestClock()
        let source = PacedSource(count: 30, interval: 0.005, clock: clock)
        let display = GatedSink(display: true), file = GatedSink(display: false)
        let opener = OpeningSink(gates: [display.gate, file.gate], at: 10)
        let run = start(FramePipeline(source: source, renderer: try renderer(), sinks: [display, file, opener], policy: .realtime))
        await step(clock, frames: 30, interval: 0.005, witness: opener.arrivals)
        let stats = try #require(await run.value)
        // Held on frame 0 until frame 10 was out: the display's queue of 2 held frames 1 and 2, the
        // file's queue of 4 frames 1-4; the display skipped to frame 2.
        #expect(file.indices.prefix(5) == [0, 1, 2, 3, 4], "\(file.indices)")
        #expect(display.indices.prefix(2) == [0, 2], "the display skipped frame 1: \(display.indices)")
        #expect(stats.outputs[0].dropped == 30 - display.indices.count, "skipped frames are counted as missed")
        #expect(stats.sourceDropped == 0)
    }

    @Test("offline with the same held sink drops nothing (the policy is what differs)")
    func offlineSameSinkDropsNothing() async throws {
        let clock = TestClock()
        let source = PacedSource(count: 30, interval: 0.002, clock: clock)
        let slow = RecordingSink(held: true)
        let run = start(FramePipeline(source: source, renderer: try renderer(), sinks: [slow], policy: .offline))
        await clock.advance(by: .milliseconds(60))
        await slow.arrivals.reach(1)
        slow.gate.signal()
        let stats = try #require(await run.value)
        #expect(stats.dropped == 0 && slow.indices == Array(0..<30))
    }

    @Test("cancelling ends the run and finishes the sinks as stopped")
    func cancelStops() async throws {
        let clock = TestClock()
        let source = PacedSource(count: 10_000, interval: 0.001, clock: clock)
        let sink = RecordingSink()
        let cancel = CancellationFlag()
        let run = start(FramePipeline(source: source, renderer: try renderer(), sinks: [sink], policy: .realtime),
                        cancel: cancel)
        await step(clock, frames: 100, interval: 0.001, witness: sink.arrivals)
        cancel.cancel()
        await clock.advance(by: .milliseconds(1))  // the source, waiting for frame 100, sees the flag
        let stats = try #require(await run.value)
        #expect(stats.frames >= 100 && stats.frames <= 101)
        #expect(sink.finished == true)
    }

    @Test("a constant-rate file holds every frame of the grid: skipped indices are filled with the next picture")
    func fileSinkFillsGaps() throws {
        final class GappySource: FrameSource, @unchecked Sendable {
            let indices = [0, 1, 4, 5, 9]
            var i = 0
            var hasPictures: Bool { false }
            var warnings: [String] { [] }
            func makeFeatures() -> AudioFeatures { AudioFeatures(bandCount: 8, waveformLength: 16) }
            func nextDueFrame(cancel: CancellationFlag) throws(MarbleError) -> DueFrame? {
                guard i < indices.count else { return nil }
                defer { i += 1 }
                // 4 slots for 5 frames: the last one waits for a slot (`isLast`), so no frame goes missing.
                return DueFrame(index: indices[i], lateSkipped: i == 0 ? 0 : indices[i] - indices[i - 1] - 1,
                                isLast: i == indices.count - 1)
            }
            func produce(_ due: DueFrame, into slot: FrameSlot?) throws(MarbleError) {
                slot?.index = due.index
                slot?.time = Double(due.index) / 30
            }
        }
        let path = TestMedia.output("gaps.mp4")
        let settings = VideoEncoder.Settings(width: 64, height: 32, fps: Rational(30), crf: 30, preset: .ultrafast,
                                             threads: 1, globalHeader: false)
        let writer = try MediaWriter(path: path, format: .mp4, settings: settings, audioFrom: nil)
        let sink = EncodingSink(writer: writer) { _ in MarbleError(.output, "empty") }
        let stats = try FramePipeline(source: GappySource(), renderer: try renderer(width: 64, height: 32), sinks: [sink],
                                      policy: .realtime).run(cancel: CancellationFlag())
        #expect(stats.dropped == 5 && stats.frames == 5, "\(stats.dropped) dropped, \(stats.frames) drawn")
        #expect(try Probe(path).video?.frames == 10)
    }

    @Test("the renderer follows a preset selection and a size, allocating only on a change")
    func rendererFollowsSelectionAndSize() throws {
        let wanted = Mutex("spectrum"), size = Mutex((width: 32, height: 16))
        let renderer = try FrameRenderer(scene: try PresetLibrary.load("spectrum"), width: 32, height: 16, fps: Rational(30),
                                         threads: 1, choose: { SceneChoice(preset: wanted.withLock { $0 }) },
                                         chosen: SceneChoice(preset: "spectrum"), sizing: { size.withLock { $0 } })
        let slot = try FrameSlot(width: 32, height: 16, features: AudioFeatures(), hasPicture: false, needs: .rgba)
        try renderer.render(slot)
        #expect(renderer.compositor.layerNames == (try PresetLibrary.load("spectrum")).layers.map(\.shader))
        wanted.withLock { $0 = "magma" }
        try renderer.render(slot)
        #expect(renderer.compositor.layerNames == (try PresetLibrary.load("magma")).layers.map(\.shader))
        size.withLock { $0 = (48, 20) }
        try renderer.render(slot)
        #expect(slot.canvas?.width == 48 && slot.canvas?.height == 20)
        #expect(renderer.compositor.width == 48)
    }
}
