#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where Granite's warnings go by default.
public enum GraniteLog {
    /// Writes `message` and a newline to standard error in one `write(2)` call.
    @Sendable public static func standardError(_ message: String) {
        let line = Array((message + "\n").utf8)
        line.withUnsafeBytes { bytes in
            _ = write(2, bytes.baseAddress, bytes.count)
        }
    }
}
