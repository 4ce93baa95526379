internal import CFFmpeg
import Foundation
import MarbleCore

/// A network stream as a packet destination. SKELETON: to be implemented (see the spec given to the
/// implementer). Never blocks the writer; queues packets for its own thread; reconnects with back-off.
final class StreamMuxer: PacketDestination {
    let url: StreamURL
    let status: StreamStatus

    init(url: StreamURL, fps: Rational) throws(MarbleError) {
        self.url = url
        status = StreamStatus(url: url.text)
        throw MarbleError(.output, "\(url.text): streams are not implemented yet")
    }

    var name: String { url.text }
    var needsGlobalHeader: Bool { true }
    func canHold(_ codec: AVCodecID) -> Bool { false }
    func addStream(encoder: UnsafeMutablePointer<AVCodecContext>) throws(MarbleError) -> Int32 { 0 }
    func addStream(copying source: UnsafeMutablePointer<AVStream>) throws(MarbleError) -> Int32 { 0 }
    func writeHeader() throws(MarbleError) {}
    func write(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int32, timeBase: AVRational) throws(MarbleError) {}
    func finish() throws(MarbleError) {}
    func abort() {}
    var bytesWritten: Int64? { nil }
}
