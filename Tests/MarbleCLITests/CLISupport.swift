import Foundation
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

    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("marble-cli-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

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
