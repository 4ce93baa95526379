import Foundation
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleMedia
@testable import MarblePipeline
@testable import MarbleRender
import Synchronization
import TestSupport
import Testing

/// The frame path's policies, with a source that makes frames at a chosen pace and sinks that record
/// what they were given (the pipeline, renderer and file sink under test are the real ones).
@Suite struct FramePipelineTests {
    /// Frames 0..<count, each due `interval` seconds after the previous one (0: at once), with the
    /// frame's index in `features.level` so a sink can tell which frame it got.
    final class PacedSource: FrameSource, @unchecked Sendable {
        let count: Int
        let interval: Double
        private var next = 0
        private var started: Double?
        private(set) var produced = 0

        init(count: Int, interval: Double) {
            self.count = count
            self.interval = interval
        }

        var hasPictures: Bool { false }
        var warnings: [String] { [] }
        func makeFeatures() -> AudioFeatures { AudioFeatures(bandCount: 8, waveformLength: 16) }

        func nextDueFrame(cancel: CancellationFlag) throws(MarbleError) -> DueFrame? {
            guard next < count, !cancel.isCancelled else { return nil }
            let now = Double(MonotonicClock.now()) / 1e9
            let start = started ?? now
            started = start
            let due = start + Double(next) * interval
            if due > now { Thread.sleep(forTimeInterval: due - now) }
            defer { next += 1 }
            return DueFrame(index: next)
        }

        func produce(_ due: DueFrame, into slot: FrameSlot?) throws(MarbleError) {
            produced += 1
            guard let slot else { return }
            slot.index = due.index
            slot.time = Double(due.index) / 30
            slot.features.level = Float(due.index)
        }
    }

    /// Records the frames it was given; sleeps `delay` seconds on each (a slow display or encoder).
    final class RecordingSink: FrameSink {
        let delay: Double
        let needs: FrameNeeds
        private(set) var indices: [Int] = []
        private(set) var levels: [Float] = []
        private(set) var finished: Bool?

        init(delay: Double = 0, needs: FrameNeeds = .rgba) {
            self.delay = delay
            self.needs = needs
        }

        func consume(_ slot: FrameSlot) throws(MarbleError) {
            indices.append(slot.index)
            levels.append(slot.features.level)
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        }
        func finish(stopped: Bool) throws(MarbleError) { finished = stopped }
        func abort() { finished = nil }
    }

    func renderer(width: Int = 32, height: Int = 16) throws -> FrameRenderer {
        try FrameRenderer(scene: try PresetLibrary.load("spectrum"), width: width, height: height, fps: Rational(30), threads: 1)
    }

    @Test("offline: every frame reaches every sink in order, a slow sink holds the source back")
    func offlineWaits() throws {
        let source = PacedSource(count: 40, interval: 0)
        let slow = RecordingSink(delay: 0.002), other = RecordingSink()
        let stats = try FramePipeline(source: source, renderer: try renderer(), sinks: [slow, other], policy: .offline)
            .run(cancel: CancellationFlag())
        #expect(slow.indices == Array(0..<40))
        #expect(other.indices == Array(0..<40))
        #expect(slow.levels == (0..<40).map(Float.init), "each slot carries its own frame's features")
        #expect(stats.frames == 40 && stats.dropped == 0)
        #expect(slow.finished == false)
    }

    @Test("real time: a sink slower than the frame clock makes frames drop and be counted, never queue up")
    func realtimeDrops() throws {
        let source = PacedSource(count: 60, interval: 0.002)
        let slow = RecordingSink(delay: 0.02)
        let stats = try FramePipeline(source: source, renderer: try renderer(), sinks: [slow], policy: .realtime)
            .run(cancel: CancellationFlag())
        #expect(source.produced == 60, "every frame is analysed, drawn or not")
        #expect(stats.dropped > 20, "\(stats.dropped) dropped")
        #expect(stats.frames + stats.dropped == 60)
        #expect(slow.indices == slow.indices.sorted() && Set(slow.indices).count == slow.indices.count)
        #expect(zip(slow.indices, slow.levels).allSatisfy { Float($0) == $1 })
    }

    @Test("real time, several sinks: a stalled one misses frames (its own count); the other gets every frame")
    func stalledSinkDoesNotStallOthers() throws {
        let source = PacedSource(count: 60, interval: 0.005)
        let stalled = RecordingSink(delay: 0.05), other = RecordingSink()
        let stats = try FramePipeline(source: source, renderer: try renderer(), sinks: [stalled, other], policy: .realtime)
            .run(cancel: CancellationFlag())
        #expect(stats.sourceDropped == 0, "the source never waited for the stalled sink")
        #expect(other.indices == Array(0..<60), "the healthy sink saw every frame")
        #expect(stalled.indices.count < 30 && stats.outputs[0].dropped == 60 - stalled.indices.count)
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
        let at: Int
        init(gates: [DispatchSemaphore], at: Int) { self.gates = gates; self.at = at }
        var needs: FrameNeeds { .rgba }
        func consume(_ slot: FrameSlot) throws(MarbleError) {
            if slot.index == at { gates.forEach { $0.signal() } }
        }
        func finish(stopped: Bool) throws(MarbleError) {}
        func abort() {}
    }

    @Test("real time: a display that was held up skips to the newest frame waiting; another output takes the oldest")
    func displayShowsNewestFrame() throws {
        let source = PacedSource(count: 30, interval: 0.005)
        let display = GatedSink(display: true), file = GatedSink(display: false)
        let opener = OpeningSink(gates: [display.gate, file.gate], at: 10)
        let stats = try FramePipeline(source: source, renderer: try renderer(), sinks: [display, file, opener], policy: .realtime)
            .run(cancel: CancellationFlag())
        // Held on frame 0 until frame 10 was out, both queues hold frames 1 and 2 (the rest missed).
        #expect(file.indices.prefix(2) == [0, 1], "\(file.indices)")
        #expect(display.indices.count > 1 && display.indices[1] >= 2, "the display skipped frame 1: \(display.indices)")
        #expect(stats.outputs[0].dropped == 30 - display.indices.count, "skipped frames are counted as missed")
        #expect(stats.sourceDropped == 0)
    }

    @Test("offline with the same slow sink drops nothing (the policy is what differs)")
    func offlineSameSinkDropsNothing() throws {
        let source = PacedSource(count: 30, interval: 0.002)
        let slow = RecordingSink(delay: 0.01)
        let stats = try FramePipeline(source: source, renderer: try renderer(), sinks: [slow], policy: .offline)
            .run(cancel: CancellationFlag())
        #expect(stats.dropped == 0 && slow.indices == Array(0..<30))
    }

    @Test("cancelling ends the run and finishes the sinks as stopped")
    func cancelStops() throws {
        let source = PacedSource(count: 10_000, interval: 0.001)
        let sink = RecordingSink()
        let cancel = CancellationFlag()
        Thread.detachNewThread { Thread.sleep(forTimeInterval: 0.1); cancel.cancel() }
        let stats = try FramePipeline(source: source, renderer: try renderer(), sinks: [sink], policy: .realtime)
            .run(cancel: cancel)
        #expect(stats.frames > 0 && stats.frames < 10_000)
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
                if i > 0 { Thread.sleep(forTimeInterval: 0.1) }   // time for the encoder: no slot goes missing
                defer { i += 1 }
                return DueFrame(index: indices[i], lateSkipped: i == 0 ? 0 : indices[i] - indices[i - 1] - 1)
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
                                         threads: 1, selection: { wanted.withLock { $0 } }, selected: "spectrum",
                                         sizing: { size.withLock { $0 } })
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
