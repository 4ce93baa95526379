import Glibc
import MarbleCore

/// Sends OSC messages over UDP to a port on this machine: what `marble bench --control` drives a
/// session with. (The tests send with an independent encoder written in Python.)
package final class OSCSender {
    private let fd: Int32
    private var address = sockaddr_in()

    /// A sender to 127.0.0.1:`port`.
    /// - Throws: `.device` when no UDP socket can be opened.
    package init(port: UInt16) throws(MarbleError) {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw MarbleError(.device, "OSC: cannot open a UDP socket: \(String(cString: strerror(errno)))") }
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    }

    deinit { close(fd) }

    /// Sends `message` as one datagram; returns whether all of it was sent.
    @discardableResult
    package func send(_ message: OSCMessage) -> Bool {
        let bytes = message.encoded
        let sent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return sent == bytes.count
    }
}
