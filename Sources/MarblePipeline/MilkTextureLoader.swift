import MarbleCore
import MarbleMedia
import MilkDrop
import Shaders

/// MilkDrop's disk textures decoded by FFmpeg (the MilkDrop module reads no image format itself, and
/// the layers below the pipeline link no media library): the loader the `milkdrop` layer and the
/// preset survey use, installed by the frame renderer before it makes a scene.
package struct MilkTextureLoader: ShaderImageLoader {
    package init() {}

    package func size(ofImageAt path: String) throws -> (width: Int, height: Int) {
        try StillImage.size(path: path)
    }

    package func decode(imageAt path: String, into texture: Texture) throws {
        try StillImage.decode(path: path, into: texture)
    }

    /// Hands the loader to the `milkdrop` layer (once: touch it before making a compositor).
    package static let installed: Void = {
        MilkDropLayer.imageLoader.withLock { $0 = MilkTextureLoader() }
    }()
}
