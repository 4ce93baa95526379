import Foundation
import MarbleCore
@testable import MarbleMedia
import Testing

extension CaptureTests {
    @Suite("The buffer between the capture thread and its readers")
    struct Buffer {
        /// Appends `values` to both channels (the right one negated, to tell them apart).
        private func append(_ buffer: CaptureBuffer, _ values: [Float]) {
            let right = values.map { -$0 }
            values.withUnsafeBufferPointer { l in
                right.withUnsafeBufferPointer { r in
                    buffer.append(left: l.baseAddress!, right: r.baseAddress!, count: values.count)
                }
            }
        }

        private func read(_ buffer: CaptureBuffer, from: Int, upTo: Int)
            -> (first: Int, left: [Float], right: [Float], runs: Int) {
            var left: [Float] = [], right: [Float] = [], runs = 0
            let first = buffer.read(from: from, upTo: upTo) { l, r in
                #expect(l.count == r.count)
                left += l
                right += r
                runs += 1
            }
            return (first, left, right, runs)
        }

        @Test("reads by absolute index, across the wrap, and skips what was overwritten")
        func readsByIndex() {
            let buffer = CaptureBuffer(sampleRate: 10_000, seconds: 0.1)  // 1024 samples (the minimum)
            #expect(buffer.capacity == 1024)
            append(buffer, (0..<1000).map(Float.init))
            #expect(buffer.written == 1000)
            let early = read(buffer, from: 10, upTo: 13)
            #expect(early.first == 10 && early.left == [10, 11, 12] && early.right == [-10, -11, -12])

            append(buffer, (1000..<1500).map(Float.init))  // wraps: 0…475 are gone
            let wrapped = read(buffer, from: 1000, upTo: 1100)
            #expect(wrapped.runs == 2 && wrapped.left == (1000..<1100).map(Float.init))
            let stale = read(buffer, from: 0, upTo: 500)
            #expect(stale.first == 1500 - 1024 && stale.left == (476..<500).map(Float.init))
            let future = read(buffer, from: 1500, upTo: 2000)
            #expect(future.runs == 0 && future.first == 1500)
        }

        @Test("interleaved blocks are split into channels; silence is counted")
        func interleavedAndSilence() {
            let buffer = CaptureBuffer(sampleRate: 48_000)
            let frames: [Float] = [1, -1, 2, -2, 3, -3]
            frames.withUnsafeBytes { buffer.append(interleaved: $0.baseAddress!, frames: 3) }
            buffer.appendSilence(count: 2)
            let all = read(buffer, from: 0, upTo: 5)
            #expect(all.left == [1, 2, 3, 0, 0] && all.right == [-1, -2, -3, 0, 0])
            #expect(buffer.written == 5 && buffer.silenceFilled == 2)
        }

        @Test("arrival times per block, nil for samples not held")
        func arrivalTimes() {
            let buffer = CaptureBuffer(sampleRate: 10_000, seconds: 0.1)
            #expect(buffer.arrivalTime(ofSample: 0) == nil)
            let before = MonotonicClock.now()
            append(buffer, [Float](repeating: 1, count: 100))
            let first = buffer.arrivalTime(ofSample: 0), last = buffer.arrivalTime(ofSample: 99)
            // The next block once the clock has moved past the first one's time (it has, the moment
            // the loop sees it: waiting for that, not for a length of time).
            while let first, MonotonicClock.now() <= first {}
            append(buffer, [Float](repeating: 2, count: 100))
            let second = buffer.arrivalTime(ofSample: 100)
            #expect(first != nil && first == last && first! >= before)
            #expect(second != nil && second! > first!)
            #expect(buffer.arrivalTime(ofSample: 200) == nil)
            append(buffer, [Float](repeating: 3, count: 1024))  // overwrites everything before
            #expect(buffer.arrivalTime(ofSample: 150) == nil)
            #expect(buffer.arrivalTime(ofSample: 200) != nil)
        }

        @Test("wait returns when something is written, or at its timeout")
        func waits() {
            let buffer = CaptureBuffer(sampleRate: 48_000)
            let startedAt = ContinuousClock.now
            #expect(buffer.wait(after: 0, timeout: 0.05) == 0)
            #expect(seconds(since: startedAt) >= 0.04)
            // Written from another thread, before or during the wait: either way it returns with it
            // (the timeout only guards against a hang).
            let writer = Thread { buffer.appendSilence(count: 480) }
            writer.start()
            #expect(buffer.wait(after: 0, timeout: 60) == 480)
            #expect(buffer.wait(after: 100, timeout: 5) == 480)  // already past: returns at once
        }
    }
}
