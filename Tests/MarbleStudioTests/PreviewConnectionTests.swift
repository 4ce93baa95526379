import Foundation
import Testing
import MarbleCore
import TestSupport
@testable import MarbleStudio

/// The preview socket's messages, without the socket: the same calls the server makes.
@Suite struct PreviewConnectionTests {
    let studio: StudioState
    let folder: String

    init() throws {
        folder = TestMedia.output("studio-preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder + "/album", withIntermediateDirectories: true)
        let song = try TestMedia.tone("wav", seconds: 4, rate: 22_050, channels: 1)
        try FileManager.default.copyItem(atPath: song, toPath: folder + "/album/song.wav")
        var c = StudioConfiguration(folders: [folder])
        c.output = folder + "/out"
        studio = try StudioState(c)
    }

    private func text(_ reply: PreviewConnection.Reply) -> [String: Any] {
        guard case .text(let t) = reply else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(t.utf8)) as? [String: Any]) ?? [:]
    }

    private func frame(_ reply: PreviewConnection.Reply) -> (id: UInt32, index: UInt32, time: Double, jpeg: [UInt8])? {
        guard case .binary(let b) = reply, b.count > 16 else { return nil }
        func u32(_ at: Int) -> UInt32 { b[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        let bits = b[8..<16].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (u32(0), u32(4), Double(bitPattern: bits), Array(b[16...]))
    }

    private let solid = ##"{"layers": [{"shader": "solid", "parameters": {"color": "#204080"}}]}"##

    @Test func opensASongAndAnswersFramesWithTheirMomentAndAJPEG() async throws {
        let c = PreviewConnection(studio: studio)
        let opened = text(await c.handle(#"{"type": "open", "song": "album/song.wav", "size": "160x90", "fps": 30}"#))
        #expect(opened["type"] as? String == "opened" && opened["width"] as? Int == 160 && opened["frames"] as? Int == 120)
        let f = try #require(frame(await c.handle(#"{"type": "frame", "id": 7, "time": 1.01}"#)))
        #expect(f.id == 7 && f.index == 30 && f.time == 1.0)
        #expect(f.jpeg.starts(with: [0xFF, 0xD8]) && Array(f.jpeg.suffix(2)) == [0xFF, 0xD9])
    }

    @Test func aNewLookShowsInTheNextFrame() async throws {
        let c = PreviewConnection(studio: studio)
        _ = await c.handle(#"{"type": "open", "song": "album/song.wav", "size": "64x36", "look": \#(solid)}"#)
        let first = try #require(frame(await c.handle(#"{"type": "frame", "id": 1, "time": 2}"#)))
        let again = try #require(frame(await c.handle(#"{"type": "frame", "id": 2, "time": 2}"#)))
        #expect(first.jpeg == again.jpeg)   // a still look: the same picture
        let red = solid.replacingOccurrences(of: "#204080", with: "#ff0000")
        #expect(text(await c.handle(#"{"type": "look", "look": \#(red)}"#))["type"] as? String == "looked")
        let changed = try #require(frame(await c.handle(#"{"type": "frame", "id": 3, "time": 2}"#)))
        #expect(changed.jpeg != first.jpeg)
    }

    @Test func aLookThatReadsMoreOfTheSoundOpensTheSongAgain() async throws {
        let c = PreviewConnection(studio: studio)
        _ = await c.handle(#"{"type": "open", "song": "album/song.wav", "size": "64x36", "look": \#(solid)}"#)
        _ = try #require(frame(await c.handle(#"{"type": "frame", "id": 1, "time": 2}"#)))
        // The piano reads pitches and the spectrogram the spectrum, which a solid colour's analysis skips.
        for shader in ["piano", "spectrogram"] {
            let reply = text(await c.handle(#"{"type": "look", "look": {"layers": [{"shader": "\#(shader)"}]}}"#))
            #expect(reply["type"] as? String == "looked", "\(shader): \(reply)")
            let f = try #require(frame(await c.handle(#"{"type": "frame", "id": 2, "time": 2.5}"#)))
            #expect(f.index == 75 && f.jpeg.starts(with: [0xFF, 0xD8]))
        }
    }

    @Test func aBadLookIsRefusedAndTheLastOneStays() async throws {
        let c = PreviewConnection(studio: studio)
        _ = await c.handle(#"{"type": "open", "song": "album/song.wav", "size": "64x36", "look": \#(solid)}"#)
        let before = try #require(frame(await c.handle(#"{"type": "frame", "id": 1, "time": 1}"#)))
        let refused = text(await c.handle(#"{"type": "look", "look": {"layers": [{"shader": "solid", "parameters": {"color": 5}}]}}"#))
        #expect(refused["type"] as? String == "error")
        #expect((refused["error"] as? String)?.contains("layers[0].parameters.color") == true)
        let after = try #require(frame(await c.handle(#"{"type": "frame", "id": 2, "time": 1}"#)))
        #expect(after.jpeg == before.jpeg)
    }

    @Test func everyBadMessageIsOneSentenceAndNothingBreaks() async throws {
        let c = PreviewConnection(studio: studio)
        let cases: [(String, String)] = [
            (#"{"type": "frame", "id": 1, "time": 0}"#, "open a song first"),
            ("not json", "the body is not valid JSON"),
            (#"{"type": "dance"}"#, "type: unknown message"),
            (#"{"song": "x"}"#, "type: missing"),
            (#"{"type": "open", "song": "../../etc/passwd"}"#, "holds a `..` component"),
            (#"{"type": "open", "song": "/etc/passwd"}"#, "is an absolute path"),
            (#"{"type": "open", "song": "album/none.wav"}"#, "no such file"),
            (#"{"type": "open", "song": "album/song.wav", "folder": 3}"#, "folder: 3 is not one of the 1 song folders"),
            (#"{"type": "open", "song": "album/song.wav", "size": "4000x4000"}"#, "size:"),
            (#"{"type": "open", "song": "album/song.wav", "fps": 500}"#, "fps: must be 10…60"),
            (#"{"type": "open", "song": "album/song.wav", "settings": {"fit": "stretch"}}"#, "settings.fit"),
        ]
        for (message, expected) in cases {
            let reply = text(await c.handle(message))
            #expect(reply["type"] as? String == "error" && (reply["error"] as? String)?.contains(expected) == true, "\(message) → \(reply)")
        }
        _ = await c.handle(#"{"type": "open", "song": "album/song.wav", "size": "64x36"}"#)
        for bad in [#"{"type": "frame", "id": -1, "time": 0}"#, #"{"type": "frame", "id": 1, "time": "soon"}"#, #"{"type": "frame", "id": 1}"#] {
            #expect(text(await c.handle(bad))["type"] as? String == "error", "\(bad)")
        }
        #expect(frame(await c.handle(#"{"type": "frame", "id": 1, "time": 1e300}"#))?.index == 119)   // clamped to the last frame
    }

    @Test func aLinkLeadingOutOfTheFolderIsRefused() async throws {
        try FileManager.default.createSymbolicLink(atPath: folder + "/album/escape.wav", withDestinationPath: "/etc/hostname")
        let reply = text(await PreviewConnection(studio: studio).handle(#"{"type": "open", "song": "album/escape.wav"}"#))
        #expect((reply["error"] as? String)?.contains("leads outside") == true)
    }
}
