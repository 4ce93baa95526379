import Foundation
import Glibc
import MarbleCore
import Synchronization
import Testing
import TestSupport
@testable import MarbleControl

@Suite("OSC listener: datagrams on a UDP port become messages, in order; what is not OSC is counted")
struct OSCListenerTests {
    @Test("a real UDP datagram's messages arrive in order; a datagram that is not OSC is counted and refused",
          .timeLimit(.minutes(5)))
    func receives() async throws {
        let listener = try OSCListener(OSCListener.Address(port: 0))
        #expect(listener.port > 0)
        let got = Mutex<[OSCMessage]>([]), refusals = Mutex<[String]>([])
        let arrivals = Arrivals()
        listener.start(receive: { messages in
            got.withLock { $0 += messages }
            arrivals.arrive()
        }, refuse: { reason in
            refusals.withLock { $0.append(reason) }
            arrivals.arrive()
        })
        defer { listener.stop() }
        try UDP.send(OSCMessage("/marble/preset", [.string("tunnel")]).encoded, to: listener.port)
        try UDP.send([0x01, 0x02, 0x03], to: listener.port)
        try UDP.send(OSCMessage("/marble/flash").encoded, to: listener.port)
        await arrivals.reach(3)
        #expect(got.withLock { $0 } == [OSCMessage("/marble/preset", [.string("tunnel")]), OSCMessage("/marble/flash")])
        #expect(refusals.withLock { $0 }.count == 1)
        #expect(listener.received == (packets: 3, refused: 1))
    }

    @Test("stop ends the thread at once, and twice is harmless")
    func stops() throws {
        let listener = try OSCListener(OSCListener.Address(port: 0))
        listener.start(receive: { _ in })
        listener.stop()
        listener.stop()
    }

    @Test("a port in use is one error naming it")
    func portInUse() throws {
        let first = try OSCListener(OSCListener.Address(port: 0))
        #expect { try OSCListener(OSCListener.Address(port: first.port)) } throws: { error in
            let e = error as? MarbleError
            return e?.kind == .device && e?.message.contains("127.0.0.1:\(first.port)") == true
        }
    }

    @Test("--osc takes PORT or IPV4:PORT; anything else is one line naming it",
          arguments: [("9000", "127.0.0.1", 9000), ("0.0.0.0:57120", "0.0.0.0", 57120), ("0", "127.0.0.1", 0)])
    func parses(text: String, host: String, port: Int) throws {
        #expect(try OSCListener.Address(parsing: text) == OSCListener.Address(host: host, port: UInt16(port)))
    }

    @Test("bad --osc values are refused", arguments: ["", "x", "70000", "-1", "host:9000", "1.2.3.4:", "1:2:3", "::1:9000"])
    func refuses(text: String) {
        #expect { try OSCListener.Address(parsing: text) } throws: { error in
            (error as? MarbleError)?.kind == .option && (error as? MarbleError)?.message.contains("--osc") == true
        }
    }
}

/// Sends UDP datagrams to 127.0.0.1, as any OSC sender does.
enum UDP {
    static func send(_ bytes: [UInt8], to port: UInt16) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw MarbleError(.device, "socket") }
        defer { close(fd) }
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &sin.sin_addr)
        let sent = withUnsafePointer(to: &sin) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard sent == bytes.count else { throw MarbleError(.device, "sendto: \(String(cString: strerror(errno)))") }
    }
}
