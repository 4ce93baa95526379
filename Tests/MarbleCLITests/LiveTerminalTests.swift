import Foundation
import TestSupport
import Testing

/// `marble live` in a terminal (tmux) against a private PulseAudio: the picture and the status line,
/// keys, the server going away and coming back, and a clean exit.
@Suite("marble live in a terminal (PulseAudio + tmux)", .ownThread, .serialized, .enabled(if: PlayTools.available))
struct LiveTerminalTests {
    @Test("draws what plays, follows keys, says reconnecting while the server is away, quits cleanly")
    func drawsFollowsKeysAndReconnects() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let results = PlayTools.makeDirectory("marble-live-res")
        defer { try? FileManager.default.removeItem(atPath: results) }
        let tone = LiveCommandTests.path("terminal-tone.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=60:r=48000", "-ac", "2", tone])
        var player = try pulse.play(tone)
        defer { player.terminate() }
        let env = pulse.environment.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let command = "env \(env) \(CLI.executable.path) live --fps 15 --preset spectrum; "
            + "s=$?; stty -a > \(results)/stty.tmp; mv \(results)/stty.tmp \(results)/stty; echo $s > \(results)/status; sleep 600"
        let term = try TmuxTerminal(columns: 80, rows: 24, command: command)
        defer { term.stop() }

        let drawn = PlayTools.eventually(timeout: 60) {
            term.statusLine.contains("viz.monitor") && term.statusLine.contains("preset spectrum") && term.capture().contains("▀")
        }
        #expect(drawn, "screen:\n\(term.capture())")
        try #require(drawn)
        #expect(term.capture(escapes: true).contains("38;2;"), "no truecolor escapes")
        #expect(PlayTools.eventually(timeout: 60) { term.statusLine.contains(" fps") && !term.statusLine.contains(" 0.0 fps") },
                "\(term.statusLine)")

        term.send("n")
        #expect(PlayTools.eventually(timeout: 60) { !term.statusLine.contains("preset spectrum") }, "\(term.statusLine)")
        term.send("+")
        #expect(PlayTools.eventually(timeout: 60) { term.statusLine.contains("sens 1.25") }, "\(term.statusLine)")

        pulse.kill()
        player.terminate()
        #expect(PlayTools.eventually(timeout: 60) { term.statusLine.contains("reconnecting") }, "\(term.statusLine)")
        try pulse.start()
        player = try pulse.play(tone)
        #expect(PlayTools.eventually(timeout: 60) { term.statusLine.contains("viz.monitor") }, "\(term.statusLine)")

        term.send("q")
        let status = "\(results)/status"
        #expect(PlayTools.eventually(timeout: 30) { !((try? String(contentsOfFile: status, encoding: .utf8)) ?? "").isEmpty })
        #expect(((try? String(contentsOfFile: status, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(PlayTools.eventually(timeout: 60) { FileManager.default.fileExists(atPath: "\(results)/stty") })
        PlayCommandTests.expectRestored(term, stty: (try? String(contentsOfFile: "\(results)/stty", encoding: .utf8)) ?? "")
    }
}
