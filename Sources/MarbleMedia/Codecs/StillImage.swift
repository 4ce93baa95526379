internal import CFFmpeg
import MarbleCore

/// One picture file (PNG, JPEG, TGA, BMP, … whatever FFmpeg's image demuxers read) decoded at its own
/// size into a premultiplied RGBA texture: MilkDrop's disk textures (`sampler_worms`, `rand03`...).
///
/// The size is read from the stream's parameters and checked against `maximumSide` before anything is
/// decoded or allocated, so a corrupt or hostile header cannot ask for gigabytes.
package enum StillImage {
    /// Decodes the first picture of `path`. Throws a one-line error when the file is unreadable, has
    /// no picture, or is larger than `maximumSide` on a side.
    package static func load(path: String, maximumSide: Int = 4096) throws(MarbleError) -> Texture {
        let input = try MediaInput(path: path)
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw MarbleError(.input, "\(path): not a picture")
        }
        let parameters = input.stream(index).pointee.codecpar!
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        guard width > 0, height > 0 else { throw MarbleError(.input, "\(path): a picture without a size") }
        guard width <= maximumSide, height <= maximumSide else {
            throw MarbleError(.input, "\(path): \(width)x\(height) is larger than \(maximumSide)x\(maximumSide)")
        }
        let source = try PictureSource(path: path, width: width, height: height, fit: .cover, loop: false)
        if let still = source.still { return still }
        let texture = Texture(width: width, height: height)
        try source.picture(at: 0, into: texture)
        return texture
    }
}
