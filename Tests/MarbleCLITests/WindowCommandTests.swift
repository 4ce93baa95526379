import Foundation
import Testing
import TestSupport

/// `--window` from the command line, for real: `marble live --window -o rtmp://… -o set.mp4` (the
/// issue's party set-up) under Xvfb, with a headless PulseAudio and nginx-rtmp on loopback; and the
/// one clear line when there is no display.
@Suite("marble live / play --window (Xvfb, PulseAudio, nginx-rtmp)", .ownThread, .serialized, .enabled(if: PlayTools.available))
struct WindowCommandTests {
    /// Whether a screenshot has a picture: enough pixels away from black.
    static func hasPicture(_ shot: Screenshot) -> Bool {
        var lit = 0
        for y in stride(from: 0, to: shot.height, by: 4) {
            for x in stride(from: 0, to: shot.width, by: 4) {
                let p = shot.pixel(x, y)
                if Int(p.r) + Int(p.g) + Int(p.b) > 60 { lit += 1 }
            }
        }
        return lit > shot.width * shot.height / 16 / 20
    }

    @Test("live --window -o rtmp -o file: one render shown in the window, streamed and recorded")
    func windowStreamAndRecording() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let rtmp = try RTMPServer()
        defer { rtmp.stop() }
        let screen = try XvfbServer(width: 320, height: 180)
        defer { screen.stop() }
        let noise = try TestMedia.make("window-noise-20.wav", ["-f", "lavfi", "-i", "anoisesrc=d=20:c=pink:r=48000:a=0.5", "-ac", "2"])
        let player = try pulse.play(noise)
        defer { player.terminate() }
        let file = LiveCommandTests.path("window-set.mp4")
        let (process, log) = try LiveCommandTests.startLive(
            ["--window", "-o", rtmp.url("set"), "-o", file, "--size", "320x180", "--fps", "30", "--duration", "4s",
             "--encoder-preset", "ultrafast"], pulse: pulse, environment: ["DISPLAY": screen.display])
        // The window fills the screen (same size): it shows the live picture while the run goes on.
        var shown = false
        _ = PlayTools.eventually(timeout: 60) {
            if let shot = try? screen.screenshot(), Self.hasPicture(shot) { shown = true }
            return shown || !process.isRunning
        }
        process.waitUntilExit()
        let text = LiveCommandTests.read(log)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(shown, "the window never showed a picture: \(text)")
        // The summary names all three outputs, and the window's renderer.
        let lines = text.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("  window: ") && $0.contains(" frames, ") }, "the window's own count: \(text)")
        #expect(lines.contains { $0.hasPrefix("  window: SDL ") }, "\(text)")
        #expect(text.contains(rtmp.url("set")) && text.contains("sent"), "\(text)")
        // The recording and the stream have the same 4 s of 30 fps (one encoding shared).
        let recorded = try Probe(file)
        #expect(recorded.video?.codec == "h264" && recorded.audio?.codec == "aac")
        let frames = try #require(recorded.video?.frames)
        #expect(abs(frames - 120) <= 1, "\(frames) frames recorded for 4 s at 30 fps")
        let flv = try #require(rtmp.recordings("set").last, "nginx recorded nothing: \(text)")
        let streamed = try Probe(flv)
        #expect(streamed.video?.codec == "h264" && streamed.audio?.codec == "aac")
        #expect(abs((streamed.video?.frames ?? 0) - frames) <= 1, "streamed \(streamed.video?.frames ?? 0), recorded \(frames)")
    }

    @Test("no display: --window is one line saying so, a non-zero exit, and no recording left", arguments: ["play", "live"])
    func noDisplay(command: String) throws {
        let file = CLI.path("no-display-\(command).mp4")
        let r: CLI.Result
        if command == "play" {
            r = try PlayTools.marble(["play", try TestMedia.tone("wav", seconds: 1.5), "--window", "-o", file],
                                     environment: ["DISPLAY": ":987"])
        } else {
            let pulse = try PulseServer()
            defer { pulse.stop() }
            r = try PlayTools.marble(["live", "--window", "-o", file, "--duration", "2s"],
                                     environment: pulse.environment.merging(["DISPLAY": ":987"]) { $1 })
        }
        #expect(r.status != 0)
        #expect(r.stderr.contains("no display") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
