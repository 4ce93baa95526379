import Foundation
import TestSupport
import Testing

/// Usage errors, whatever part of the command line they are in, are one line and exit 2; help and
/// version still print normally.
@Suite("marble: usage errors are one line and exit 2", .ownThread)
struct UsageErrorTests {
    @Test("unknown options, bad integers, missing arguments, unknown commands", arguments: [
        (["render", "--bogus", "song.mp3", "-o", "x.mp4"], "--bogus"),
        (["render", "song.mp3", "-o", "x.mp4", "--threads", "abc"], "'abc'"),
        (["render"], "<input>"),
        (["render", "song.mp3"], "--output"),
        (["analyze", "--fps"], "--fps"),
        (["bogus"], "bogus"),
    ])
    func oneLine(arguments: [String], mentions: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): \(r.stderr)")
        #expect(r.stderr.hasPrefix("marble: error: ") && r.stderr.contains(mentions), "\(r.stderr)")
        #expect(!r.stderr.contains("Usage:"))
    }

    @Test("a file name starting with '-' is not taken for flags silently: the error says how to pass it")
    func dashedFileName() throws {
        let r = try CLI.run(["render", "-weird.mp3", "-o", "x.mp4"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("./-weird.mp3"), "\(r.stderr)")
    }

    @Test("--help still prints the help with exit 0")
    func help() throws {
        let r = try CLI.run(["render", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("USAGE"))
    }
}
