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
    static var stdoutIsTerminal: Bool { isatty(1) == 1 }
}

/// Turns a MarbleError into one line on stderr and a non-zero exit code.
struct Failure: Error, CustomStringConvertible {
    let error: MarbleError
    var description: String { error.message }
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

/// Formats byte counts and durations for summaries.
enum Format {
    static func bytes(_ n: Int) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var v = Double(n), u = 0
        while v >= 1000 && u < units.count - 1 { v /= 1000; u += 1 }
        return u == 0 ? "\(n) B" : String(format: "%.1f %@", v, units[u])
    }
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--:--" }
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
