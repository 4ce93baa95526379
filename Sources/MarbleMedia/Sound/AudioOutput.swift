import Foundation
import MarbleCore

/// Where the player's sound goes: a device that consumes interleaved float32 stereo at `sampleRate`
/// in real time. Its pace is the player's master clock.
///
/// Used from one thread only (the player's audio thread).
package protocol AudioOutput: AnyObject {
    var sampleRate: Int { get }
    /// Writes `frames` interleaved stereo frames; blocks while the device's buffer is full.
    func write(_ samples: UnsafePointer<Float>, frames: Int) throws(MarbleError)
    /// Seconds between a sample written now and the moment it is heard.
    func latency() throws(MarbleError) -> Double
    /// Drops what is buffered and not yet heard.
    func flush() throws(MarbleError)
    /// Returns once everything written has been heard.
    func drain() throws(MarbleError)
}

/// A silent device for `--no-audio`: it "plays" samples at `sampleRate` on the session's
/// ``RealTimePacer``, with a buffer of `bufferSeconds`, so the player runs exactly as with a sound card
/// (and a test drives it with a test clock).
///
/// Model: `played` advances with the clock and never passes `written` (an underrun just idles, as a
/// real stream does when nobody writes); every write re-anchors the clock, so idle time is not counted.
package final class SilentAudioOutput: AudioOutput {
    package let sampleRate: Int
    private let bufferFrames: Int
    private let pacer: RealTimePacer
    /// Ends a blocked write or drain when the player stops.
    private let wake: RealTimePacer.Wake?
    private var written = 0
    private var anchorPlayed = 0.0
    private var anchorTime: UInt64

    package init(sampleRate: Int, bufferSeconds: Double = 0.1, pacer: RealTimePacer = .system(),
                 wake: RealTimePacer.Wake? = nil) {
        self.sampleRate = sampleRate
        self.pacer = pacer
        self.wake = wake
        bufferFrames = max(1, Int(Double(sampleRate) * bufferSeconds))
        anchorTime = pacer.now
    }

    private func played(at now: UInt64) -> Double {
        min(Double(written), anchorPlayed + Double(now &- anchorTime) * 1e-9 * Double(sampleRate))
    }

    package func write(_ samples: UnsafePointer<Float>, frames: Int) throws(MarbleError) {
        let now = pacer.now
        anchorPlayed = played(at: now)
        anchorTime = now
        written += frames
        // Block until the buffer holds at most `bufferFrames`, as a full device buffer would.
        let excess = Double(written - bufferFrames) - anchorPlayed
        if excess > 0 { pacer.wait(until: now &+ UInt64((excess / Double(sampleRate) * 1e9).rounded(.up)), wake: wake) }
    }

    package func latency() throws(MarbleError) -> Double {
        (Double(written) - played(at: pacer.now)) / Double(sampleRate)
    }

    package func flush() throws(MarbleError) {
        anchorTime = pacer.now
        anchorPlayed = 0
        written = 0
    }

    package func drain() throws(MarbleError) {
        let remaining = try latency()
        if remaining > 0 { pacer.wait(seconds: remaining, wake: wake) }
    }
}
