import Foundation
import Testing

/// On a terminal, an error that comes while the progress bar shows starts on a line of its own: the bar's
/// line is cleared first (it used to be printed after the bar, on the same line).
@Suite("marble: errors clear the progress bar first")
struct ProgressLineTests {
    @Test("an error during the analysis pass follows a cleared bar line, on a real terminal (script's pty)")
    func errorClearsTheBar() throws {
        // Two minutes of 8 kHz sound: the analysis pass shows the bar for a moment even in a release build.
        let song = CLI.path("progress-long.wav")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=d=120:r=8000", song])
        let command = "\(CLI.executable.path) render \(song) -o \(CLI.path("progress.png")) --at 400s"
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
        let clear = "\r\u{1B}[2K"
        guard let error = screen.range(of: "marble: error: --at") else {
            Issue.record("no error line: \(screen.debugDescription)")
            return
        }
        let before = screen[..<error.lowerBound]
        #expect(before.contains("analysing"), "the bar was shown: \(screen.debugDescription)")
        #expect(before.hasSuffix(clear), "the bar's line is cleared before the error: \(screen.debugDescription)")
    }
}
