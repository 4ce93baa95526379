import Foundation
import TestSupport
import Testing

/// `marble studio`'s options are checked before anything listens: one line, exit 2.
@Suite("marble studio: bad options are one line and exit 2", .ownThread)
struct StudioUsageTests {
    @Test("bad addresses, tokens, job counts and upload bounds", arguments: [
        (["studio"], "<folders>"),
        (["studio", "/tmp", "--listen", "host:0"], "--listen host:0: the port must be 1…65535"),
        (["studio", "/tmp", "--listen", "a b"], "--listen a b: expected HOST:PORT"),
        (["studio", "/tmp", "--token", "short"], "--token: 16 to 128 characters"),
        (["studio", "/tmp", "--jobs", "9"], "--jobs 9: must be 1…4"),
        (["studio", "/tmp", "--max-upload", "0"], "--max-upload 0: must be 1…65536"),
    ])
    func oneLine(arguments: [String], mentions: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(mentions), "\(r.stderr)")
    }
}
