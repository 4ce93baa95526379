import Foundation
@testable import MarbleMedia
import MarbleCore
import Testing
import TestSupport

@Suite("A display that accepts connections but never answers is given up, not waited on for ever")
struct DisplayProbeTests {
    @Test("a running X server answers; the same server stopped (SIGSTOP) is named in one line")
    func frozenServer() throws {
        try XvfbServer.withDisplay(width: 64, height: 48) { server in
            try #require(try DisplayProbe.check(server.display, timeout: .seconds(60))).close()
            server.send(SIGSTOP)
            defer { server.send(SIGCONT) }
            // A stopped server never replies, whatever the machine's load: the short wait decides nothing.
            #expect {
                try DisplayProbe.check(server.display, timeout: .milliseconds(300))
            } throws: { error in
                guard let e = error as? MarbleError else { return false }
                return e.kind == .device && e.message.contains("DISPLAY=\(server.display) does not answer")
                    && !e.message.contains("\n")
            }
            // And a window asked for now fails the same way instead of hanging in SDL.
            #expect(throws: MarbleError.self) { _ = try VideoWindow(title: "t", width: 64, height: 48, fullscreen: false, vsync: false) }
        }
    }

    @Test("a display nobody serves, and names the probe does not handle, are left to SDL's own error")
    func unreachable() throws {
        #expect(try DisplayProbe.check(":987", timeout: .milliseconds(1)) == nil)
        #expect(try DisplayProbe.check("remote.example:0", timeout: .milliseconds(1)) == nil)
        #expect(try DisplayProbe.check("wayland-0", timeout: .milliseconds(1)) == nil)
    }
}
