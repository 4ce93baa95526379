import Foundation
import TestSupport
import Testing

/// On a terminal, an error that comes while the progress bar shows starts on a line of its own: the bar's
/// line is cleared first (it used to be printed after the bar, on the same line).
@Suite("marble: errors clear the progress bar first", .ownThread)
struct ProgressLineTests {
    /// What a terminal receives from `marble render SONG -o x.png --at 400s` (an error that comes after
    /// the analysis pass, which shows the bar once it has run for 0.2 s), through script's pty.
    static func screen(songSeconds: Int) throws -> String {
        let song = CLI.path("progress-\(songSeconds).wav")
        // 48 kHz stereo: the pass's per-sample work (not its end) takes long enough to show the bar.
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=d=\(songSeconds):r=48000", "-ac", "2", song])
        let command = "\(CLI.executable.path) render \(song) -o \(CLI.path("progress.png")) --at \(songSeconds + 100)s"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qec", command, "/dev/null"]
        let out = Pipe()
        p.standardOutput = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let screen = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus != 0)
        return screen
    }

    @Test("an error during the analysis pass follows a cleared bar line, on a real terminal (script's pty)")
    func errorClearsTheBar() throws {
        let clear = "\r\u{1B}[2K"
        // A longer song if the pass ended before the bar's first drawing (a fast or idle machine).
        for seconds in [60, 240] {
            let screen = try Self.screen(songSeconds: seconds)
            guard let error = screen.range(of: "marble: error: --at") else {
                Issue.record("no error line: \(screen.debugDescription)")
                return
            }
            let before = screen[..<error.lowerBound]
            guard before.contains("analysing") else { continue }
            #expect(before.hasSuffix(clear), "the bar's line is cleared before the error: \(screen.debugDescription)")
            return
        }
        Issue.record("the progress bar never showed, even for a 4-minute song")
    }
}
