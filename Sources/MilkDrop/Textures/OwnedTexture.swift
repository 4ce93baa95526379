import MarbleCore

/// A ``ShaderTexture`` with pixels of its own, 2-D or 3-D (a volume, read with `tex3D`: trilinear or
/// nearest across slices too): the noise textures, disk images, fallbacks. Filled once when it is
/// made and never changed after, so one texture can be shared by every preset and thread.
package final class OwnedTexture: ShaderTexture, @unchecked Sendable {
    // Safety of @unchecked Sendable: the pixels are written only inside `init`; afterwards they are
    // only read.
    package let width: Int
    package let height: Int
    package let depth: Int
    private let pixels: UnsafeMutablePointer<UInt32>
    private let grid: TexelGrid

    /// A texture of `width` × `height` × `depth` texels whose packed RGBA8 words (R in the low byte)
    /// `fill` writes, tightly packed: texel (x, y, z) at `(z × height + y) × width + x`. Sizes must be
    /// positive and already checked by the caller (see ``ShaderTextureLimits``).
    package init(width: Int, height: Int, depth: Int = 1, fill: (UnsafeMutableBufferPointer<UInt32>) -> Void) {
        precondition(width > 0 && height > 0 && depth > 0, "texture size must be positive")
        self.width = width; self.height = height; self.depth = depth
        let count = width * height * depth
        pixels = .allocate(capacity: count)
        pixels.initialize(repeating: 0, count: count)
        fill(UnsafeMutableBufferPointer(start: pixels, count: count))
        grid = TexelGrid(base: UnsafePointer(pixels), width: width, height: height, depth: depth,
                         rowStride: width, sliceStride: width * height)
    }

    /// A 2-D copy of `texture`'s pixels.
    package convenience init(copying texture: Texture) {
        let view = texture.view
        self.init(width: view.width, height: view.height) { out in
            for y in 0..<view.height {
                (out.baseAddress! + y * view.width).update(from: view.row32(y), count: view.width)
            }
        }
    }

    deinit { pixels.deallocate() }

    /// The packed RGBA8 word at (x, y, z): for tests and for generators that read what they made.
    package func texel(_ x: Int, _ y: Int, _ z: Int = 0) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height && z >= 0 && z < depth)
        return pixels[(z * height + y) * width + x]
    }

    package func sample(mode: SamplerMode, count: Int,
                        u: UnsafePointer<Float>, v: UnsafePointer<Float>, w: UnsafePointer<Float>?,
                        r: UnsafeMutablePointer<Float>?, g: UnsafeMutablePointer<Float>?,
                        b: UnsafeMutablePointer<Float>?, a: UnsafeMutablePointer<Float>?) {
        grid.sample(mode: mode, count: count, u: u, v: v, w: w, r: r, g: g, b: b, a: a)
    }
}
