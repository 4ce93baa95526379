import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

/// A song's embedded cover comes back as premultiplied RGBA at its own size from every container that
/// can carry one; a song without one has none; an absurd size is refused with a warning.
@Suite("Cover art")
struct CoverArtTests {
    /// The pixel at (x, y) of a texture as RGBA bytes.
    static func pixel(_ t: Texture, _ x: Int, _ y: Int) -> [Int] {
        let p = t.view.row(y) + x * 4
        return (0..<4).map { Int(p[$0]) }
    }

    @Test("the picture's colour patches come back from mp3, m4a, flac, ogg and opus", arguments: [
        ("mp3", "png"), ("mp3", "mjpeg"), ("m4a", "png"), ("m4a", "mjpeg"), ("flac", "png"), ("flac", "mjpeg"),
        ("ogg", "png"), ("opus", "png"),
    ])
    func patches(ext: String, codec: String) throws {
        let song = try CoverMedia.song(ext, pictureCodec: codec)
        let found = try CoverArt.picture(in: song)
        #expect(found.warning == nil)
        let cover = try #require(found.picture, "\(ext)/\(codec): no cover found")
        #expect(cover.width == CoverMedia.side && cover.height == CoverMedia.side)
        // JPEG blurs the edges between patches and shifts colours a little: look at each patch's middle.
        let tolerance = codec == "png" ? 0 : 24
        for (i, expected) in CoverMedia.patches.enumerated() {
            let x = i % 2 == 0 ? 8 : 24, y = i < 2 ? 8 : 24
            let got = Self.pixel(cover, x, y)
            let want = [Int(expected.r), Int(expected.g), Int(expected.b), 255]
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= tolerance }, "\(ext)/\(codec) patch \(i): \(got), expected \(want)")
        }
        #expect(try CoverArt.hasPicture(in: song))
    }

    @Test("a song without a cover has none, and no warning")
    func noCover() throws {
        let song = try TestMedia.tone("mp3", codec: ["-c:a", "libmp3lame"])
        let found = try CoverArt.picture(in: song)
        #expect(found.picture == nil && found.warning == nil)
        #expect(try !CoverArt.hasPicture(in: song))
    }

    @Test("a picture wider than the limit is refused with a one-line warning, not decoded")
    func absurdSize() throws {
        let song = try CoverMedia.song("flac", width: CoverArt.maximumSide + 8, height: 8)
        let found = try CoverArt.picture(in: song)
        #expect(found.picture == nil)
        let warning = try #require(found.warning)
        #expect(warning.contains("larger than") && !warning.contains("\n"), "\(warning)")
    }

    @Test("scaled for a background: the picture fills the frame by --fit")
    func scaled() throws {
        let song = try CoverMedia.song("flac")
        let cover = try #require(try CoverArt.picture(in: song, width: 64, height: 36, fit: .contain).picture)
        #expect(cover.width == 64 && cover.height == 36)
        #expect(Self.pixel(cover, 2, 18) == [0, 0, 0, 255], "contain leaves black bars at the sides")
        #expect(Self.pixel(cover, 20, 4) == [255, 0, 0, 255] && Self.pixel(cover, 44, 30) == [255, 255, 255, 255])
    }
}
