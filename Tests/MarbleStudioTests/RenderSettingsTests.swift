import Foundation
import MarbleCore
import MarbleKit
import Testing
import TestSupport
@testable import MarbleStudio

/// The page's render settings: the JSON, the command line's checks with the field named, the render's
/// options, and the command line that a shell reads back word for word.
@Suite struct RenderSettingsTests {
    func decode(_ json: String) throws -> RenderSettings {
        try JSONDecoder().decode(RenderSettings.self, from: Data(json.utf8))
    }

    /// What decoding `json` throws, as the message of a MarbleError (nil when it decodes).
    func decodingError(_ json: String) -> String? {
        do {
            _ = try decode(json)
            return nil
        } catch let error as MarbleError {
            return error.message
        } catch {
            return "not a MarbleError: \(error)"
        }
    }

    @Test("docs/STUDIO.md's SETTINGS example reads into every field, and writes back the same")
    func example() throws {
        let json = """
            {"size": "1280x720", "fps": 60, "format": "mp4", "segments": 1, "title": "{title}",
             "background": {"song": "art/cover.png", "folder": 1}, "fit": "contain", "crf": 23, "encoderPreset": "superfast"}
            """
        let settings = try decode(json)
        #expect(settings == RenderSettings(size: "1280x720", fps: Rational(60), format: "mp4", segments: 1, title: "{title}",
                                           background: .file(path: "art/cover.png", folder: 1), fit: "contain", crf: 23,
                                           encoderPreset: "superfast"))
        #expect(try decode(String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)) == settings)
        #expect(try decode(#"{"background": "cover", "fps": "30000/1001"}"#) == RenderSettings(fps: Rational(30000, 1001), background: .cover))
        #expect(try decode(#"{"background": "none", "title": null}"#) == RenderSettings(background: RenderSettings.Background.none))
        #expect(try decode("{}") == RenderSettings())
        // A fractional rate is written back as the text it was read from.
        let ntsc = String(decoding: try JSONEncoder().encode(RenderSettings(fps: Rational(30000, 1001))), as: UTF8.self)
        #expect(ntsc == #"{"fps":"30000\/1001"}"#)
    }

    @Test("a field of the wrong type, an unknown field or a bad background is an error naming the field")
    func decodingErrors() {
        #expect(decodingError(#"{"crf": "high"}"#) == "settings.crf: expected a whole number")
        #expect(decodingError(#"{"size": 1280}"#) == #"settings.size: expected a text like "1280x720""#)
        #expect(decodingError(#"{"fps": 29.97}"#) == #"settings.fps: expected a rate like 60 or "30000/1001""#)
        #expect(decodingError(#"{"fps": "fast"}"#) == #"settings.fps: expected a rate like 60 or "30000/1001", not fast"#)
        #expect(decodingError(#"{"colour": "red"}"#)?.hasPrefix("settings.colour: not a setting (size, fps,") == true)
        let background = #"settings.background: expected "cover", "none" or {"song": PATH, "folder": N}"#
        #expect(decodingError(#"{"background": "sky"}"#) == background)
        #expect(decodingError(#"{"background": {"song": "a.png"}}"#) == background)
        #expect(decodingError(#"{"background": 3}"#) == background)
    }

    @Test("each bad value is one sentence naming the field and the value, with the command line's rule",
          arguments: [
            (RenderSettings(size: "big"), "settings.size: big: expected WIDTHxHEIGHT, e.g. 1920x1080"),
            (RenderSettings(size: "641x360"), "settings.size: 641x360: width and height must be even (YUV 4:2:0 video)"),
            (RenderSettings(size: "8x8"), "settings.size: 8x8: width and height must be between 16x16 and 7680x4320"),
            (RenderSettings(fps: Rational(241)), "settings.fps: 241: must be between 1 and 240"),
            (RenderSettings(fps: Rational(0)), "settings.fps: 0: must be between 1 and 240"),
            (RenderSettings(format: "avi"), "settings.format: avi: expected mp4, mkv, mov, webm"),
            (RenderSettings(format: "png"), "settings.format: png: expected mp4, mkv, mov, webm"),
            (RenderSettings(segments: 0), "settings.segments: 0: must be between 1 and 16"),
            (RenderSettings(segments: 17), "settings.segments: 17: must be between 1 and 16"),
            (RenderSettings(title: "a\u{7}b"), "settings.title: control characters are not allowed (use \\n for a new line)"),
            (RenderSettings(title: String(repeating: "x", count: 501)), "settings.title: 501 characters; at most 500"),
            (RenderSettings(background: .file(path: "", folder: 0)), #"settings.background: expected "cover", "none" or {"song": PATH, "folder": N}"#),
            (RenderSettings(fit: "stretch"), "settings.fit: stretch: expected contain or cover"),
            (RenderSettings(crf: 64), "settings.crf: 64: must be between 0 and 63"),
            (RenderSettings(crf: -1), "settings.crf: -1: must be between 0 and 63"),
            (RenderSettings(encoderPreset: "turbo"),
             "settings.encoderPreset: turbo: expected one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow"),
          ])
    func validation(settings: RenderSettings, message: String) {
        #expect(throws: MarbleError(.option, message)) { try settings.validate() }
        #expect(throws: MarbleError(.option, message)) {
            try settings.options(song: "/s.flac", background: .none, preset: "spectrum", output: "/o.mp4")
        }
    }

    @Test("the edges of each range pass")
    func edges() throws {
        for settings in [RenderSettings(size: "16x16", fps: Rational(1), segments: 1, crf: 0),
                         RenderSettings(size: "7680x4320", fps: Rational(240), format: "webm", segments: 16, title: "{artist}\\n{title}",
                                        background: .cover, fit: "contain", crf: 63, encoderPreset: "veryslow")] {
            try settings.validate()
        }
    }

    @Test("no settings are the command line's defaults; each setting lands in its option")
    func options() throws {
        let plain = try RenderSettings().options(song: "/m/song.flac", background: .none, preset: "spectrum", output: "/o/a.mp4")
        let defaults = RenderOptions(input: "/m/song.flac", output: "/o/a.mp4")
        #expect(plain.width == defaults.width && plain.height == defaults.height && plain.fps == defaults.fps)
        #expect(plain.crf == defaults.crf && plain.fit == defaults.fit && plain.encoderPreset == defaults.encoderPreset)
        #expect(plain.background == nil && plain.title == nil && plain.preset == "spectrum" && plain.segment == nil)

        let settings = RenderSettings(size: "640x360", fps: Rational(30000, 1001), format: "webm", title: "{title}", fit: "contain",
                                      crf: 30, encoderPreset: "fast")
        let o = try settings.options(song: "/m/song.flac", background: .file("/m/sky.png"), preset: "/p/mine.yaml", output: "/o/a.webm")
        #expect(o.width == 640 && o.height == 360 && o.fps == Rational(30000, 1001))
        #expect(o.title == "{title}" && o.fit == .contain && o.crf == 30 && o.encoderPreset == .fast)
        #expect(o.background == "/m/sky.png" && o.preset == "/p/mine.yaml" && o.input == "/m/song.flac" && o.output == "/o/a.webm")
        let cover = try RenderSettings(background: .cover).options(song: "/s.flac", background: .cover, preset: "spectrum", output: "/o.mp4")
        #expect(cover.backgroundIsCover)
    }

    @Test("the command: size and rate always, other settings when not the default, the background as resolved")
    func commandLines() throws {
        #expect(try RenderSettings().commandLines(song: "/m/song.flac", background: .none, preset: "spectrum", output: "/o/a.mp4")
                == [["marble", "render", "/m/song.flac", "-o", "/o/a.mp4", "--preset", "spectrum", "--size", "1280x720", "--fps", "60"]])
        let settings = RenderSettings(size: "64x36", fps: Rational(30000, 1001), title: "it's {title}", fit: "contain", crf: 30,
                                      encoderPreset: "fast")
        #expect(try settings.commandLines(song: "/m/song.flac", background: .cover, preset: "/p/mine.yaml", output: "/o/a.mp4")
                == [["marble", "render", "/m/song.flac", "-o", "/o/a.mp4", "--preset", "/p/mine.yaml", "--size", "64x36",
                     "--fps", "30000/1001", "--title", "it's {title}", "--background", "cover", "--fit", "contain", "--crf", "30",
                     "--encoder-preset", "fast"]])
        #expect(try settings.command(song: "/m/song.flac", background: .file("/m/sky.png"), preset: "/p/mine.yaml", output: "/o/a.mp4")
                == "marble render '/m/song.flac' -o '/o/a.mp4' --preset '/p/mine.yaml' --size 64x36 --fps '30000/1001' "
                + "--title 'it'\\''s {title}' --background '/m/sky.png' --fit contain --crf 30 --encoder-preset fast")
    }

    @Test("in pieces: one render per piece beside the output, the join, and the pieces removed")
    func pieceCommands() throws {
        let lines = try RenderSettings(size: "64x36", fps: Rational(10), segments: 3)
            .commandLines(song: "/m/song.flac", background: .none, preset: "spectrum", output: "/o/my.song.mp4")
        let common = ["--preset", "spectrum", "--size", "64x36", "--fps", "10"]
        #expect(lines == [
            ["marble", "render", "/m/song.flac", "-o", "/o/my.song.part-1.mp4"] + common + ["--segment", "1/3"],
            ["marble", "render", "/m/song.flac", "-o", "/o/my.song.part-2.mp4"] + common + ["--segment", "2/3"],
            ["marble", "render", "/m/song.flac", "-o", "/o/my.song.part-3.mp4"] + common + ["--segment", "3/3"],
            ["marble", "join", "/o/my.song.part-1.mp4", "/o/my.song.part-2.mp4", "/o/my.song.part-3.mp4", "-o", "/o/my.song.mp4"],
            ["rm", "--", "/o/my.song.part-1.mp4", "/o/my.song.part-2.mp4", "/o/my.song.part-3.mp4"],
        ])
    }

    @Test("a POSIX shell reads the quoted words back exactly: quotes, spaces, $, backslashes, newlines, empty words")
    func shellQuoting() throws {
        let words = ["marble", "it's", "two words", "$HOME", "a\\nb", "line\nbreak", "", "'", "''x'", "-o", "/a b/c's.mp4", "ü→é", "*"]
        let line = RenderSettings.shellCommand(words)
        #expect(RenderSettings.shellQuoted("it's") == #"'it'\''s'"#)
        #expect(RenderSettings.shellQuoted("plain-word_1.mp4") == "plain-word_1.mp4")
        #expect(RenderSettings.shellQuoted("/abs/x") == "'/abs/x'")
        let printed = try TestMedia.run("sh", ["-c", "printf '%s\\0' " + line])
        let back = printed.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        #expect(back == words)
    }
}
