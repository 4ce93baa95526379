@testable import MarbleAnalysis
@testable import MarbleBench
import MarbleCore
@testable import MarblePipeline
import Shaders
import Testing

@Suite("StageTimer")
struct StageTimerTests {
    @Test("percentiles of 1…100 ms are the known order statistics")
    func knownPercentiles() {
        var timer = StageTimer(name: "t")
        for ms in 1...100 { timer.record(milliseconds: Double(ms)) }
        let s = timer.stats(frames: 100)
        // HdrHistogram with 3 significant digits: within 0.1 %.
        #expect(abs(s.p50 - 50) <= 0.05)
        #expect(abs(s.p95 - 95) <= 0.1)
        #expect(abs(s.p99 - 99) <= 0.1)
        #expect(abs(s.max - 100) <= 0.1)
        #expect(abs(s.mean - 50.5) < 1e-9)
        #expect(timer.count == 100)
        #expect(s.allocationsPerFrame == nil)
    }

    @Test("a constant input gives equal percentiles; allocations divide by frames")
    func constant() {
        var timer = StageTimer(name: "t")
        for _ in 0..<10 { timer.record(nanoseconds: 2_000_000) }
        timer.allocations = 30
        let s = timer.stats(frames: 10)
        #expect(abs(s.p50 - 2) < 0.003 && abs(s.p99 - 2) < 0.003 && abs(s.max - 2) < 0.003)
        #expect(s.allocationsPerFrame == 3)
    }

    @Test("measure records one sample per call")
    func measureRecords() {
        var timer = StageTimer(name: "t")
        let v = timer.measure { 41 + 1 }
        #expect(v == 42)
        #expect(timer.count == 1)
    }
}
