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
///
/// Songs: ``load(_:)`` hands the thread the next song's decoder; it plays at the pump's rate (the first
/// song's: the device's), resampled when the song has another. The thread then waits for the store's
/// seek to its start (a new clock generation) before it plays, so no sound of the new song is heard
/// under the old song's generation.
final class AudioPump: Sendable {
    struct Commands: Sendable {
        var paused = false
        /// The pending seek: where to, and the clock generation it starts.
        var seek: (seconds: Double, generation: Int)?
        var stop = false
        /// The version of the last transport applied (see ``PlayerTransport``).
        var version = 0
        /// The next song's decoder, handed over once.
        var next: HandedDecoder?
    }

    /// A decoder on its way to the audio thread. Safety of @unchecked Sendable: ``load(_:)`` takes it
    /// as `sending` (its maker keeps no reference), and from the mailbox on only the audio thread uses it.
    struct HandedDecoder: @unchecked Sendable {
        let decoder: AudioDecoder
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

    /// A pump at `decoder`'s rate (the rate `output` was opened at); `stereo`: whether the analyser
    /// gets both channels (by default when the first song has two; a playlist passes true).
    init(decoder: AudioDecoder, output: any AudioOutput, pacer: RealTimePacer = .system(),
         wake: RealTimePacer.Wake = RealTimePacer.Wake(), stereo: Bool? = nil) {
        clock = AudioClock(sampleRate: decoder.sampleRate, pacer: pacer)
        self.wake = wake
        handoff = SampleHandoff(sampleRate: decoder.sampleRate, stereo: stereo ?? (decoder.channels == 2))
        worker = Worker(decoder: decoder, output: output)
    }

    /// Plays `decoder` next (the song the store loaded): the rest of the current song is dropped, and
    /// the thread waits for the seek that starts the new song's clock generation.
    func load(_ decoder: sending AudioDecoder) {
        let handed = HandedDecoder(decoder: decoder)
        mailbox.withLock { $0.next = handed }  // taken within a pause poll or a device write
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
            box.next = nil
            return c
        }
    }
}

/// The audio thread's own state.
///
/// Safety of @unchecked Sendable: created on the caller's thread, then used only by the audio thread
/// (`run` is called once, from `AudioPump.start`).
private final class Worker: @unchecked Sendable {
    private var decoder: AudioDecoder
    let output: any AudioOutput
    /// The pump's rate: the first song's.
    private let rate: Int
    /// Converts a song at another rate to the pump's (nil: the same rate).
    private var resampler: StereoResampler?
    /// A new song began: nothing plays until the seek that starts its clock generation.
    private var awaitingSeek = false
    private var interleaved: UnsafeMutablePointer<Float>
    private var reading = AudioClock.Reading()
    private var atEnd = false
    /// `play` dropped the rest of a block because a seek or a stop arrived.
    private var interrupted = false
    /// No block was decoded since the last seek or song change.
    private var fresh = true

    init(decoder: AudioDecoder, output: any AudioOutput) {
        self.decoder = decoder
        self.output = output
        rate = decoder.sampleRate
        interleaved = .allocate(capacity: 2 * AudioPump.sliceFrames)
    }

    deinit { interleaved.deallocate() }

    func run(_ pump: AudioPump) throws(MarbleError) {
        pump.handoff.reset(base: 0)
        while true {
            let commands = pump.takeCommands()
            if commands.stop { return }
            if let next = commands.next { try begin(next.decoder, pump) }
            if let target = commands.seek { try seek(to: target.seconds, generation: target.generation, pump) }
            if commands.paused || atEnd || awaitingSeek {
                try publish(pump)
                pump.clock.pacer.wait(seconds: AudioPump.pausePoll, wake: pump.wake)
                continue
            }
            var failure: MarbleError?
            let more = try decoder.decodeNext { left, right in
                let start = pumpSample(decoder.chunkStart)
                if fresh && start != reading.baseSample {
                    // The demuxer landed after the seek target: the stream starts where it landed.
                    reading.baseSample = start
                    pump.handoff.reset(base: start)
                }
                fresh = false
                if let resampler {
                    resampler.convert(left: left, right: right) { l, r in
                        if failure == nil && !interrupted { failure = deliver(l, r, pump) }
                    }
                } else {
                    failure = deliver(left, right, pump)
                }
            }
            if let e = failure { throw e }
            if interrupted { continue }  // the rest of the block was dropped for a seek or a stop
            if !more {
                try output.drain()
                atEnd = true
                reading.ended = true
                try publish(pump)
            }
        }
    }

    /// Hands a block at the pump's rate to the analyser and the device; returns the device's error.
    private func deliver(_ left: UnsafeBufferPointer<Float>, _ right: UnsafeBufferPointer<Float>?,
                         _ pump: AudioPump) -> MarbleError? {
        pump.handoff.push(left, right, start: reading.baseSample + reading.written)
        do throws(MarbleError) { try play(left, right, pump) } catch { return error }
        return nil
    }

    /// A sample index of the song's decoder at the pump's rate.
    private func pumpSample(_ index: Int) -> Int {
        decoder.sampleRate == rate ? index : Int((Double(index) * Double(rate) / Double(decoder.sampleRate)).rounded())
    }

    /// The next song: the rest of this one is dropped (unless it played to its end) and the stream
    /// starts over at its first sample, once the store's seek gives it its clock generation.
    private func begin(_ next: AudioDecoder, _ pump: AudioPump) throws(MarbleError) {
        if !atEnd { try output.flush() }
        decoder = next
        resampler = next.sampleRate == rate ? nil : try StereoResampler(from: next.sampleRate, to: rate)
        atEnd = false
        interrupted = false
        fresh = true
        awaitingSeek = true
        reading.baseSample = 0
        reading.written = 0
        reading.ended = false
        pump.handoff.reset(base: 0)
        try publish(pump)
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
                if commands.stop || commands.seek != nil || commands.next != nil {
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
        // A resampler's history belongs before the jump: a new one.
        if resampler != nil { resampler = try StereoResampler(from: decoder.sampleRate, to: rate) }
        atEnd = false
        interrupted = false
        fresh = true
        awaitingSeek = false
        reading.generation = generation
        reading.baseSample = pumpSample(decoder.samplesDelivered)
        reading.written = 0
        reading.ended = false
        pump.handoff.reset(base: reading.baseSample)
        try publish(pump)
    }

    private func publish(_ pump: AudioPump) throws(MarbleError) {
        reading.latency = try output.latency()
        reading.stamp = pump.clock.pacer.now
        pump.clock.publish(reading)
    }
}
