import Foundation
import MarbleCore

/// Runs the output's sound from a file (decode again, encode or copy, mux) on a thread of its own,
/// following the video, so AAC/Opus encoding does not slow the encode stage (the pipeline's slowest).
/// It never runs ahead of the last video frame, so a stopped render can still trim the sound to the
/// video's end; and it never falls more than ``lagLimit`` behind it either: ``advance(to:)`` waits for it.
///
/// Both bounds keep the file's bytes independent of thread timing. The muxer serialises writes with its
/// own lock, and its interleaver (`av_interleaved_write_frame`) orders packets by timestamp as long as
/// every stream has one queued; but when its queue spans more than `max_interleave_delta` (10 s) it
/// forces packets out early, and the order then depends on which thread ran when. Sound kept within a
/// second of the video keeps the queue short, whatever the speed of the render.
///
/// Safety of @unchecked Sendable: `track` is touched only by the pump's thread once started (and by
/// nobody before `finish` has joined it); every other stored property is guarded by `condition`.
final class SoundThread: @unchecked Sendable {
    /// How far (seconds) the sound may trail the video before ``advance(to:)`` waits for it.
    static let lagLimit = 1.0

    private let track: AudioTrack
    private let condition = NSCondition()
    private var target = 0.0
    /// Where the sound has been written up to.
    private var written = 0.0
    private var finalTarget: Double?? = nil   // .some(nil) = everything
    private var cancelled = false
    private var done = false
    private var failure: MarbleError?

    init(track: AudioTrack) {
        self.track = track
        Thread.detachNewThread { [self] in self.loop() }
    }

    /// The video has reached `seconds`: sound may be written up to there. Waits while the sound is more
    /// than ``lagLimit`` behind (it returns at once if the sound thread has stopped).
    func advance(to seconds: Double) {
        condition.lock()
        target = seconds
        condition.broadcast()
        while !done && seconds - written > SoundThread.lagLimit { condition.wait() }
        condition.unlock()
    }

    /// Writes the rest of the sound (up to `seconds`, or all of it when nil) and waits for the thread.
    func finish(upTo seconds: Double?) throws(MarbleError) {
        condition.lock()
        finalTarget = .some(seconds)
        condition.broadcast()
        while !done { condition.wait() }
        let error = failure
        condition.unlock()
        if let error { throw error }
    }

    /// Stops the thread without writing more (the file is being abandoned).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !done { condition.wait() }
        condition.unlock()
    }

    private func loop() {
        FrameTrace.nameThread("sound")
        while true {
            condition.lock()
            while !cancelled && finalTarget == nil && target <= written { condition.wait() }
            let stop = cancelled
            let last = finalTarget
            let upTo = target
            condition.unlock()
            if stop { break }
            let span = FrameTrace.begin()
            defer { FrameTrace.end(.sound, span) }
            do throws(MarbleError) {
                if let last {
                    try track.write(upTo: last)
                    break
                }
                try track.write(upTo: upTo)
            } catch {
                condition.lock()
                failure = error
                condition.unlock()
                break
            }
            condition.lock()
            written = upTo
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        done = true
        condition.broadcast()
        condition.unlock()
    }

    var warnings: [String] { track.warnings }
}
