import MarbleCore

/// The capture thread's side of the `CaptureBuffer`: appends what the stream delivers and the silence
/// the `CapturePacer` calls for, so the buffer's timeline keeps step with the capture's clock (the
/// injected `RealTimePacer`: wall time in use).
///
/// Used only on the event loop's thread (or with its lock held), like the engine that owns it.
final class CaptureTimeline {
    let buffer: CaptureBuffer
    private let fragmentSeconds: Double
    private let clock: RealTimePacer
    private var pacer: CapturePacer

    init(buffer: CaptureBuffer, fragmentSeconds: Double, clock: RealTimePacer) {
        self.buffer = buffer
        self.fragmentSeconds = fragmentSeconds
        self.clock = clock
        pacer = CapturePacer(sampleRate: buffer.sampleRate, fragmentSeconds: fragmentSeconds, start: 0)
    }

    /// Starts the timeline at `now`: the first block closes the gap since then with silence.
    func begin(at now: UInt64) {
        pacer = CapturePacer(sampleRate: buffer.sampleRate, fragmentSeconds: fragmentSeconds, start: now)
        pacer.markDiscontinuity()
    }

    /// The stream was replaced (switch of source, reconnect): the next block closes the gap.
    func markDiscontinuity() { pacer.markDiscontinuity() }

    /// A block from the stream: interleaved stereo float32 frames, or nil bytes for a hole in the
    /// stream (captured as silence). Preceded by silence when it ends a gap; its oldest frames are
    /// dropped when the timeline runs too far ahead.
    func append(_ bytes: UnsafeRawPointer?, frames: Int) {
        let admission = pacer.admit(frames: frames, at: clock.now)
        if admission.silence > 0 { buffer.appendSilence(count: admission.silence) }
        let kept = frames - admission.drop
        guard kept > 0 else { return }
        if let bytes {
            buffer.append(interleaved: bytes + admission.drop * CaptureOptions.bytesPerFrame, frames: kept)
        } else {
            buffer.appendSilence(count: kept)
        }
    }

    /// Every fragment (`now`: the clock's time): fills silence when no data has come for a while.
    func tick(at now: UInt64) {
        let due = pacer.silenceDue(at: now)
        if due > 0 { buffer.appendSilence(count: due) }
    }
}
