internal import CFFmpeg
import Foundation
import MarbleCore

/// Where encoded packets go: a container file (``Muxer``) or a network stream (``StreamMuxer``), or
/// several of them at once (``PacketFanOut``). Encoders and sound tracks write through this, so one
/// encoding can feed a recording and its stream.
///
/// The calls come in order: streams are added, the header is written, packets are written (from up to
/// two threads, one per stream: video and sound), then `finish` or `abort`. `write` takes over the
/// packet's reference (as `av_interleaved_write_frame` does): the caller must not read its data after.
protocol PacketDestination: AnyObject {
    /// What the destination is, for messages: a path or a URL.
    var name: String { get }
    /// True when the container wants codec headers out of band (MP4, MKV, FLV).
    var needsGlobalHeader: Bool { get }
    /// Whether the container can hold packets of `codec` as they are.
    func canHold(_ codec: AVCodecID) -> Bool
    /// Adds a stream described by an opened encoder; returns its index.
    func addStream(encoder: UnsafeMutablePointer<AVCodecContext>) throws(MarbleError) -> Int32
    /// Adds a stream whose packets are copied from an input stream; returns its index.
    func addStream(copying source: UnsafeMutablePointer<AVStream>) throws(MarbleError) -> Int32
    func writeHeader() throws(MarbleError)
    /// Writes one packet whose timestamps are in `timeBase` into stream `index`.
    func write(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int32, timeBase: AVRational) throws(MarbleError)
    /// Makes the output final (a file moved into place, a stream's trailer sent).
    func finish() throws(MarbleError)
    /// Drops the output: no half-written file is left behind; a stream is closed.
    func abort()
    /// Whether the destination needs a keyframe soon (a stream that just reconnected, or dropped
    /// packets and waits for the next keyframe): the video encoder makes its next frame one.
    var wantsKeyframe: Bool { get }
    /// Bytes handed to the output so far (for status lines), or nil when unknown.
    var bytesWritten: Int64? { get }
}

extension PacketDestination {
    var wantsKeyframe: Bool { false }
}

/// One encoding, several outputs: every packet goes to each destination in turn, each with its own
/// reference to the packet's (reference-counted) data, so nothing is copied. libavformat's `tee`
/// muxer does the same, but writes to every output synchronously; here a network stream queues the
/// packet and returns (``StreamMuxer``), so a stalled connection never holds up a recording.
///
/// A destination that fails to write (a full disk, a lost mount) is dropped on its own: aborted (its
/// temporary file removed) and listed in ``lost``, while the others go on, as a stream that fails goes
/// on without holding up the recordings. Only when the last destination fails does `write` throw.
///
/// Streams are added to every destination in the same order, so a stream has one index everywhere.
final class PacketFanOut: PacketDestination {
    let destinations: [any PacketDestination]
    /// The destinations still written to (guarded by `lock` once the header is written).
    private var alive: [any PacketDestination]
    /// The destinations dropped after a failed write, with their errors (guarded by `lock`).
    private var dropped: [MarbleError] = []
    private let copy: Packet
    /// Video and sound arrive from two threads; the shared scratch packet needs one at a time.
    private let lock = NSLock()

    init(_ destinations: [any PacketDestination]) throws(MarbleError) {
        precondition(!destinations.isEmpty, "a fan-out needs a destination")
        self.destinations = destinations
        alive = destinations
        copy = try Packet()
    }

    var name: String { destinations.map(\.name).joined(separator: ", ") }
    var needsGlobalHeader: Bool { destinations.contains { $0.needsGlobalHeader } }
    func canHold(_ codec: AVCodecID) -> Bool { destinations.allSatisfy { $0.canHold(codec) } }

    /// The errors of the destinations dropped so far, one per destination.
    var lost: [MarbleError] { locked { dropped } }

    func addStream(encoder: UnsafeMutablePointer<AVCodecContext>) throws(MarbleError) -> Int32 {
        try sameIndex { d throws(MarbleError) in try d.addStream(encoder: encoder) }
    }

    func addStream(copying source: UnsafeMutablePointer<AVStream>) throws(MarbleError) -> Int32 {
        try sameIndex { d throws(MarbleError) in try d.addStream(copying: source) }
    }

    private func sameIndex(_ add: (any PacketDestination) throws(MarbleError) -> Int32) throws(MarbleError) -> Int32 {
        var index: Int32?
        for d in destinations {
            let i = try add(d)
            guard index == nil || index == i else { throw MarbleError(.media, "\(d.name): streams out of order") }
            index = i
        }
        return index!
    }

    func writeHeader() throws(MarbleError) {
        for d in destinations { try d.writeHeader() }
    }

    func write(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int32, timeBase: AVRational) throws(MarbleError) {
        lock.lock()
        defer { lock.unlock() }
        var failed: [Int] = []
        for (n, d) in alive.enumerated() {
            do throws(MarbleError) {
                if n == alive.count - 1 {
                    try d.write(packet, stream: index, timeBase: timeBase)
                } else {
                    try ffCheck(av_packet_ref(copy.pointer, packet), .media, "out of memory copying a packet")
                    defer { av_packet_unref(copy.pointer) }
                    try d.write(copy.pointer, stream: index, timeBase: timeBase)
                }
            } catch {
                if failed.count == alive.count - 1 { throw error }   // the last one: the encoding has nowhere to go
                d.abort()
                dropped.append(error)
                failed.append(n)
            }
        }
        if !failed.isEmpty {
            alive = alive.enumerated().filter { !failed.contains($0.offset) }.map(\.element)
        }
    }

    /// Finishes every destination still written to, even after one failed (a stream's end must not
    /// cost the recording its file): one that cannot be finished (a full disk at its last write) is
    /// dropped like a failed write, and only when none could be finished is the first error thrown.
    func finish() throws(MarbleError) {
        var first: MarbleError?, finished = 0
        for d in locked({ alive }) {
            do throws(MarbleError) {
                try d.finish()
                finished += 1
            } catch {
                d.abort()
                locked { dropped.append(error) }
                if first == nil { first = error }
            }
        }
        if finished == 0, let first { throw first }
    }

    func abort() { for d in destinations { d.abort() } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    var wantsKeyframe: Bool { locked { alive }.contains { $0.wantsKeyframe } }
    var bytesWritten: Int64? {
        let known = locked { alive }.compactMap(\.bytesWritten)
        return known.isEmpty ? nil : known.reduce(0, +)
    }
}
