import Foundation
import Testing
import TestSupport

/// Runs the built `marble` executable (next to the test bundle in .build/<config>/).
enum CLI {
    static var executable: URL { BuiltProgram.url("marble") }

    struct Result { let status: Int32; let stdout: String; let stderr: String }

    static func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        return (p, out, err)
    }

    static func run(_ arguments: [String]) throws -> Result {
        let (p, out, err) = try start(arguments)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                      stderr: String(decoding: e, as: UTF8.self))
    }

    /// Runs marble in `directory` (for relative paths); a run past the deadline (a read that never
    /// ends) is killed and fails the test rather than hanging it.
    static func run(in directory: URL, _ arguments: [String]) throws -> Result {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.currentDirectoryURL = directory
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        #expect(exits(p), "\(arguments) did not end")
        let e = err.fileHandleForReading.readDataToEndOfFile()
        return Result(status: p.terminationStatus, stdout: "", stderr: String(decoding: e, as: UTF8.self))
    }

    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("marble-cli-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Waits until `folder` holds a temporary file of the output `name` (`.NAME.partial-TAG`) larger
    /// than `bytes`: with the default, the muxer has written frames (it writes in 32 KB pieces). Polled,
    /// the process telling nothing else, with a deadline that only guards against a hang.
    static func partialFile(of name: String, in folder: String, grows bytes: Int = 32_768) -> Bool {
        PlayTools.eventually(timeout: 120) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return names.filter { $0.hasPrefix(".\(name).partial") }.contains { partial in
                let path = (folder as NSString).appendingPathComponent(partial)
                return (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0 > bytes
            }
        }
    }

    /// Whether process `pid` has a handler for `signal` (the `SigCgt` mask of /proc/PID/status):
    /// marble ignores its stop signals for a moment while it installs its handlers, and one sent then
    /// is lost, so a test waits for this before it sends one.
    static func catches(_ signal: Int32, _ pid: pid_t) -> Bool {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else {
            return false
        }
        return mask & (1 << UInt64(signal - 1)) != 0
    }

    /// Waits until `process` exits: the verdict is that it does, so the deadline (120 s) only guards
    /// against a hang and is never a measure of speed. Kills it and returns false past the deadline.
    static func exits(_ process: Process) -> Bool {
        let exited = PlayTools.eventually(timeout: 120) { !process.isRunning }
        if !exited {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return exited
    }

    /// Reads `pipe` (a process's output) until what was read contains `needle` or the process closes
    /// it; returns what was read. Waits for the line itself: no deadline, as the process ends anyway.
    static func read(_ pipe: Pipe, until needle: String) -> String {
        var text = ""
        while !text.contains(needle) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    /// A folder of its own for one suite, inside ``folder`` (made if missing).
    static func subfolder(_ name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Makes a test input with the ffmpeg command.
    static func ffmpeg(_ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y"] + arguments
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw CLIError("ffmpeg \(arguments.joined(separator: " ")) failed with status \(p.terminationStatus)")
        }
    }
}

/// A helper tool that failed while a test set up its inputs.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
