internal import CFFmpeg
import Foundation
import MarbleCore

/// A network stream (RTMP, UDP, SRT) as a packet destination that never holds up the writer.
///
/// `writeHeader` opens the first connection on the caller's thread (a refused connection or an unknown
/// host fails there, in one line); after that `write` only queues the packet (about two seconds of
/// video at most) for the stream's own thread, which sends it. When the queue is full (a stalled
/// network) packets are dropped, video up to the next keyframe (``wantsKeyframe`` asks the encoder for
/// one) and sound with it. A failed or stalled connection is closed and opened again after a pause
/// (0.25 s, doubling up to 5 s), and sending resumes at a keyframe; the timestamps go on with the
/// writer's clock. ``status`` tells what happens: state, dropped frames, reconnects, bytes sent.
///
/// Threading: `write` may come from two threads (video, sound); the queue is guarded by a lock.
/// Errors: only setting up and the first connection throw (`.output`); the network never makes
/// `write` or `finish` throw.
final class StreamMuxer: PacketDestination {
    let url: StreamURL
    let status: StreamStatus
    private let sender: StreamSender

    init(url: StreamURL, fps: Rational) throws(MarbleError) {
        self.url = url
        status = StreamStatus(url: url.text)
        sender = try StreamSender(url: url, status: status, fps: fps.doubleValue)
    }

    deinit { sender.stop(abort: true) }

    var name: String { url.text }
    /// FLV wants the codec headers out of band; MPEG-TS does not, but takes them too: its muxer
    /// repeats them in band before every keyframe (so a viewer can join at any keyframe).
    var needsGlobalHeader: Bool { true }

    func canHold(_ codec: AVCodecID) -> Bool {
        switch url.kind {
        case .rtmp, .rtmps: [AV_CODEC_ID_H264, AV_CODEC_ID_AAC].contains(codec)
        case .udp, .srt: [AV_CODEC_ID_H264, AV_CODEC_ID_AAC, AV_CODEC_ID_MP2, AV_CODEC_ID_MP3, AV_CODEC_ID_OPUS].contains(codec)
        }
    }

    func addStream(encoder: UnsafeMutablePointer<AVCodecContext>) throws(MarbleError) -> Int32 {
        sender.add(try StreamTrack(encoder: encoder))
    }

    func addStream(copying source: UnsafeMutablePointer<AVStream>) throws(MarbleError) -> Int32 {
        sender.add(try StreamTrack(copying: source))
    }

    func writeHeader() throws(MarbleError) { try sender.start() }

    func write(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int32, timeBase: AVRational) throws(MarbleError) {
        try sender.enqueue(packet, stream: index, timeBase: timeBase)
    }

    /// Sends what is queued (for at most ``StreamSender/finishGrace`` seconds) and the trailer, then
    /// closes. Never throws: how the stream went is in ``status``.
    func finish() throws(MarbleError) { sender.stop(abort: false) }

    /// Closes at once (blocked I/O is interrupted).
    func abort() { sender.stop(abort: true) }

    var wantsKeyframe: Bool { sender.wantsKeyframe }
    var bytesWritten: Int64? { status.current.bytesSent }
}

/// The queue between the writer's threads and the stream's thread, and that thread: it sends, detects
/// failures and reconnects. See ``StreamMuxer``.
///
/// Safety of @unchecked Sendable: every stored `var` marked "guarded" is read and written only with
/// `condition` locked; `connection`, `failedAt` and `sentBefore` only by the stream's thread once it
/// started (and by `start` before it did); `tracks` is appended to before the thread starts and only
/// read after; the `let`s are set once.
final class StreamSender: @unchecked Sendable {
    /// Seconds of video the queue holds before dropping.
    static let queueSeconds = 2.0
    /// Bytes the queue holds before dropping (a bound whatever the timestamps say).
    static let queueBytes = 16 << 20
    /// Seconds `finish` lets the thread send what is queued.
    static let finishGrace = 2.0
    /// Pauses before reconnecting: doubling from the first, up to the last.
    static let firstBackOff = 0.25, maxBackOff = 5.0

    private struct Queued {
        let packet: UnsafeMutablePointer<AVPacket>
        let stream: Int32
        let seconds: Double
    }

    private enum Ending { case finish(deadline: UInt64), abort }

    let url: StreamURL
    let status: StreamStatus
    let interrupt = StreamInterrupt()
    private let frameSeconds: Double
    private var tracks: [StreamTrack] = []
    private let condition = NSCondition()
    private var queue: [Queued] = []                                    // guarded
    private var pool: [UnsafeMutablePointer<AVPacket>] = []             // guarded
    private var queuedSeconds = 0.0, queuedBytes = 0                    // guarded
    /// A connection is up (packets are queued); false while reconnecting (packets are dropped).
    private var connected = false                                       // guarded
    /// Video is dropped up to the next keyframe, and sound with it.
    private var skipping = false                                        // guarded
    private var ending: Ending?                                         // guarded
    private var started = false, finished = false                      // guarded
    private var connection: StreamConnection?
    private var failedAt: UInt64?
    private var sentBefore: Int64 = 0

    init(url: StreamURL, status: StreamStatus, fps: Double) throws(MarbleError) {
        self.url = url
        self.status = status
        frameSeconds = fps > 0 ? 1 / fps : 1.0 / 30
        queue.reserveCapacity(1024)
        pool.reserveCapacity(1024)
    }

    deinit {
        for item in queue { pool.append(item.packet) }
        for var p in pool as [UnsafeMutablePointer<AVPacket>?] { av_packet_free(&p) }
    }

    func add(_ track: StreamTrack) -> Int32 {
        tracks.append(track)
        return Int32(tracks.count - 1)
    }

    /// Opens the first connection (throws one line when it fails) and starts the stream's thread.
    func start() throws(MarbleError) {
        do throws(MarbleError) {
            connection = try StreamConnection(url: url, tracks: tracks, interrupt: interrupt)
        } catch {
            status.update { $0.state = .closed }
            condition.lock(); finished = true; condition.unlock()
            throw error
        }
        condition.lock()
        connected = true
        started = true
        condition.unlock()
        status.update { $0.state = .sending }
        let thread = Thread { [self] in run() }
        thread.name = "stream \(url.text)"
        thread.start()
    }

    /// Queues `packet` (its reference is taken) or drops it; returns at once.
    func enqueue(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int32, timeBase: AVRational) throws(MarbleError) {
        let track = tracks[Int(index)]
        let video = track.isVideo
        let seconds = !video ? 0 : packet.pointee.duration > 0
            ? Double(packet.pointee.duration) * timeBase.doubleValue : frameSeconds
        condition.lock()
        defer { condition.unlock() }
        guard ending == nil, started else { return av_packet_unref(packet) }
        let key = packet.pointee.flags & AV_PKT_FLAG_KEY != 0
        let full = queuedSeconds + seconds > Self.queueSeconds || queuedBytes + Int(packet.pointee.size) > Self.queueBytes
        // Dropping ends at a video keyframe (at any sound packet when there is no video).
        let resumes = video ? key : !tracks.contains { $0.isVideo }
        if !connected || full || (skipping && !resumes) {
            skipping = true
            av_packet_unref(packet)
            if video { status.update { $0.framesDropped += 1 } }
            return
        }
        skipping = false
        guard let copy = pool.popLast() ?? av_packet_alloc() else {
            av_packet_unref(packet)
            throw MarbleError(.media, "out of memory queueing a packet")
        }
        if packet.pointee.buf != nil {
            av_packet_move_ref(copy, packet)
        } else {
            let r = av_packet_ref(copy, packet)
            av_packet_unref(packet)
            if r < 0 { pool.append(copy); throw MarbleError(.media, "out of memory queueing a packet") }
        }
        av_packet_rescale_ts(copy, timeBase, track.timeBase)
        queue.append(Queued(packet: copy, stream: index, seconds: seconds))
        queuedSeconds += seconds
        queuedBytes += Int(copy.pointee.size)
        condition.signal()
    }

    /// True while video is being dropped up to a keyframe on a live connection whose queue has room:
    /// a keyframe made now would be sent (while it is down or full, one would be dropped anyway).
    var wantsKeyframe: Bool {
        condition.lock()
        defer { condition.unlock() }
        return skipping && connected && ending == nil && queuedSeconds + frameSeconds <= Self.queueSeconds
    }

    /// Ends the stream: `abort` at once, else after sending what is queued (within ``finishGrace``)
    /// and the trailer. Waits for the thread; idempotent.
    func stop(abort: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if ending == nil || abort {
            if abort {
                if case .abort = ending {} else { ending = .abort }
                interrupt.stopAt.store(1, ordering: .releasing)
            } else {
                let deadline = MonotonicClock.now() + UInt64(Self.finishGrace * 1e9)
                ending = .finish(deadline: deadline)
                // Leaves a second for the trailer after the queue's grace.
                interrupt.stopAt.store(deadline + 1_000_000_000, ordering: .releasing)
            }
            condition.broadcast()
        }
        if !started {
            if !finished { finished = true; status.update { $0.state = .closed } }
            return
        }
        while !finished { condition.wait() }
    }

    // MARK: The stream's thread

    private func run() {
        while let item = next() {
            send(item)
        }
        if let connection {
            var trailer = false
            condition.lock()
            if case .finish = ending { trailer = true }
            condition.unlock()
            sentBefore += connection.close(trailer: trailer)
            self.connection = nil
        }
        status.update { $0.state = .closed; $0.bytesSent = sentBefore }
        condition.lock()
        dropQueue()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next packet to send; nil when the stream ends (aborted, or finished and the queue sent or
    /// its grace over).
    private func next() -> Queued? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && ending == nil { condition.wait() }
        switch ending {
        case .abort?: return nil
        case .finish(let deadline)? where queue.isEmpty || MonotonicClock.now() >= deadline: return nil
        default: break
        }
        let item = queue.removeFirst()
        queuedSeconds = max(0, queuedSeconds - item.seconds)
        queuedBytes -= Int(item.packet.pointee.size)
        return item
    }

    private func send(_ item: Queued) {
        defer { recycle(item.packet) }
        guard let connection else { return }
        let r = connection.write(item.packet, stream: item.stream)
        if r < 0 {
            reconnect(after: connection.reason(r, timeout: StreamConnection.stallTimeout))
            return
        }
        let sent = sentBefore + connection.bytes
        if let failedAt {
            let seconds = Double(MonotonicClock.now() - failedAt) / 1e9
            self.failedAt = nil
            status.update { $0.state = .sending; $0.lastReconnectSeconds = seconds; $0.bytesSent = sent }
        } else {
            status.update { $0.bytesSent = sent }
        }
    }

    private func recycle(_ packet: UnsafeMutablePointer<AVPacket>) {
        av_packet_unref(packet)
        condition.lock()
        pool.append(packet)
        condition.unlock()
    }

    /// Drops every queued packet, counting the video frames. Call with `condition` locked.
    private func dropQueue() {
        let frames = queue.filter { tracks[Int($0.stream)].isVideo }.count
        for item in queue { av_packet_unref(item.packet); pool.append(item.packet) }
        queue.removeAll(keepingCapacity: true)
        queuedSeconds = 0
        queuedBytes = 0
        if frames > 0 { status.update { $0.framesDropped += frames } }
    }

    /// Closes the failed connection (no trailer), then opens a new one after a pause that doubles with
    /// each failure; returns when connected, or when the stream is ending.
    private func reconnect(after reason: String) {
        if let connection { sentBefore += connection.close(trailer: false) }
        connection = nil
        if failedAt == nil { failedAt = MonotonicClock.now() }
        condition.lock()
        connected = false
        skipping = true
        dropQueue()
        condition.unlock()
        status.update { $0.state = .reconnecting(reason) }
        var pause = Self.firstBackOff
        while connection == nil {
            condition.lock()
            let until = Date(timeIntervalSinceNow: pause)
            while ending == nil && Date() < until { _ = condition.wait(until: until) }
            let ended = ending != nil
            condition.unlock()
            if ended { return }
            do throws(MarbleError) {
                connection = try StreamConnection(url: url, tracks: tracks, interrupt: interrupt)
            } catch {
                status.update { $0.state = .reconnecting(error.message) }
                pause = min(2 * pause, Self.maxBackOff)
            }
        }
        status.update { $0.reconnects += 1 }
        condition.lock()
        connected = true
        condition.unlock()
    }
}
