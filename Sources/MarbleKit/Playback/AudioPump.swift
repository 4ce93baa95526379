import Foundation
import Synchronization
import MarbleCore
import MarbleMedia

/// The player's audio thread: decodes, hands the samples to the analyser, and writes them to the
/// device, whose blocking writes pace everything. It publishes the ``AudioClock`` after each write.
///
/// Control (pause, seek: the player store's transport, see ``follow(_:)``; stop) arrives through a
/// small locked mailbox read between writes of at most
/// ``sliceFrames`` frames, so a command takes effect within about 20 ms. Pausing simply stops the
/// writes: the device plays out its short buffer and idles; resuming continues with the next sample,
/// so no sound is lost or repeated. A seek flushes the device and repositions the decoder. While paused
/// the thread looks at the mailbox every ``pausePoll`` on the session's ``RealTimePacer``.
final class AudioPump: Sendable {
    struct Commands: Sendable {
        var paused = false
        /// The pending seek: where to, and the clock generation it starts.
        var seek: (seconds: Double, generation: Int)?
        var stop = false
        /// The version of the last transport applied (see ``PlayerTransport``).
        var version = 0
    }

    let clock: AudioClock
    let handoff: SampleHandoff
    private let mailbox = Mutex(Commands())
    private let failure = Mutex<MarbleError?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    /// Owned by the audio thread once `start()` ran.
    private let worker: Worker

    /// Frames per device write: about 21 ms at 48 kHz.
    static let sliceFrames = 1024

    /// How often a paused thread looks at the mailbox, in seconds.
    static let pausePoll = 0.005

    /// Ends the audio thread's waits on the clock when it stops (shared with a silent device).
    let wake: RealTimePacer.Wake

    init(decoder: AudioDecoder, output: any AudioOutput, pacer: RealTimePacer = .system(),
         wake: RealTimePacer.Wake = RealTimePacer.Wake()) {
        clock = AudioClock(sampleRate: decoder.sampleRate, pacer: pacer)
        self.wake = wake
        handoff = SampleHandoff(sampleRate: decoder.sampleRate, stereo: decoder.channels == 2)
        worker = Worker(decoder: decoder, output: output)
    }

    /// Starts the audio thread, paused or not.
    func start(paused: Bool) {
        mailbox.withLock { $0.paused = paused }
        Thread.detachNewThread { [self] in
            do throws(MarbleError) {
                try worker.run(self)
            } catch {
                failure.withLock { $0 = error }
            }
            finished.signal()
        }
    }

    /// Follows the transport the player's store decided: pause or play, and seek (the device buffer is
    /// flushed, the clock starts the seek's generation). A transport older than the last one applied is
    /// ignored, so effects that arrive out of order cannot bring back an old state; a seek requested
    /// before the previous one was taken replaces it.
    func follow(_ transport: PlayerTransport) {
        mailbox.withLock { box in
            guard transport.version > box.version else { return }
            box.version = transport.version
            box.paused = transport.paused
            if let seek = transport.seek { box.seek = (seek.seconds, seek.generation) }
        }
    }

    /// Stops the thread and waits for it (at most one device write, about 20 ms, plus a drain at the end).
    func stop() {
        mailbox.withLock { $0.stop = true }
        wake.wake()
        finished.wait()
        finished.signal()  // later calls return at once
    }

    /// The error that stopped the audio thread, if any.
    var error: MarbleError? { failure.withLock { $0 } }

    /// The pending commands, left in the mailbox.
    fileprivate func peekCommands() -> Commands { mailbox.withLock { $0 } }

    /// Takes the pending commands (a seek is handed out once).
    fileprivate func takeCommands() -> Commands {
        mailbox.withLock { box in
            let c = box
            box.seek = nil
            return c
        }
    }
}

/// The audio thread's own state.
///
/// Safety of @unchecked Sendable: created on the caller's thread, then used only by the audio thread
/// (`run` is called once, from `AudioPump.start`).
private final class Worker: @unchecked Sendable {
    let decoder: AudioDecoder
    let output: any AudioOutput
    private var interleaved: UnsafeMutablePointer<Float>
    private var reading = AudioClock.Reading()
    private var atEnd = false
    /// `play` dropped the rest of a block because a seek or a stop arrived.
    private var interrupted = false

    init(decoder: AudioDecoder, output: any AudioOutput) {
        self.decoder = decoder
        self.output = output
        interleaved = .allocate(capacity: 2 * AudioPump.sliceFrames)
    }

    deinit { interleaved.deallocate() }

    func run(_ pump: AudioPump) throws(MarbleError) {
        pump.handoff.reset(base: 0)
        while true {
            let commands = pump.takeCommands()
            if commands.stop { return }
            if let target = commands.seek { try seek(to: target.seconds, generation: target.generation, pump) }
            if commands.paused || atEnd {
                try publish(pump)
                pump.clock.pacer.wait(seconds: AudioPump.pausePoll, wake: pump.wake)
                continue
            }
            var chunk: (start: Int, error: MarbleError?) = (0, nil)
            let more = try decoder.decodeNext { left, right in
                chunk.start = decoder.chunkStart
                if reading.written == 0 && chunk.start != reading.baseSample {
                    // The demuxer landed after the seek target: the stream starts where it landed.
                    reading.baseSample = chunk.start
                    pump.handoff.reset(base: chunk.start)
                }
                pump.handoff.push(left, right, start: chunk.start)
                do throws(MarbleError) { try play(left, right, pump) } catch { chunk.error = error }
            }
            if let e = chunk.error { throw e }
            if interrupted { continue }  // the rest of the block was dropped for a seek or a stop
            if !more {
                try output.drain()
                atEnd = true
                reading.ended = true
                try publish(pump)
            }
        }
    }

    /// Interleaves and writes one decoded block in slices, publishing the clock after each. Between
    /// slices it looks at the mailbox: on a seek or a stop the rest of the block is dropped
    /// (`interrupted`) and the next turn of `run` takes the command; a pause waits here.
    private func play(_ left: UnsafeBufferPointer<Float>, _ right: UnsafeBufferPointer<Float>?,
                      _ pump: AudioPump) throws(MarbleError) {
        var offset = 0
        let r = right ?? left
        while offset < left.count {
            if offset > 0 {
                let commands = pump.peekCommands()
                if commands.stop || commands.seek != nil {
                    interrupted = true
                    return
                }
                if commands.paused {
                    try publish(pump)
                    pump.clock.pacer.wait(seconds: AudioPump.pausePoll, wake: pump.wake)
                    continue
                }
            }
            let n = min(AudioPump.sliceFrames, left.count - offset)
            for i in 0..<n {
                interleaved[2 &* i] = left[offset &+ i]
                interleaved[2 &* i &+ 1] = r[offset &+ i]
            }
            try output.write(interleaved, frames: n)
            reading.written += n
            offset += n
            try publish(pump)
        }
    }

    private func seek(to seconds: Double, generation: Int, _ pump: AudioPump) throws(MarbleError) {
        try output.flush()
        try decoder.seek(to: seconds)
        atEnd = false
        interrupted = false
        reading.generation = generation
        reading.baseSample = decoder.samplesDelivered
        reading.written = 0
        reading.ended = false
        pump.handoff.reset(base: decoder.samplesDelivered)
        try publish(pump)
    }

    private func publish(_ pump: AudioPump) throws(MarbleError) {
        reading.latency = try output.latency()
        reading.stamp = pump.clock.pacer.now
        pump.clock.publish(reading)
    }
}
