import Foundation
@testable import MarbleCore
import Testing

/// The trace is one per process and the pipelines of other suites record into it while it is on, so
/// these tests look only at the lanes of their own threads (named `trace-test-…`) and run one at a time.
@Suite("FrameTrace", .serialized)
struct FrameTraceTests {
    /// Runs `body` on a new thread named `name` and waits for it.
    static func onThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            FrameTrace.nameThread(name)
            body()
            done.signal()
        }
        done.wait()
    }

    static func spans(_ count: Int, _ kind: FrameTrace.Span, firstFrame: Int = 0) {
        for i in 0..<count {
            let s = FrameTrace.begin()
            FrameTrace.end(kind, s, frame: firstFrame + i)
        }
    }

    @Test("nothing is recorded while no trace is on, and spans begun before the start are not kept")
    func offRecordsNothing() {
        _ = FrameTrace.stop()
        Self.onThread("trace-test-off") {
            #expect(!FrameTrace.isOn)
            Self.spans(10, .render)
        }
        let early = FrameTrace.begin()   // begun while off: a zero stamp
        FrameTrace.start()
        FrameTrace.end(.render, early, frame: 1)
        let recording = FrameTrace.stop()
        #expect(!recording.lanes.contains { $0.name.hasPrefix("trace-test-off") })
    }

    @Test("each thread records into its own lane, named after the thread, with its frames in order")
    func lanesPerThread() {
        FrameTrace.start()
        Self.onThread("trace-test-a") { Self.spans(5, .render) }
        Self.onThread("trace-test-b") { Self.spans(3, .encode, firstFrame: 100) }
        let recording = FrameTrace.stop()
        let a = recording.lanes.filter { $0.name == "trace-test-a" }, b = recording.lanes.filter { $0.name == "trace-test-b" }
        #expect(a.count == 1 && b.count == 1)
        #expect(a.first?.events.map(\.frame) == [0, 1, 2, 3, 4])
        #expect(b.first?.events.map(\.frame) == [100, 101, 102])
        #expect(a.first?.events.allSatisfy { $0.kind == FrameTrace.Span.render.rawValue && $0.end >= $0.start } == true)
        let totals = recording.totals().first { $0.lane == "trace-test-b" }
        #expect(totals?.counts[.encode] == 3 && totals?.counts[.render] == nil)
    }

    @Test("a second trace starts with fresh lanes: a thread that recorded before gets a new one")
    func freshLanes() {
        // One thread records in both traces (frames far above any other suite's).
        let thread = DispatchQueue(label: "trace-test-fresh")
        FrameTrace.start()
        thread.sync { Self.spans(2, .produce, firstFrame: 900_000) }
        let first = FrameTrace.stop()
        FrameTrace.start()
        thread.sync { Self.spans(3, .produce, firstFrame: 900_010) }
        let second = FrameTrace.stop()
        func frames(_ r: FrameTrace.Recording) -> [Int32] {
            r.lanes.flatMap { $0.events.filter { $0.frame >= 900_000 }.map(\.frame) }
        }
        #expect(frames(first) == [900_000, 900_001])
        #expect(frames(second) == [900_010, 900_011, 900_012])
    }

    @Test("a thread's busy time counts nested spans once and leaves waits out")
    func busyTime() {
        FrameTrace.start()
        Self.onThread("trace-test-busy") {
            let draw = FrameTrace.begin()
            Self.spans(3, .strips)          // inside the draw
            FrameTrace.end(.render, draw, frame: 0)
            let wait = FrameTrace.begin()
            FrameTrace.end(.waitFrame, wait, frame: 1)
            Self.spans(1, .encode, firstFrame: 1)
        }
        let recording = FrameTrace.stop()
        let lane = recording.lanes.first { $0.name == "trace-test-busy" }
        let totals = recording.totals().first { $0.lane == "trace-test-busy" }
        guard let lane, let totals else { Issue.record("no lane"); return }
        let outer = lane.events.filter { [FrameTrace.Span.render.rawValue, FrameTrace.Span.encode.rawValue].contains($0.kind) }
        let expected = outer.reduce(0.0) { $0 + Double($1.end - $1.start) / 1e6 }
        #expect(abs(totals.busyWall - expected) < 1e-9)
        #expect(totals.busyWall <= totals.wall.values.reduce(0, +))   // the strips and the wait are not added
    }

    @Test("past the span limit spans are counted as dropped, not kept; memory grows in whole chunks")
    func limit() {
        FrameTrace.start(spanLimit: 1)   // one chunk in all
        Self.onThread("trace-test-limit") { Self.spans(20_000, .strips) }
        let recording = FrameTrace.stop()
        let lane = recording.lanes.first { $0.name == "trace-test-limit" }
        // Another suite's thread may have taken the one chunk first: then every span was dropped.
        #expect(lane.map { [0, 16_384].contains($0.events.count) && $0.events.count + $0.dropped == 20_000 } == true)
    }

    @Test("the Chrome trace: thread names, one complete event per span with wall and CPU time and the frame")
    func chromeJSON() throws {
        FrameTrace.start()
        Self.onThread("trace-test-json \"quoted\"") {
            let s = FrameTrace.begin()
            var x = 0.0
            for i in 0..<200_000 { x += Double(i).squareRoot() }
            FrameTrace.end(.render, s, frame: 7)
            #expect(x > 0)
            FrameTrace.end(.finish, FrameTrace.begin())
        }
        let recording = FrameTrace.stop()
        let mine = FrameTrace.Recording(lanes: recording.lanes.filter { $0.name.hasPrefix("trace-test-json") })
        let object = try #require(try JSONSerialization.jsonObject(with: mine.chromeJSON()) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        let name = events.first { $0["name"] as? String == "thread_name" }
        #expect((name?["args"] as? [String: Any])?["name"] as? String == "trace-test-json \"quoted\"")
        let spans = events.filter { $0["ph"] as? String == "X" }
        #expect(spans.map { $0["name"] as? String } == ["draw + YUV", "finish (flush encoders, close)"])
        let draw = try #require(spans.first)
        #expect((draw["args"] as? [String: Any])?["frame"] as? Int == 7)
        #expect(spans.last?["args"] == nil)
        let dur = try #require((draw["dur"] as? NSNumber)?.doubleValue), cpu = try #require((draw["tdur"] as? NSNumber)?.doubleValue)
        #expect(dur > 0 && cpu > 0 && cpu <= dur + 1000)   // µs; the CPU clock's ticks can round up past the wall's
        #expect((draw["ts"] as? NSNumber)?.doubleValue == 0)   // the first span is time 0
        #expect(draw["cat"] as? String == "work")
    }

    @Test("microseconds keep three decimals without trailing noise")
    func micros() {
        #expect(FrameTrace.Recording.micros(1_234_567) == "1234.567")
        #expect(FrameTrace.Recording.micros(5_000) == "5")
        #expect(FrameTrace.Recording.micros(5_007) == "5.007")
    }
}
