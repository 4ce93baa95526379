import Foundation
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleMedia
@testable import MarblePipeline
import Testing

@Suite("marble play: terminal keys and half-block encoding")
struct PlayTerminalTests {
    func keys(_ chunks: [[UInt8]]) -> [Key] {
        var reader = KeyReader()
        var out: [Key] = []
        for chunk in chunks {
            chunk.withUnsafeBytes { reader.feed($0) { out.append($0) } }
        }
        return out
    }

    @Test("letters, space, arrows in both cursor modes and Ctrl-C")
    func parsesKeys() {
        let bytes = Array("q n+-".utf8) + [0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44, 0x1B, 0x4F, 0x43, 0x03]
        #expect(keys([bytes]) == [.character("q"), .character(" "), .character("n"), .character("+"), .character("-"),
                                  .right, .left, .right, .interrupt])
    }

    @Test("a sequence split across reads, unknown sequences ignored, a lone Esc")
    func splitsAndUnknowns() {
        #expect(keys([[0x1B], [0x5B], [0x44]]) == [.left])
        // F5 (ESC [ 1 5 ~) and a mouse-ish CSI are consumed without producing keys.
        #expect(keys([[0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x71]]) == [.character("q")])
        #expect(keys([[0x1B], []]) == [.escape])
    }

    @Test("upper pixel is the foreground, lower the background; equal pixels are a space; status is padded")
    func encodes() {
        let texture = Texture(width: 2, height: 2)
        let v = texture.view
        v.row32(0)[0] = RGBA8(r: 255, g: 0, b: 0).packed
        v.row32(1)[0] = RGBA8(r: 0, g: 0, b: 255).packed
        v.row32(0)[1] = RGBA8(r: 7, g: 8, b: 9).packed
        v.row32(1)[1] = RGBA8(r: 7, g: 8, b: 9).packed
        let renderer = HalfBlockRenderer(columns: 2, rows: 1)
        let status = Array("ok".utf8)
        let text = status.withUnsafeBytes { String(decoding: renderer.encode(texture, status: $0), as: UTF8.self) }
        #expect(text.hasPrefix("\u{1B}[1;1H\u{1B}[48;2;0;0;255m\u{1B}[38;2;255;0;0m▀\u{1B}[48;2;7;8;9m \u{1B}[2;1H"), "\(text.debugDescription)")
        #expect(text.hasSuffix("\u{1B}[0;7mok\u{1B}[0m"), "\(text.debugDescription)")
        // The same picture gives the same bytes (no state leaks between frames).
        let again = status.withUnsafeBytes { String(decoding: renderer.encode(texture, status: $0), as: UTF8.self) }
        #expect(again == text)
    }

    @Test("a long status is cut to the width; a short one padded")
    func statusWidth() {
        let texture = Texture(width: 4, height: 2)
        let renderer = HalfBlockRenderer(columns: 4, rows: 1)
        let long = Array("abcdefgh".utf8)
        let text = long.withUnsafeBytes { String(decoding: renderer.encode(texture, status: $0), as: UTF8.self) }
        #expect(text.hasSuffix("\u{1B}[0;7mabcd\u{1B}[0m"))
        let short = Array("a".utf8)
        let padded = short.withUnsafeBytes { String(decoding: renderer.encode(texture, status: $0), as: UTF8.self) }
        #expect(padded.hasSuffix("\u{1B}[0;7ma   \u{1B}[0m"))
    }
}
