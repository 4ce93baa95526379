internal import CFFmpeg
import MarbleCore

/// A network stream output named on the command line: `udp://HOST:PORT` (MPEG-TS in 1316-byte
/// datagrams), `srt://HOST:PORT` (MPEG-TS over SRT, when this FFmpeg has it) or `rtmp://HOST/APP/KEY`
/// (FLV, as streaming sites take it; `rtmps://` too).
package struct StreamURL: Sendable, Equatable, CustomStringConvertible {
    /// The protocol, from the URL's scheme.
    package enum Kind: String, Sendable, CaseIterable {
        /// MPEG-TS over UDP or SRT; FLV over RTMP or RTMP over TLS.
        case udp, srt, rtmp, rtmps
    }

    /// The URL as given.
    package let text: String
    /// The URL FFmpeg opens: `text` with its scheme in lower case (FFmpeg's protocol names are, and
    /// `RTMP://…` would be "Protocol not found").
    package let address: String
    /// The protocol.
    package let kind: Kind
    /// The host name or address.
    package let host: String
    /// The port, when the URL gives one (required for UDP and SRT).
    package let port: Int?

    /// Parses `text` when it names a stream (a `scheme://`); nil when it is a path. Throws a one-line
    /// `.option` error for a stream URL that cannot work: an unknown scheme, no host, a port out of
    /// range or missing (UDP, SRT), an RTMP URL without an application, or a protocol this FFmpeg lacks.
    package init?(_ text: String) throws(MarbleError) {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard let kind = Kind(rawValue: scheme) else {
            let known = Kind.allCases.map { "\($0.rawValue)://" }.joined(separator: ", ")
            throw MarbleError(.option, "\(text): not a stream this tool sends (use \(known), or a file path)")
        }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let path = rest.dropFirst(authority.count)
        // [user@]host[:port]; IPv6 hosts in brackets.
        let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        var host = hostPort, portText: String?
        if hostPort.hasPrefix("[") && !hostPort.contains("]") {
            throw MarbleError(.option, "\(text): an IPv6 host needs its closing ']' (\(scheme)://[::1]:PORT)")
        }
        if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if after.hasPrefix(":") { portText = String(after.dropFirst()) }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<colon])
            portText = String(hostPort[hostPort.index(after: colon)...])
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "\t" }) else {
            throw MarbleError(.option, "\(text): no host in the stream URL")
        }
        var port: Int?
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                throw MarbleError(.option, "\(text): the port must be a number between 1 and 65535")
            }
            port = p
        }
        switch kind {
        case .udp, .srt:
            guard port != nil else { throw MarbleError(.option, "\(text): a \(kind.rawValue) stream needs a port (\(kind.rawValue)://HOST:PORT)") }
        case .rtmp, .rtmps:
            let segments = path.split(separator: "?").first.map { $0.split(separator: "/") } ?? []
            guard !segments.isEmpty else {
                throw MarbleError(.option, "\(text): an RTMP URL names an application and a stream key (rtmp://HOST/APP/KEY)")
            }
        }
        guard StreamURL.protocolAvailable(kind.rawValue) else {
            throw MarbleError(.option, "\(text): this FFmpeg build cannot send \(kind.rawValue) streams")
        }
        self.text = text
        self.address = scheme + text[schemeEnd.lowerBound...]
        self.kind = kind
        self.host = host
        self.port = port
    }

    /// The URL as given.
    package var description: String { text }

    /// The container the stream carries: MPEG-TS for UDP and SRT, FLV for RTMP.
    var muxerName: String {
        switch kind {
        case .udp, .srt: "mpegts"
        case .rtmp, .rtmps: "flv"
        }
    }

    /// Whether libavformat has an output protocol of this name.
    static func protocolAvailable(_ name: String) -> Bool {
        var opaque: UnsafeMutableRawPointer? = nil
        while let p = avio_enum_protocols(&opaque, 1) {
            if String(cString: p) == name { return true }
        }
        return false
    }
}
