import MarbleCore

/// A ``ShaderTexture`` over pixels someone else owns: the feedback buffer (`main`) or a blur level,
/// read in place with no copy. The owner points it at the frame's pixels with ``update(_:keeping:)``
/// before the shaders run and keeps them unchanged while they sample; passing the object that owns
/// the memory (a `Texture`) as `keeping` keeps it alive as long as this texture reads it.
package final class BorrowedTexture: ShaderTexture, @unchecked Sendable {
    // Safety of @unchecked Sendable: `grid` changes only in `update`, which the renderer calls between
    // frames, never while a shader samples; sampling only reads.
    private var grid: TexelGrid
    private var owner: AnyObject?

    /// A texture that reads `view`, whose memory `owner` holds (nil: the caller keeps it valid until
    /// the next update).
    package init(_ view: TextureView, keeping owner: AnyObject? = nil) {
        grid = BorrowedTexture.grid(view)
        self.owner = owner
    }

    /// Reads `view` from now on (the new frame's buffer; its size may differ from the last).
    package func update(_ view: TextureView, keeping owner: AnyObject? = nil) {
        grid = BorrowedTexture.grid(view)
        self.owner = owner
    }

    package var width: Int { grid.width }
    package var height: Int { grid.height }
    package var depth: Int { 1 }

    package func sample(mode: SamplerMode, count: Int,
                        u: UnsafePointer<Float>, v: UnsafePointer<Float>, w: UnsafePointer<Float>?,
                        r: UnsafeMutablePointer<Float>?, g: UnsafeMutablePointer<Float>?,
                        b: UnsafeMutablePointer<Float>?, a: UnsafeMutablePointer<Float>?) {
        grid.sample(mode: mode, count: count, u: u, v: v, w: w, r: r, g: g, b: b, a: a)
    }

    private static func grid(_ view: TextureView) -> TexelGrid {
        precondition(view.width > 0 && view.height > 0 && view.bytesPerRow % 4 == 0, "a texture view needs pixels")
        return TexelGrid(base: UnsafePointer(view.pixels.assumingMemoryBound(to: UInt32.self)),
                         width: view.width, height: view.height, depth: 1,
                         rowStride: view.bytesPerRow / 4, sliceStride: 0)
    }
}
