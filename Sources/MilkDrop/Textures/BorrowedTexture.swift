import MarbleCore

/// A ``ShaderTexture`` over pixels someone else owns: the feedback buffer (`main`) or a blur level,
/// read in place with no copy. The owner points it at the frame's pixels with ``update(_:)`` before
/// the shaders run and keeps them alive and unchanged while they sample.
package final class BorrowedTexture: ShaderTexture, @unchecked Sendable {
    // Safety of @unchecked Sendable: `grid` changes only in `update`, which the renderer calls between
    // frames, never while a shader samples; sampling only reads.
    private var grid: TexelGrid

    /// A texture that reads `view` (which must stay valid until the next ``update(_:)``).
    package init(_ view: TextureView) {
        grid = BorrowedTexture.grid(view)
    }

    /// Reads `view` from now on (the new frame's buffer; its size may differ from the last).
    package func update(_ view: TextureView) {
        grid = BorrowedTexture.grid(view)
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
