import ArgumentParser
import Foundation
import Synchronization
import MarbleKit

/// Writing to the terminal: stderr for messages and progress, stdout for results.
///
/// A write that fails (`> /dev/full`, a closed descriptor, a reader that went away) never crashes:
/// stderr failures are ignored (there is nowhere left to say anything), and a failed stdout write is
/// remembered so that the command ends with exit 1 (``outputFailed``): its result did not arrive.
/// Messages first clear a progress line still on screen, so an error never lands on the bar's line.
enum Console {
    private static let progressShown = Atomic<Bool>(false)
    private static let stdoutFailed = Atomic<Bool>(false)
    private static let stdoutFailure = Mutex<String?>(nil)

    static func error(_ message: String) { clearProgress(); writeErr("marble: error: \(message)\n") }
    static func warning(_ message: String) { clearProgress(); writeErr("marble: warning: \(message)\n") }
    static func writeErr(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data(text.utf8)) }
    static func print(_ text: String) {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
        } catch {
            // The first failure's reason is the one worth telling (later ones repeat it).
            stdoutFailure.withLock { if $0 == nil { $0 = Self.reason(of: error) } }
            stdoutFailed.store(true, ordering: .relaxed)
        }
    }

    /// The system's words for a failed write ("No space left on device", "Broken pipe").
    private static func reason(of error: any Error) -> String {
        let ns = error as NSError
        let posix = ns.domain == NSPOSIXErrorDomain ? ns : ns.userInfo[NSUnderlyingErrorKey] as? NSError
        guard let posix, posix.domain == NSPOSIXErrorDomain, let code = Int32(exactly: posix.code), code > 0 else {
            return ns.localizedDescription
        }
        return String(cString: strerror(code))
    }
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Draws `line` over the current progress line.
    static func showProgress(_ line: String) {
        writeErr("\r\u{1B}[2K" + line)
        progressShown.store(true, ordering: .relaxed)
    }

    /// Erases the progress line, if one is on screen.
    static func clearProgress() {
        if progressShown.exchange(false, ordering: .relaxed) { writeErr("\r\u{1B}[2K") }
    }

    /// Whether a result written to stdout was lost.
    static var outputFailed: Bool { stdoutFailed.load(ordering: .relaxed) }

    /// Why the first lost stdout write failed.
    static var outputFailure: String { stdoutFailure.withLock { $0 } ?? "the write failed" }
}

extension MarbleError {
    /// Exit codes: 1 bad input or output, 2 bad options or presets, 75 failed while running (retry:
    /// sysexits' EX_TEMPFAIL), 130 stopped by Ctrl-C.
    var exitCode: Int32 {
        switch kind {
        case .option, .preset: 2
        case .transient: 75
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

/// Formats byte counts for summaries (durations: `TimeFormat`).
enum Format {
    static func bytes(_ n: Int) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var v = Double(n), u = 0
        while v >= 1000 && u < units.count - 1 { v /= 1000; u += 1 }
        return u == 0 ? "\(n) B" : String(format: "%.1f %@", v, units[u])
    }
}
