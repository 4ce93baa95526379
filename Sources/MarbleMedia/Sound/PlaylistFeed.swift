import Foundation
import Synchronization
import MarbleCore

/// Songs played at real-time pace into a ``CaptureBuffer``, as if a capture device were hearing them:
/// `marble play` with outputs (a stream, a recording, a window) runs the live frame path on it, so a
/// playlist streams with the same analysis, the same A/V step and one continuous timeline, song after
/// song without a gap (and from the top again with `loop`).
///
/// A thread decodes ahead of time and appends what is due every 10 ms on its ``RealTimePacer`` (10 ms
/// blocks, like a capture's fragments; a test clock in tests), resampled to one rate. A song that cannot be opened or breaks
/// off is skipped with a warning; a pass over the list that plays nothing at all ends the feed. With
/// speakers (a sound device at the buffer's rate), each block is also written to them, ahead of its
/// time by the latency they report, so the songs are heard in step with their picture.
///
/// Safety of @unchecked Sendable: the decoding state and the speakers are used by the feed's thread
/// only (after `init`); what other threads read (the current song, warnings, the stop flag) is behind a Mutex or an atomic.
package final class PlaylistFeed: @unchecked Sendable {
    package let buffer: CaptureBuffer
    package let paths: [String]
    package let loop: Bool
    /// The clock the songs are played on.
    package let pacer: RealTimePacer
    /// Blocks appended at a time (10 ms).
    private let block: Int
    private let stopped = Atomic<Bool>(false)
    /// Ends the feed thread's wait on the clock when it stops.
    private let wake = RealTimePacer.Wake()
    /// Where the songs are heard too, if anywhere (the feed's thread only; dropped when it fails).
    private var speakers: (any AudioOutput)?
    /// Samples written to the speakers so far (the feed's thread only).
    private var spoken = 0
    /// One block, interleaved for the speakers.
    private let interleaved: UnsafeMutablePointer<Float>
    private let done = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)
    private let state = Mutex((song: -1, title: "", warnings: [String](), passes: 0))
    private let handler = Mutex<(@Sendable (Int, String) -> Void)?>(nil)
    /// Seconds of sound appended ahead of the clock (so a reader never waits on a song change).
    static let lead = 0.02
    /// Seconds of sound the speakers may be given ahead of the buffer (their own latency is within it).
    static let speakerLead = 0.25

    /// Checks that there is something to play; files are opened when their turn comes.
    /// - Throws: `.input` for an empty list or a path that does not exist.
    package init(paths: [String], loop: Bool, sampleRate: Int = 48_000, pacer: RealTimePacer = .system(),
                 speakers: (any AudioOutput)? = nil) throws(MarbleError) {
        guard !paths.isEmpty else { throw MarbleError(.input, "nothing to play: the playlist is empty") }
        for path in paths where !path.contains("://") && !FileManager.default.fileExists(atPath: path) {
            throw MarbleError(.input, "\(path): no such file")
        }
        self.paths = paths
        self.loop = loop
        self.pacer = pacer
        buffer = CaptureBuffer(sampleRate: sampleRate)
        block = sampleRate / 100
        self.speakers = speakers
        interleaved = .allocate(capacity: 2 * block)
    }

    deinit { interleaved.deallocate() }

    /// The song playing now (its file name), or "" before the first.
    package var title: String { state.withLock { $0.title } }
    /// Its index in ``paths``.
    package var songIndex: Int { state.withLock { $0.song } }
    /// How many times the list has been played through (`loop`).
    package var passes: Int { state.withLock { $0.passes } }
    /// Songs skipped because they could not be played, one line each.
    package var warnings: [String] { state.withLock { $0.warnings } }
    /// Called on the feed's thread when a song starts, with its index in ``paths`` and its title.
    package var onSongChange: (@Sendable (Int, String) -> Void)? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// What a song is called in status lines: its file name without the extension.
    package static func title(of path: String) -> String {
        URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }

    /// Starts playing on a thread of its own (once).
    package func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Thread.detachNewThread { [self] in
            play()
            buffer.end()
            done.signal()
        }
    }

    /// Stops and waits for the feed's thread; the buffer ends where it is. Idempotent, and safe from
    /// several threads at once (a session's disconnect effect and its own way out both stop it):
    /// each waiter passes the thread's one signal on to the next.
    package func stop() {
        stopped.store(true, ordering: .relaxed)
        wake.wake()
        guard started.load(ordering: .acquiring) else { return }
        done.wait()
        done.signal()
    }

    private func play() {
        let clockStart = pacer.now
        let rate = buffer.sampleRate
        var pending = PendingSamples()
        repeat {
            var playedAny = false
            for (index, path) in paths.enumerated() {
                let title = PlaylistFeed.title(of: path)
                state.withLock { $0.song = index; $0.title = title }
                onSongChange?(index, title)
                do throws(MarbleError) {
                    let decoder = try AudioDecoder(path: path)
                    let resampler = decoder.sampleRate == rate ? nil : try StereoResampler(from: decoder.sampleRate, to: rate)
                    var more = true
                    while more && !stopped.load(ordering: .relaxed) {
                        more = try decoder.decodeNext { left, right in
                            if let resampler {
                                resampler.convert(left: left, right: right) { l, r in pending.add(l, r) }
                            } else {
                                pending.add(left, right ?? left)
                            }
                        }
                        playedAny = playedAny || pending.count > 0
                        pace(&pending, clockStart: clockStart)
                    }
                    for w in decoder.warnings { note(w) }
                } catch {
                    note("\(path): skipped (\(error.message))")
                }
                if stopped.load(ordering: .relaxed) { return }
            }
            pace(&pending, clockStart: clockStart, flush: true)
            state.withLock { $0.passes += 1 }
            if !playedAny { return }
        } while loop && !stopped.load(ordering: .relaxed)
    }

    /// Appends what is due on the clock in 10 ms blocks, waiting until each is due; with speakers, also
    /// writes each block to them ahead of its time by the latency they report, so that it is heard when
    /// the picture of it is drawn. Returns when less than a block is pending for either (or, with
    /// `flush`, when all of it went out).
    private func pace(_ pending: inout PendingSamples, clockStart: UInt64, flush: Bool = false) {
        while pending.count >= block || (flush && pending.count > 0) {
            if stopped.load(ordering: .relaxed) { return }
            let unspoken = speakers == nil ? 0 : pending.unspoken
            if speakers != nil && unspoken < block && !flush { return }  // decode more for the speakers first
            let now = pacer.now
            var next = UInt64.max
            if unspoken > 0, let speakers {
                // A sample written now is heard after what the device holds (its latency): written once
                // that moment is its time, it is heard on time. At most `speakerLead` ahead of the buffer.
                let held = UInt64(max(0, (try? speakers.latency()) ?? 0) * 1e9)
                let due = dueTime(of: spoken, clockStart: clockStart)
                let ahead = Double(spoken - buffer.written) / Double(buffer.sampleRate)
                if ahead < PlaylistFeed.speakerLead && now &+ held &+ 1 >= due {
                    speak(&pending, count: min(block, unspoken), to: speakers)
                    continue
                }
                if ahead < PlaylistFeed.speakerLead { next = due &- min(due, held) }
            }
            let due = dueTime(of: buffer.written, clockStart: clockStart)
            if now &+ 1 >= due {
                let n = min(block, pending.count)
                pending.take(n) { l, r in buffer.append(left: l, right: r, count: n) }
                continue
            }
            pacer.wait(until: min(next, due), slice: 0.05, wake: wake)
        }
    }

    /// When sample `index` of the timeline may be appended: `lead` before its time on the clock.
    private func dueTime(of index: Int, clockStart: UInt64) -> UInt64 {
        UInt64(max(0, Double(index) / Double(buffer.sampleRate) - PlaylistFeed.lead) * 1e9) &+ clockStart
    }

    /// Writes the next `count` samples to the speakers (interleaved); a device that fails is dropped
    /// with a warning and the show goes on silently.
    private func speak(_ pending: inout PendingSamples, count: Int, to speakers: any AudioOutput) {
        pending.speak(count) { l, r in
            for i in 0..<count {
                interleaved[2 &* i] = l[i]
                interleaved[2 &* i &+ 1] = r[i]
            }
        }
        spoken += count
        do throws(MarbleError) {
            try speakers.write(interleaved, frames: count)
        } catch {
            note("speakers: \(error.message); playing on without sound")
            self.speakers = nil
        }
    }

    private func note(_ warning: String) {
        state.withLock { if $0.warnings.count < 100 { $0.warnings.append(warning) } }
    }
}

/// Decoded samples waiting for their time: a planar stereo FIFO that reuses its storage.
private struct PendingSamples {
    private var left: [Float] = []
    private var right: [Float] = []
    private var head = 0
    /// Where the speakers are: at or after `head`.
    private var spokenHead = 0
    var count: Int { left.count - head }

    mutating func add(_ l: UnsafeBufferPointer<Float>, _ r: UnsafeBufferPointer<Float>) {
        if head > 0 && head == left.count {
            left.removeAll(keepingCapacity: true)
            right.removeAll(keepingCapacity: true)
            spokenHead = 0
            head = 0
        } else if head > 65_536 {
            left.removeFirst(head)
            right.removeFirst(head)
            spokenHead -= head
            head = 0
        }
        left.append(contentsOf: l)
        right.append(contentsOf: r)
    }

    mutating func take(_ n: Int, _ body: (UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in body(l.baseAddress! + head, r.baseAddress! + head) }
        }
        head += n
        spokenHead = max(spokenHead, head)
    }

    /// Samples not yet written to the speakers (their head runs ahead of the buffer's).
    var unspoken: Int { left.count - spokenHead }

    /// Hands the next `n` samples to the speakers' `body`, without taking them from the buffer's side.
    mutating func speak(_ n: Int, _ body: (UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in body(l.baseAddress! + spokenHead, r.baseAddress! + spokenHead) }
        }
        spokenHead += n
    }
}
