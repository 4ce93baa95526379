/// An RGBA8 image with premultiplied alpha, rows `bytesPerRow` apart, in memory aligned for SIMD.
///
/// Textures are allocated once (from a pool or in `configure`) and reused for every frame. The class owns
/// its memory; kernels see it through ``TextureView``.
public final class Texture: @unchecked Sendable {
    // Safety of @unchecked Sendable: the pointer never changes after init; concurrent access goes through
    // TextureView, whose rule is that concurrent writers touch disjoint row ranges.
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Distance between rows in bytes: `width × 4` rounded up to ``alignment``.
    public let bytesPerRow: Int
    /// The first row; 4 bytes a pixel (R, G, B, A), premultiplied.
    public let pixels: UnsafeMutableRawPointer

    /// Row alignment in bytes: one AVX-512 register, and what FFmpeg's SIMD code likes.
    public static let alignment = 64

    /// A transparent black texture. `width` and `height` must be positive.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "texture size must be positive")
        self.width = width
        self.height = height
        let row = width * 4
        self.bytesPerRow = (row + Texture.alignment - 1) / Texture.alignment * Texture.alignment
        self.pixels = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * height, alignment: Texture.alignment)
        self.pixels.initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerRow * height)
    }

    deinit { pixels.deallocate() }

    /// A view of the whole texture, for kernels.
    public var view: TextureView { TextureView(pixels: pixels, width: width, height: height, bytesPerRow: bytesPerRow) }

    /// Fills every pixel with one premultiplied colour.
    public func fill(_ color: RGBA8) {
        let word = color.packed
        for y in 0..<height {
            let row = (pixels + y * bytesPerRow).assumingMemoryBound(to: UInt32.self)
            row.update(repeating: word, count: width)
        }
    }

    /// Copies the visible pixels (not the row padding) into a tightly packed array: for tests and PNGs.
    public func packedBytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBytes { dst in
            for y in 0..<height {
                (dst.baseAddress! + y * width * 4).copyMemory(from: pixels + y * bytesPerRow, byteCount: width * 4)
            }
        }
        return out
    }
}

/// A borrowed window on texture memory, handed to kernels.
///
/// `@unchecked Sendable` rule: a view may be shared across threads only when each thread writes a
/// disjoint range of rows (the strip scheduler guarantees this) and reads only rows nobody writes
/// during that pass.
public struct TextureView: @unchecked Sendable {
    /// Row 0 of the picture (for a window, possibly outside the buffer: use ``row(_:)``).
    public let pixels: UnsafeMutableRawPointer
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Distance between rows in bytes.
    public let bytesPerRow: Int

    /// A view of memory the caller owns and keeps alive while the view is used.
    public init(pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
    }

    /// A window that answers for rows `rows` of a picture `height` rows tall, backed by `buffer` (at
    /// least `rows.count` rows of the same width): `row(y)` for y in `rows` is row `y − rows.lowerBound`
    /// of the buffer. The compositor draws a band of a frame into a cache-sized scratch this way, with
    /// kernels still seeing the frame's coordinates. Rows outside `rows` must never be touched (the rule
    /// kernels already follow: they only write, and read, the rows they are given).
    public init(window buffer: TextureView, rows: Range<Int>, height: Int) {
        precondition(rows.count <= buffer.height && buffer.width > 0)
        let origin = UInt(bitPattern: buffer.pixels) &- UInt(rows.lowerBound &* buffer.bytesPerRow)
        self.init(pixels: UnsafeMutableRawPointer(bitPattern: origin)!, width: buffer.width, height: height,
                  bytesPerRow: buffer.bytesPerRow)
    }

    /// Start of row `y` as bytes (R, G, B, A, R, …).
    @inlinable public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        (pixels + y &* bytesPerRow).assumingMemoryBound(to: UInt8.self)
    }

    /// Start of row `y` as packed 32-bit pixels (little-endian: R in the low byte).
    @inlinable public func row32(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (pixels + y &* bytesPerRow).assumingMemoryBound(to: UInt32.self)
    }
}

/// One premultiplied RGBA8 colour.
public struct RGBA8: Sendable, Hashable, CustomStringConvertible {
    /// Red, green, blue and alpha, 0…255.
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    /// A pixel from its bytes (opaque by default).
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) { self.r = r; self.g = g; self.b = b; self.a = a }

    /// Little-endian packed form matching the texture's byte order.
    @inlinable public var packed: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }
    /// `rgba(r,g,b,a)` with decimal bytes.
    public var description: String {
        "rgba(\(r),\(g),\(b),\(a))"
    }
}
