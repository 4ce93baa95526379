import Foundation
import MarbleCore

/// What `marble studio` was asked for, checked before anything listens: the folders it may read, where
/// it listens and whether that needs the access token, where its files go, how many renders run at once.
package struct StudioConfiguration: Sendable, Equatable {
    /// The port used when `--listen` names none.
    package static let defaultPort = 8140
    /// The largest upload allowed when `--max-upload` is not given, in MB.
    package static let defaultMaxUploadMB = 512

    /// The folders whose songs and videos the page lists and plays (absolute, as given).
    package var folders: [String]
    /// The host to bind (an IP address or `localhost`) and the port.
    package var host = "127.0.0.1"
    package var port = StudioConfiguration.defaultPort
    /// Where renders and saved presets go.
    package var output = "marble-studio"
    /// The MilkDrop presets the page browses, if any.
    package var milkdrop: String?
    /// Renders that run at once.
    package var jobs = 1
    /// The access token: required by every request when the studio listens beyond loopback.
    package var token: String
    /// The largest upload, in bytes.
    package var maxUploadBytes = StudioConfiguration.defaultMaxUploadMB << 20
    /// A folder to serve the page's files from instead of the copy built in (`MARBLE_STUDIO_PAGE`, for
    /// working on the page without rebuilding).
    package var pageFolder: String?

    package init(folders: [String], token: String = StudioConfiguration.makeToken()) {
        self.folders = folders
        self.token = token
    }

    /// Whether the studio listens on the loopback interface only: then the token is not needed, and
    /// requests must name a loopback host (which DNS rebinding cannot fake).
    package var isLoopback: Bool { Self.isLoopback(host) }

    package static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { (1...3).contains($0.count) && $0.allSatisfy(\.isNumber) && Int($0).map { $0 <= 255 } == true }
    }

    /// The address the page is at, with the token when it is needed.
    package var url: String {
        let shown = host == "0.0.0.0" || host == "::" ? Self.machineName() : host
        let bracketed = shown.contains(":") ? "[\(shown)]" : shown
        return "http://\(bracketed):\(port)/" + (isLoopback ? "" : "?token=\(token)")
    }

    /// `--listen HOST:PORT`, `HOST`, `:PORT` or `[IPv6]:PORT`.
    package mutating func listen(_ text: String) throws(MarbleError) {
        let fail = MarbleError(.option, "--listen \(text): expected HOST:PORT (as 127.0.0.1:8140, 0.0.0.0:8140 or [::1]:8140)")
        var hostPart = text, portPart: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw fail }
            hostPart = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty { guard rest.hasPrefix(":") else { throw fail }; portPart = rest.dropFirst() }
        } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
            hostPart = String(text[..<colon])
            portPart = text[text.index(after: colon)...]
        }
        if hostPart.isEmpty { hostPart = "127.0.0.1" }
        guard hostPart.count <= 253, hostPart.allSatisfy({ $0.isLetter || $0.isNumber || ".:-".contains($0) }) else { throw fail }
        if let portPart {
            guard let p = Int(portPart), (1...65535).contains(p) else {
                throw MarbleError(.option, "--listen \(text): the port must be 1…65535")
            }
            port = p
        }
        host = hostPart
    }

    /// Checks what does not depend on files: the token's form, the number of jobs, the upload bound.
    package func validate() throws(MarbleError) {
        guard !folders.isEmpty else { throw MarbleError(.option, "give at least one folder of songs") }
        guard (16...128).contains(token.count), token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw MarbleError(.option, "--token: 16 to 128 characters of A-Z a-z 0-9 - _")
        }
        guard (1...4).contains(jobs) else { throw MarbleError(.option, "--jobs \(jobs): must be 1…4") }
        guard (1...(64 << 30)).contains(maxUploadBytes) else { throw MarbleError(.option, "--max-upload: must be 1 MB…64 GB") }
    }

    /// 32 random characters of A-Z a-z 0-9 (190 bits), from the system's generator.
    package static func makeToken() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
    }

    private static func machineName() -> String {
        ProcessInfo.processInfo.hostName.isEmpty ? "localhost" : ProcessInfo.processInfo.hostName
    }
}
