import MarbleCore

/// Decodes the image files MilkDrop presets name as textures (jpg, dds, png, tga, bmp). The MilkDrop
/// module reads no image format itself: the application injects a loader (the FFmpeg-backed one lives
/// with the media code).
///
/// Two steps, so that an image's size is checked (``ShaderTextureLimits``) before any memory is taken
/// for its pixels: ``size(ofImageAt:)`` reads only the header, then ``decode(imageAt:into:)`` fills a
/// texture of exactly that size.
package protocol ShaderImageLoader: Sendable {
    /// The image's width and height, from its header alone; throws when it is not a readable image.
    func size(ofImageAt path: String) throws -> (width: Int, height: Int)
    /// Decodes the image into `texture` (of the size ``size(ofImageAt:)`` gave; throws if the file now
    /// says otherwise) as RGBA8 with straight alpha (as a shader reads the file: not premultiplied),
    /// opaque where the format has no alpha.
    func decode(imageAt path: String, into texture: Texture) throws
}

/// Bounds on a disk texture, checked before its pixels are allocated.
package enum ShaderTextureLimits {
    /// Longest side in texels (MilkDrop's textures are at most 2048; Direct3D 9 cards stopped at 4096 or 8192).
    package static let side = 8192
    /// Most texels of one texture: 16 Mi (64 MiB of RGBA8).
    package static let texels = 1 << 24

    /// Throws unless `width` × `height` is a texture size this module accepts.
    package static func check(width: Int, height: Int, path: String) throws(ShaderTextureError) {
        guard width > 0 && height > 0 else {
            throw ShaderTextureError(path: path, message: "has no pixels (\(width) × \(height))")
        }
        guard width <= side && height <= side && width * height <= texels else {
            throw ShaderTextureError(path: path, message: "\(width) × \(height) texels: larger than the \(side) × \(side), \(texels)-texel limit")
        }
    }
}

/// A disk texture that could not be used, with the reason in one line.
package struct ShaderTextureError: Error, CustomStringConvertible, Sendable, Equatable {
    package var path: String
    package var message: String
    package init(path: String, message: String) { self.path = path; self.message = message }
    package var description: String { "\(path): \(message)" }
}
