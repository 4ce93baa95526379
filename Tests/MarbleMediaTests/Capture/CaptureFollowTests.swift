import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

extension CaptureTests {
    @Suite("Following the default sink", .ownThread,
           .enabled(if: CaptureTools.available, CaptureTools.missingNote))
    struct FollowingTheDefaultSink {
        @Test("with no source, capture moves to the new default sink's monitor; with one, it stays")
        func followsDefaultSink() throws {
            let server = try TestPulseServer()
            try server.addSink("viz2")
            // As on a desktop, the default source is an input (here a stand-in): the server then has no
            // reason to move a monitor stream itself when the default sink changes; the capture must.
            try server.addSink("mic")
            try server.pactl("set-default-source", "mic.monitor")
            // Endless sines: a 20-second file ended before the last check of a run starved for minutes.
            try server.playSine(600, into: server.pinnedFeed(into: "viz"))
            try server.playSine(1500, into: server.pinnedFeed(into: "viz2"))

            var following = CaptureOptions()
            following.server = server.serverString
            var pinned = CaptureOptions(source: "viz.monitor")
            pinned.server = server.serverString
            let follower = try AudioCapture(options: following)
            let stayer = try AudioCapture(options: pinned)
            try follower.start()
            try stayer.start()
            defer {
                follower.stop()
                stayer.stop()
            }
            #expect(follower.sourceName == "viz.monitor")
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { Heard.tone(follower.buffer, frequency: 600) }, "sink 1's tone before the switch")

            try server.pactl("set-default-sink", "viz2")
            let switched = pollBlocking(timeout: CaptureTools.failsafe) {
                follower.sourceName == "viz2.monitor" && Heard.tone(follower.buffer, frequency: 1500)
            }
            #expect(switched, "source \(follower.sourceName ?? "none") after the switch")
            #expect(follower.state == .capturing(source: "viz2.monitor"))
            let window = Heard.latest(follower.buffer, count: 4800).left
            #expect(Heard.amplitude(window, frequency: 600) < 0.02, "sink 1's tone is gone")

            // The explicit source did not follow.
            #expect(stayer.sourceName == "viz.monitor")
            #expect(stayer.state == .capturing(source: "viz.monitor"))
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { Heard.tone(stayer.buffer, frequency: 600) })

            // That the switch leaves no hole in the timeline (the next block closes the gap) is the
            // pacer's rule, checked on explicit times in CapturePacerTests.closesSwitchGap: a verdict
            // against the wall clock here would depend on the machine's load.
        }
    }
}
