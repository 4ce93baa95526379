import ArgumentParser
import Foundation
import MarbleKit

/// Writing to the terminal: stderr for messages and progress, stdout for results.
enum Console {
    static func error(_ message: String) { writeErr("marble: error: \(message)\n") }
    static func warning(_ message: String) { writeErr("marble: warning: \(message)\n") }
    static func writeErr(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
    static func print(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}

extension MarbleError {
    /// Exit codes: 1 bad input or output, 2 bad options or presets, 130 stopped by Ctrl-C.
    var exitCode: Int32 {
        switch kind {
        case .option, .preset: 2
        case .cancelled: 130
        default: 1
        }
    }
}

/// Runs a job body; a MarbleError is printed as one line and becomes the exit code.
func runReportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let e as MarbleError {
        Console.error(e.message)
        throw ExitCode(e.exitCode)
    }
}

/// Formats byte counts for summaries (durations: ``TimeFormat``).
enum Format {
    static func bytes(_ n: Int) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var v = Double(n), u = 0
        while v >= 1000 && u < units.count - 1 { v /= 1000; u += 1 }
        return u == 0 ? "\(n) B" : String(format: "%.1f %@", v, units[u])
    }
}
