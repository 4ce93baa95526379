import Foundation
import Granite
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleKit
@testable import MarbleMedia
@testable import MarblePipeline
import Testing

@Suite("marble play: audio clock, sample hand-off")
struct PlayAudioClockTests {
    @Test("heard = written − latency + elapsed, within what was written")
    func position() {
        let clock = AudioClock(sampleRate: 48_000)
        var r = AudioClock.Reading()
        r.baseSample = 48_000       // seeked to 1 s
        r.written = 4_800           // 0.1 s written since
        r.latency = 0.05
        r.stamp = 1_000_000_000
        #expect(abs(clock.position(of: r, at: r.stamp) - 1.05) < 1e-9)
        #expect(abs(clock.position(of: r, at: r.stamp + 20_000_000) - 1.07) < 1e-9)
        #expect(clock.position(of: r, at: r.stamp + 2_000_000_000) == 1.1)  // never past what was written
        r.latency = 0.5
        #expect(clock.position(of: r, at: r.stamp) == 1.0)  // never before the seek target
    }

    @Test("samples arrive in order; a reset starts a new stream")
    func handoff() {
        let h = SampleHandoff(sampleRate: 8_000, stereo: false, seconds: 1)
        h.reset(base: 0)
        var generation = -1
        var bases: [Int] = []
        var got: [Float] = []
        let a: [Float] = [1, 2, 3], b: [Float] = [4, 5]
        a.withUnsafeBufferPointer { h.push($0, nil, start: 0) }
        b.withUnsafeBufferPointer { h.push($0, nil, start: 3) }
        h.drain(generation: &generation, reset: { bases.append($0) }, append: { l, r in
            #expect(r == nil)
            got += l
        })
        #expect(got == [1, 2, 3, 4, 5])
        #expect(bases == [0])
        h.reset(base: 24_000)
        a.withUnsafeBufferPointer { h.push($0, nil, start: 24_000) }
        got = []
        h.drain(generation: &generation, reset: { bases.append($0) }, append: { l, _ in got += l })
        #expect(bases == [0, 24_000])
        #expect(got == [1, 2, 3])
    }

    @Test("an overflowing hand-off starts over instead of blocking the audio thread")
    func overflow() {
        let h = SampleHandoff(sampleRate: 4_096, stereo: true, seconds: 1)  // 4096 samples
        h.reset(base: 0)
        let block = [Float](repeating: 0.5, count: 3_000)
        var generation = -1
        var bases: [Int] = []
        block.withUnsafeBufferPointer { h.push($0, $0, start: 0) }
        block.withUnsafeBufferPointer { h.push($0, $0, start: 3_000) }
        var count = 0
        h.drain(generation: &generation, reset: { bases.append($0) }, append: { l, r in
            #expect(r != nil)
            count += l.count
        })
        #expect(bases == [3_000])
        #expect(count == 3_000)
    }
}
