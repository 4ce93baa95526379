internal import CFFmpeg
import MarbleCore

/// One picture file (PNG, JPEG, TGA, BMP, … whatever FFmpeg's image demuxers read) at its own size:
/// MilkDrop's disk textures (`sampler_worms`, `rand03`...).
///
/// In two steps, so that the size is read from the stream's parameters and checked by the caller
/// before anything is decoded or allocated: a corrupt or hostile header cannot ask for gigabytes.
package enum StillImage {
    /// The width and height of the first picture of `path`, from its header.
    package static func size(path: String) throws(MarbleError) -> (width: Int, height: Int) {
        let input = try MediaInput(path: path)
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw MarbleError(.input, "\(path): not a picture")
        }
        let parameters = input.stream(index).pointee.codecpar!
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        guard width > 0, height > 0 else { throw MarbleError(.input, "\(path): a picture without a size") }
        return (width, height)
    }

    /// Decodes the first picture of `path` into `texture`, which must have the picture's size, as
    /// straight (not premultiplied) RGBA.
    package static func decode(path: String, into texture: Texture) throws(MarbleError) {
        let (width, height) = try size(path: path)
        guard width == texture.width, height == texture.height else {
            throw MarbleError(.input, "\(path): is \(width)x\(height) now, not \(texture.width)x\(texture.height)")
        }
        let source = try PictureSource(path: path, width: width, height: height, fit: .cover, loop: false)
        let picture: Texture
        if let still = source.still {
            picture = still
        } else {
            picture = Texture(width: width, height: height)
            try source.picture(at: 0, into: picture)
        }
        for y in 0..<height {
            let from = picture.view.row32(y), to = texture.view.row32(y)
            for x in 0..<width { to[x] = unpremultiplied(from[x]) }
        }
    }

    /// A premultiplied RGBA8 pixel (r in the low byte) with its colour divided by its alpha.
    static func unpremultiplied(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        guard a > 0, a < 255 else { return p }
        func channel(_ shift: UInt32) -> UInt32 { min(255, (((p >> shift) & 0xFF) * 255 + a / 2) / a) << shift }
        return channel(0) | channel(8) | channel(16) | (a << 24)
    }
}
