import Foundation

/// Songs with an embedded cover picture, made with the `ffmpeg` command: a 32×32 picture of four
/// colour patches (red top-left, blue top-right, green bottom-left, white bottom-right) attached as the
/// file's cover in every way FFmpeg reads one.
public enum CoverMedia {
    /// The patches' colours, row by row: top-left, top-right, bottom-left, bottom-right.
    public static let patches: [(r: UInt8, g: UInt8, b: UInt8)] = [(255, 0, 0), (0, 0, 255), (0, 200, 0), (255, 255, 255)]
    /// The picture's side.
    public static let side = 32

    /// The patch picture as a PNG (or any format ffmpeg writes by extension), `width`×`height`.
    public static func picture(_ ext: String = "png", width: Int = side, height: Int = side) throws -> String {
        let ppm = TestMedia.folder.appendingPathComponent("patches-\(width)x\(height).ppm")
        if !FileManager.default.fileExists(atPath: ppm.path) {
            var data = Data("P6\n\(width) \(height)\n255\n".utf8)
            for y in 0..<height { for x in 0..<width {
                let p = patches[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]
                data.append(contentsOf: [p.r, p.g, p.b])
            } }
            try data.write(to: ppm)
        }
        return try TestMedia.make("patches-\(width)x\(height).\(ext)", ["-i", ppm.path])
    }

    /// A one-second tone in `ext` (mp3, m4a, flac, ogg, opus) with the patch picture attached as its
    /// cover, coded as `pictureCodec` (png or mjpeg; Ogg files always carry PNG, in a
    /// METADATA_BLOCK_PICTURE comment).
    public static func song(_ ext: String, pictureCodec: String = "png", width: Int = side, height: Int = side) throws -> String {
        let picture = try picture("png", width: width, height: height)
        let tone = ["-f", "lavfi", "-i", "sine=f=330:r=44100:d=1"]
        let name = "covered-\(pictureCodec)-\(width)x\(height).\(ext)"
        switch ext {
        case "ogg", "opus":
            let block = try pictureBlock(png: Data(contentsOf: URL(fileURLWithPath: picture)), width: width, height: height)
            return try TestMedia.make(name, tone + ["-c:a", ext == "ogg" ? "libvorbis" : "libopus",
                                                    "-metadata:s:a:0", "METADATA_BLOCK_PICTURE=\(block.base64EncodedString())"])
        default:
            let audio: [String] = ext == "mp3" ? ["-c:a", "libmp3lame"] : ext == "m4a" ? ["-c:a", "aac"] : []
            return try TestMedia.make(name, tone + ["-i", picture, "-map", "0", "-map", "1"] + audio
                                      + ["-c:v", pictureCodec, "-disposition:v", "attached_pic"])
        }
    }

    /// A FLAC PICTURE block (front cover) holding `png`: what Ogg files carry base64-encoded.
    static func pictureBlock(png: Data, width: Int, height: Int) throws -> Data {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        let mime = Array("image/png".utf8)
        var block = Data(be32(3) + be32(mime.count) + mime + be32(0))
        block.append(contentsOf: be32(width) + be32(height) + be32(24) + be32(0) + be32(png.count))
        block.append(png)
        return block
    }
}
