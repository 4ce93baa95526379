import Glibc
import MarbleCore

/// Asks the X server a display name points at whether it answers, before SDL connects to it.
///
/// Xlib waits for the server's first reply with no deadline: a server that accepts connections but
/// never replies (stopped with SIGSTOP, hung, a dead SSH forward) would hold the session in
/// `SDL_InitSubSystem` for ever — past `--duration`, with Ctrl-C waiting behind it. The probe does
/// what Xlib's connect does first (it sends the 12-byte connection setup, no authorisation) and waits
/// `timeout` for any reply: a refusal for want of a cookie is an answer too. A display it cannot
/// reach at all (nothing listens) passes, so that SDL reports that case in its own words.
///
/// The probe's connection is handed back open, to be closed once SDL has connected: a server that
/// resets when its last client leaves (Xvfb, a bare Xorg) would otherwise be resetting just as SDL
/// connects, and SDL would find no display.
package enum DisplayProbe {
    /// How long a display may take to answer before a window is given up.
    package static let timeout: Duration = .seconds(5)

    /// Throws `.device` when the X server `display` names (`:N`, `:N.S`, `unix:N`, `localhost:N`,
    /// `127.0.0.1:N`) accepts the connection but does not answer within `timeout`. Other forms
    /// (remote hosts, Wayland) are left to SDL. Returns the probe's connection, still open (close it
    /// once the real client has connected), or nil when there was nothing to probe.
    package static func check(_ display: String, timeout: Duration = timeout) throws(MarbleError) -> Held? {
        guard let address = XAddress(display) else { return nil }
        let fd = address.connect()
        guard fd >= 0 else { return nil }
        let held = Held(fd: fd)
        // Byte order 'l', protocol 11.0, no authorisation name or data.
        let setup: [UInt8] = [0x6C, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        guard setup.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == setup.count
                || errno == EAGAIN else { return held }
        var reply = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        if poll(&reply, 1, milliseconds) == 0 {
            held.close()
            throw MarbleError(.device, "the X server at DISPLAY=\(display) does not answer (no reply in \(timeout)): cannot open a window")
        }
        return held
    }

    /// The probe's open connection; ``close()`` it once the real client is connected.
    package struct Held {
        fileprivate let fd: Int32
        package func close() { _ = Glibc.close(fd) }
    }
}

/// Where a local X server listens for `display`: its unix socket, or TCP port 6000 + N on this host.
private enum XAddress {
    case unix(String), tcp(UInt16)

    init?(_ display: String) {
        guard let colon = display.lastIndex(of: ":") else { return nil }
        let host = display[..<colon], rest = display[display.index(after: colon)...]
        guard let number = Int(rest.split(separator: ".", maxSplits: 1).first ?? ""), (0..<1000).contains(number) else { return nil }
        switch host {
        case "", "unix": self = .unix("/tmp/.X11-unix/X\(number)")
        case "localhost", "127.0.0.1": self = .tcp(UInt16(6000 + number))
        default: return nil
        }
    }

    /// A non-blocking socket connected to the address, or -1 when nothing listens there.
    func connect() -> Int32 {
        switch self {
        case .unix(let path):
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return -1 }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { close(fd); return -1 }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, b) in bytes.enumerated() { raw[i] = b }
            }
            return Self.finish(fd, address)
        case .tcp(let port):
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return -1 }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            return Self.finish(fd, address)
        }
    }

    /// Connects `fd` to `address` (waiting up to a second for a connection in progress); -1 on failure.
    private static func finish<A>(_ fd: Int32, _ address: A) -> Int32 {
        var address = address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<A>.size)) }
        }
        if result == 0 { return fd }
        guard errno == EINPROGRESS || errno == EAGAIN else { close(fd); return -1 }
        var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard poll(&ready, 1, 1000) == 1, getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 else {
            close(fd)
            return -1
        }
        return fd
    }
}
