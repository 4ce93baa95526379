import Clocks
import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Synchronization
import Testing

/// Songs fed at real-time pace into a capture buffer: one rate, one continuous stream, loops, ends.
@Suite struct PlaylistFeedTests {
    /// Blocks until the feed's buffer has ended (the feed's thread is done), waking on each block appended.
    static func untilEnded(_ feed: PlaylistFeed) async {
        await onThread { while !feed.buffer.hasEnded { _ = feed.buffer.wait(after: feed.buffer.written, timeout: 1) } }
    }

    /// Waits until the feed's thread waits on the clock: its schedule starts when the thread does (the
    /// pacer's time then), so the test advances the clock only once that time is fixed.
    static func waitingOnTheClock(_ pacer: RealTimePacer) async -> Bool {
        await eventually { pacer.waiting == 1 }
    }

    @Test("two songs at 44.1 and 48 kHz become one 48 kHz stream as long as both, at the clock's pace, then the buffer ends")
    func continuousAndPaced() async throws {
        let songs = [try TestMedia.tone("wav", seconds: 0.5, rate: 44_100), try TestMedia.tone("wav", seconds: 0.5, rate: 48_000)]
        let clock = TestClock(), pacer = RealTimePacer(clock: clock)
        let feed = try PlaylistFeed(paths: songs, loop: false, pacer: pacer)
        feed.start()
        #expect(await Self.waitingOnTheClock(pacer))
        // Never ahead of the clock: at 0.5 s at most 0.5 s + the 20 ms lead + one 10 ms block.
        await clock.advance(by: .milliseconds(500))
        #expect(feed.buffer.written <= 24_000 + 960 + 480, "\(feed.buffer.written) samples at 0.5 s")
        #expect(!feed.buffer.hasEnded)
        await clock.advance(by: .milliseconds(500))
        await Self.untilEnded(feed)
        feed.stop()
        #expect(abs(feed.buffer.written - 48_000) < 200, "\(feed.buffer.written) samples for 1 s of songs")
        // No gap at the join: the 440 Hz tone goes on through sample 24000 (RMS of the 20 ms around it).
        var around: [Float] = []
        feed.buffer.read(from: 24_000 - 480, upTo: 24_000 + 480) { left, _ in around += left }
        let rms = (around.reduce(0) { $0 + $1 * $1 } / Float(around.count)).squareRoot()
        #expect(rms > 0.2, "the songs join without silence (rms \(rms))")
        #expect(feed.warnings.isEmpty)
    }

    @Test("loop plays the list again; a song that cannot be played is skipped with a warning")
    func loopAndSkip() async throws {
        let broken = TestMedia.output("not-audio-\(getpid()).wav")
        try Data("not a wav file".utf8).write(to: URL(fileURLWithPath: broken))
        let clock = TestClock(), pacer = RealTimePacer(clock: clock)
        let feed = try PlaylistFeed(paths: [broken, try TestMedia.tone("wav", seconds: 0.3, rate: 48_000)], loop: true,
                                    pacer: pacer)
        feed.start()
        #expect(await Self.waitingOnTheClock(pacer))
        // Two passes of 0.3 s are due by 0.6 s; the third is under way, never ahead of the clock.
        await clock.advance(by: .milliseconds(700))
        await onThread { while feed.passes < 2 { _ = feed.buffer.wait(after: feed.buffer.written, timeout: 1) } }
        feed.stop()
        #expect(feed.buffer.written >= 2 * 14_400 - 500, "two passes: \(feed.buffer.written) samples")
        #expect(feed.buffer.written <= 33_600 + 960 + 480, "0.7 s of the clock: \(feed.buffer.written) samples")
        #expect(feed.warnings.contains { $0.contains(broken) && $0.contains("skipped") })
        #expect(throws: MarbleError.self) { try PlaylistFeed(paths: [], loop: false) }
        #expect(throws: MarbleError.self) { try PlaylistFeed(paths: ["/no/such/song.mp3"], loop: false) }
    }

    /// Speakers that hear nothing: they keep what they were given and report a fixed latency.
    final class FakeSpeakers: AudioOutput, @unchecked Sendable {
        let sampleRate = 48_000
        let fixedLatency: Double
        /// Safety of @unchecked Sendable: written by the feed's thread only, read by the test once it ended.
        private(set) var left: [Float] = []
        /// Frames written so far, for a look while the feed runs.
        let frames = Mutex(0)
        init(latency: Double) { fixedLatency = latency }
        func write(_ samples: UnsafePointer<Float>, frames: Int) throws(MarbleError) {
            for i in 0..<frames { left.append(samples[2 * i]) }
            self.frames.withLock { $0 += frames }
        }
        func latency() throws(MarbleError) -> Double { fixedLatency }
        func flush() throws(MarbleError) {}
        func drain() throws(MarbleError) {}
    }

    @Test("several songs are heard too: the speakers get every sample, ahead of the buffer by their latency")
    func speakers() async throws {
        let songs = [try TestMedia.tone("wav", seconds: 0.3, rate: 44_100), try TestMedia.tone("wav", seconds: 0.3, rate: 48_000)]
        let clock = TestClock(), pacer = RealTimePacer(clock: clock)
        let speakers = FakeSpeakers(latency: 0.03)
        let feed = try PlaylistFeed(paths: songs, loop: false, pacer: pacer, speakers: speakers)
        feed.start()
        #expect(await Self.waitingOnTheClock(pacer))
        // At 0.3 s the buffer holds at most 0.3 s + the 20 ms lead + a block; the speakers 30 ms more.
        await clock.advance(by: .milliseconds(300))
        let buffered = feed.buffer.written
        #expect(buffered <= 14_400 + 960 + 480, "\(buffered) samples in the buffer at 0.3 s")
        let spoken = speakers.frames.withLock { $0 }
        #expect(spoken <= 14_400 + 960 + 1_440 + 480, "\(spoken) samples given to the speakers at 0.3 s")
        await clock.advance(by: .milliseconds(400))
        await Self.untilEnded(feed)
        feed.stop()
        #expect(abs(feed.buffer.written - 28_800) < 200, "\(feed.buffer.written) samples for 0.6 s of songs")
        #expect(speakers.left.count == feed.buffer.written, "the speakers heard all of it")
        var heard: [Float] = []
        feed.buffer.read(from: 0, upTo: feed.buffer.written) { left, _ in heard += left }
        #expect(heard == speakers.left, "the same samples, in the same order")
    }

    @Test("stop from two threads at once (a session's disconnect effect and its way out) returns on both")
    func concurrentStops() throws {
        let feed = try PlaylistFeed(paths: [try TestMedia.tone("wav", seconds: 5, rate: 48_000)], loop: false)
        feed.start()
        _ = feed.buffer.wait(after: 0, timeout: 2)
        let returned = DispatchSemaphore(value: 0)
        for _ in 0..<2 { Thread.detachNewThread { feed.stop(); returned.signal() } }
        #expect(returned.wait(timeout: .now() + 5) == .success && returned.wait(timeout: .now() + 5) == .success,
                "both stops returned")
        feed.stop()  // and once more, after the thread ended
    }
}
