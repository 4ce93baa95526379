import Foundation

/// Runs the output's sound (decode again, encode or copy, mux) on a thread of its own, following the
/// video, so AAC/Opus encoding does not slow the encode stage (the pipeline's slowest). It never runs
/// ahead of the last video frame, so a stopped render can still trim the sound to the video's end.
///
/// The muxer serialises writes with its own lock, and its interleaver orders packets by timestamp, so
/// the file's bytes do not depend on thread timing.
///
/// Safety of @unchecked Sendable: `track` is touched only by the pump's thread once started (and by
/// nobody before `finish` has joined it); every other stored property is guarded by `condition`.
final class SoundThread: @unchecked Sendable {
    private let track: AudioTrack
    private let condition = NSCondition()
    private var target = 0.0
    private var finalTarget: Double?? = nil   // .some(nil) = everything
    private var cancelled = false
    private var done = false
    private var failure: MarbleError?

    init(track: AudioTrack) {
        self.track = track
        Thread.detachNewThread { [self] in self.loop() }
    }

    /// The video has reached `seconds`: sound may be written up to there.
    func advance(to seconds: Double) {
        condition.lock()
        target = seconds
        condition.signal()
        condition.unlock()
    }

    /// Writes the rest of the sound (up to `seconds`, or all of it when nil) and waits for the thread.
    func finish(upTo seconds: Double?) throws(MarbleError) {
        condition.lock()
        finalTarget = .some(seconds)
        condition.signal()
        while !done { condition.wait() }
        let error = failure
        condition.unlock()
        if let error { throw error }
    }

    /// Stops the thread without writing more (the file is being abandoned).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.signal()
        while !done { condition.wait() }
        condition.unlock()
    }

    private func loop() {
        var written = 0.0
        while true {
            condition.lock()
            while !cancelled && finalTarget == nil && target <= written { condition.wait() }
            let stop = cancelled
            let last = finalTarget
            let upTo = last ?? target
            condition.unlock()
            if stop { break }
            do throws(MarbleError) {
                if let last {
                    try track.write(upTo: last)
                    break
                }
                try track.write(upTo: upTo)
                written = upTo ?? written
            } catch {
                condition.lock()
                failure = error
                condition.unlock()
                break
            }
        }
        condition.lock()
        done = true
        condition.broadcast()
        condition.unlock()
    }

    var warnings: [String] { track.warnings }
}
