import CFFmpeg
import MarbleCore
@testable import MarbleMedia
import Testing

/// ``PacketFanOut``: a destination that fails (a full disk) is dropped alone, aborted and listed, while
/// the others get every packet; only the last one's failure fails the encoding.
@Suite struct PacketDestinationTests {
    /// Counts the packets it takes (and takes each one's reference, as a muxer does); fails its write
    /// number `failAt` (1-based) or its finish.
    final class FakeDestination: PacketDestination {
        let name: String
        let failAt: Int?, failsFinish: Bool
        private(set) var written = 0, aborted = false, finished = false
        init(_ name: String, failAt: Int? = nil, failsFinish: Bool = false) {
            self.name = name
            self.failAt = failAt
            self.failsFinish = failsFinish
        }
        var needsGlobalHeader: Bool { false }
        func canHold(_ codec: AVCodecID) -> Bool { true }
        func addStream(encoder: UnsafeMutablePointer<AVCodecContext>) throws(MarbleError) -> Int32 { 0 }
        func addStream(copying source: UnsafeMutablePointer<AVStream>) throws(MarbleError) -> Int32 { 0 }
        func writeHeader() throws(MarbleError) {}
        func write(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int32, timeBase: AVRational) throws(MarbleError) {
            av_packet_unref(packet)
            if written + 1 == failAt { throw MarbleError(.output, "\(name): cannot write: No space left on device") }
            written += 1
        }
        func finish() throws(MarbleError) {
            if failsFinish { throw MarbleError(.output, "\(name): cannot write: No space left on device") }
            finished = true
        }
        func abort() { aborted = true }
        var bytesWritten: Int64? { nil }
    }

    func writePackets(_ count: Int, to fanOut: PacketFanOut) throws(MarbleError) {
        let packet = try Packet()
        for _ in 0..<count {
            try ffCheck(av_new_packet(packet.pointer, 16), .media, "packet")
            try fanOut.write(packet.pointer, stream: 0, timeBase: AVRational(num: 1, den: 30))
        }
    }

    @Test("a destination whose write fails is aborted and listed; the others get every packet and are finished")
    func failedWriteDropsOne() throws {
        let full = FakeDestination("full.mp4", failAt: 3), good = FakeDestination("good.mp4"), stream = FakeDestination("udp://x")
        let fanOut = try PacketFanOut([full, good, stream])
        try writePackets(10, to: fanOut)
        try fanOut.finish()
        #expect(full.written == 2 && full.aborted && !full.finished)
        #expect(good.written == 10 && good.finished && stream.written == 10 && stream.finished)
        #expect(fanOut.lost.map(\.message) == ["full.mp4: cannot write: No space left on device"])
    }

    @Test("a destination that cannot be finished is dropped the same way; when none can, finish throws")
    func failedFinish() throws {
        let full = FakeDestination("full.mp4", failsFinish: true), good = FakeDestination("good.mp4")
        let fanOut = try PacketFanOut([full, good])
        try writePackets(4, to: fanOut)
        try fanOut.finish()
        #expect(full.aborted && good.finished && fanOut.lost.count == 1)

        let alone = try PacketFanOut([FakeDestination("a.mp4", failsFinish: true), FakeDestination("b.mp4", failsFinish: true)])
        #expect(throws: MarbleError.self) { try alone.finish() }
    }

    @Test("when the last destination left fails, the write throws: the encoding has nowhere to go")
    func lastFailureThrows() throws {
        let first = FakeDestination("a.mp4", failAt: 2), last = FakeDestination("b.mp4", failAt: 5)
        let fanOut = try PacketFanOut([first, last])
        #expect(throws: MarbleError.self) { try writePackets(10, to: fanOut) }
        #expect(first.written == 1 && last.written == 4 && fanOut.lost.count == 1)
    }
}
