import Foundation
import Glibc
import MarbleCore
import Synchronization

/// Listens for OSC on a UDP port, on a thread of its own: each datagram is decoded (``OSCPacket``) and
/// its messages handed to `receive`, in order; a datagram that is not OSC is counted and reported to
/// `refuse` with why, never a crash. Binds 127.0.0.1 unless a host is named (`0.0.0.0:9000` for
/// controllers on other machines), so a session is not open to the network by default.
///
/// The thread sleeps until a datagram or the stop arrives (``ReadinessThread``).
package final class OSCListener: Sendable {
    /// Where to listen: `PORT` (on 127.0.0.1) or `HOST:PORT` (an IPv4 address).
    package struct Address: Equatable, Sendable, CustomStringConvertible {
        /// The IPv4 address to bind, dotted.
        package let host: String
        /// The UDP port; 0 lets the system choose (tests).
        package let port: UInt16

        /// Parses `PORT` or `HOST:PORT` (port 0: any free port, reported once bound).
        /// - Throws: `.option` naming the value when it is not a port or an IPv4 address and port.
        package init(parsing text: String) throws(MarbleError) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            let host = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
            guard parts.count <= 2, let last = parts.last, let port = UInt16(last), Self.isIPv4(host) else {
                throw MarbleError(.option, "--osc \"\(text.prefix(80))\" is not a UDP port (0-65535, 0: any free one) or an IPv4 address and port, e.g. 9000 or 0.0.0.0:9000")
            }
            self.host = host
            self.port = port
        }

        /// An address made in code (`port` 0: any free port).
        package init(host: String = "127.0.0.1", port: UInt16) {
            self.host = host
            self.port = port
        }

        /// `HOST:PORT`.
        package var description: String { "\(host):\(port)" }

        private static func isIPv4(_ host: String) -> Bool {
            var address = in_addr()
            return host.utf8.count < 16 && inet_pton(AF_INET, host, &address) == 1
        }
    }

    /// The port really bound (the one asked for, or the system's choice for 0).
    package let port: UInt16
    private let socket: Int32
    private let thread = ReadinessThread()
    private let buffer = Mutex([UInt8](repeating: 0, count: OSCPacket.maxBytes + 1))
    private let counts = Mutex((packets: 0, refused: 0))

    /// Binds `address`; call ``start(receive:refuse:)`` to listen.
    /// - Throws: `.device` when the port cannot be bound (in use, not allowed), naming it.
    package init(_ address: Address) throws(MarbleError) {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw MarbleError(.device, "OSC: cannot open a UDP socket: \(String(cString: strerror(errno)))") }
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = address.port.bigEndian
        inet_pton(AF_INET, address.host, &sin.sin_addr)
        let bound = withUnsafePointer(to: &sin) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw MarbleError(.device, "OSC: cannot listen on UDP \(address): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        socket = fd
        port = UInt16(bigEndian: actual.sin_port)
    }

    deinit { close(socket) }

    /// Datagrams received so far, and those refused as not OSC (or out of the decoder's bounds).
    package var received: (packets: Int, refused: Int) { counts.withLock { ($0.packets, $0.refused) } }

    /// Starts the listening thread: `receive` gets each datagram's messages (on that thread, in order);
    /// `refuse` gets the reason of each datagram that was not OSC.
    package func start(receive: @escaping @Sendable ([OSCMessage]) -> Void,
                      refuse: @escaping @Sendable (String) -> Void = { _ in }) {
        thread.start(name: "marble.osc", fd: socket) { [self] in readDatagram(receive: receive, refuse: refuse) }
    }

    /// Stops the thread and waits for it (idempotent).
    package func stop() { thread.stop() }

    private func readDatagram(receive: @Sendable ([OSCMessage]) -> Void, refuse: @Sendable (String) -> Void) {
        let bytes = buffer.withLock { buffer -> [UInt8]? in
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            return count >= 0 ? Array(buffer[0..<count]) : nil
        }
        guard let bytes else { return }
        do throws(OSCPacket.Malformed) {
            let messages = try OSCPacket.decode(bytes)
            counts.withLock { $0.packets += 1 }
            receive(messages)
        } catch {
            counts.withLock { $0.packets += 1; $0.refused += 1 }
            refuse(error.reason)
        }
    }
}
