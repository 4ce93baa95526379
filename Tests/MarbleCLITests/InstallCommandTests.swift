import Foundation
import TestSupport
import Testing

/// What an install relies on: `--version`, the completion scripts, and a binary that links no extra
/// library from the build folder.
@Suite("marble --version and what install.sh generates (command line)", .ownThread)
struct InstallCommandTests {
    @Test("--version prints marble's version, then the FFmpeg, libpulse and SDL2 versions it runs with")
    func version() throws {
        let r = try CLI.run(["--version"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.wholeMatch(of: /marble \d+\.\d+\.\d+/) != nil, "\(lines)")
        for library in ["FFmpeg", "libavformat", "libavcodec", "libavutil", "libpulse", "SDL2"] {
            #expect(lines.contains { $0.firstMatch(of: try! Regex("^  \(library) +\\d")) != nil }, "no \(library) line in \(lines)")
        }
    }

    @Test("the completion scripts name the commands", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) throws {
        let r = try CLI.run(["--generate-completion-script", shell])
        #expect(r.status == 0)
        for command in ["render", "analyze", "live", "effects", "bench"] { #expect(r.stdout.contains(command)) }
    }

    @Test("an unknown shell is one line and exit 2")
    func badShell() throws {
        let r = try CLI.run(["--generate-completion-script", "tcsh"])
        #expect(r.status == 2)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test("marble does not link libMarbleAllocationCounter.so (bench preloads it)")
    func noInterposer() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [CLI.executable.path]
        let out = Pipe()
        ldd.standardOutput = out
        try ldd.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(text.contains("libavformat"))
        #expect(!text.contains("libMarbleAllocationCounter"))
    }
}
