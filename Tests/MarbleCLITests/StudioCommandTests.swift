import Foundation
import MarbleStudio
import Testing
import TestSupport

/// The command the studio shows beside a render: read back by a shell, run with the built `marble`,
/// it writes the same bytes as the studio's render (in one piece, and in pieces with their join).
@Suite("marble studio: a render's command gives its bytes", .ownThread, .serialized)
struct StudioCommandTests {
    let folder: URL
    let song: String

    init() throws {
        folder = try CLI.subfolder("studio-command")
        song = folder.appendingPathComponent("song it's.flac").path
        if !FileManager.default.fileExists(atPath: song) {
            try CLI.ffmpeg(["-f", "lavfi", "-i", "aevalsrc=0.3*sin(2*PI*110*t)+0.6*lt(mod(t\\,0.5)\\,0.04)*sin(2*PI*70*t)|0.3*sin(2*PI*165*t):s=44100:d=2.1",
                            "-metadata", "title=Tone", "-c:a", "flac", song])
        }
    }


    /// The words of a shell command line, as `sh` reads them.
    func words(_ line: String) throws -> [String] {
        let printed = try TestMedia.run("sh", ["-c", "printf '%s\\0' " + line])
        return printed.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("the command, run by marble in another folder, writes the queue's bytes: one piece, and 3 pieces joined",
          arguments: [#"{"size": "64x36", "fps": 10, "title": "it's {title}", "crf": 30, "fit": "contain", "encoderPreset": "fast", "format": "mkv"}"#,
                      #"{"size": "64x36", "fps": "25", "segments": 3, "background": "none"}"#])
    func sameBytes(json: String) async throws {
        let settings = try JSONDecoder().decode(RenderSettings.self, from: Data(json.utf8))
        let output = folder.appendingPathComponent("out-\(UUID().uuidString.prefix(8))")
        let observer = EndingRecorder<RenderStatus> { $0.state.hasEnded }
        let queue = RenderQueue(outputFolder: output.path, onChange: observer.callback)
        let status = try queue.submit(song: (song, "song it's.flac"), preset: (name: "spectrum", path: "spectrum"), settings: settings)
        await observer.ended.reach(1)
        queue.shutdown()
        let rendered = try queue.file(status.id)
        #expect(observer.events.all.last?.state == .done)

        // The command as a shell reads it: `marble …` (&& `marble …` … for pieces), its output elsewhere.
        let elsewhere = folder.appendingPathComponent("cli-\(UUID().uuidString.prefix(8)).\(settings.fileExtension)").path
        let line = try #require(observer.events.all.last?.command)
        var commands = try line.components(separatedBy: " && ").map(words)
        #expect(commands.count == (settings.segments ?? 1) + ((settings.segments ?? 1) > 1 ? 2 : 0))
        commands = commands.map { command in command.map { $0 == rendered ? elsewhere : $0.replacingOccurrences(of: output.path + "/", with: folder.path + "/") } }
        for command in commands {
            if command.first == "rm" {
                for piece in command.dropFirst(2) { try FileManager.default.removeItem(atPath: piece) }
                continue
            }
            #expect(command.first == "marble")
            let result = try CLI.run(Array(command.dropFirst()) + ["-q"])
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: elsewhere)) == Data(contentsOf: URL(fileURLWithPath: rendered)))
        try FileManager.default.removeItem(atPath: elsewhere)
        try FileManager.default.removeItem(at: output)
    }
}
