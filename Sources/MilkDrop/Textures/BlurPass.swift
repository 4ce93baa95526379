import MarbleCore

/// One pass of MilkDrop 2's blur, drawn the way Direct3D 9 draws it: a full-screen quad whose
/// texture coordinate at destination pixel (i, j) is (i / width, 1 − j / height) — pixel centres
/// on whole coordinates, so the reads fall between source texels, and v upside down, so each pass
/// flips the picture and a level (two passes) comes out upright — plus MilkDrop's nudge of one
/// source texel, then a fixed set of bilinear, clamped reads around it, weighted.
///
/// Every tap of a pass lies on one row (horizontal pass) or one column (vertical pass) of bilinear
/// reads, so a destination pixel is a separable sum over source texels: the table ``BlurTaps`` lists
/// for each destination column the source columns and their weights, and for each destination row the
/// source rows. A strip of destination rows first sums its rows' source rows into a scratch line, then
/// sums along that line; then applies scale and bias (the horizontal pass's encoding of the level's
/// range), darkens the edges (only the first vertical pass), clamps to 0…1 and rounds to 8 bits, as
/// the render target does. Rows are independent: strips may run concurrently.
final class BlurPass: StripTask, @unchecked Sendable {
    // Safety of @unchecked Sendable: every field is set by the pyramid before `run` and only read by
    // strips, which write disjoint rows of `target` and use the scratch line of their own worker.
    var source = TexelGrid(base: UnsafePointer(bitPattern: 64)!, width: 1, height: 1, depth: 1, rowStride: 1, sliceStride: 0)
    var target = TextureView(pixels: UnsafeMutableRawPointer(bitPattern: 64)!, width: 1, height: 1, bytesPerRow: 4)
    var columns = BlurTaps(), rows = BlurTaps()
    /// Applied to each sum (in 0…255 units) before it is stored: `sum × scale + bias`.
    var scale: Float = 1, bias: Float = 0
    /// MilkDrop's `blur1_edge_darken` for the first vertical pass; 0 elsewhere.
    var edgeDarken: Float = 0
    /// One line of `source.width` sums per worker thread.
    private var scratch: UnsafeMutablePointer<SIMD4<Float>>?
    private var scratchWorkers = 0, scratchWidth = 0

    deinit { scratch?.deallocate() }

    /// Makes room for `workers` threads reading sources up to `width` texels wide (allocates only when
    /// either grows).
    func reserve(workers: Int, width: Int) {
        guard workers > scratchWorkers || width > scratchWidth else { return }
        scratch?.deallocate()
        scratchWorkers = Swift.max(workers, scratchWorkers); scratchWidth = Swift.max(width, scratchWidth)
        scratch = .allocate(capacity: scratchWorkers * scratchWidth)
    }

    func run(strip: Range<Int>, worker: Int) {
        guard let scratch, worker < scratchWorkers else { return }
        let line = scratch + worker * scratchWidth
        let src = source, width = target.width, height = target.height
        let scale = self.scale, bias = self.bias, darken = edgeDarken
        columns.withTables { colIndex, colWeight, colCount in
        rows.withTables { rowIndex, rowWeight, rowCount in
            for j in strip {
                // Down: this row's source rows, summed into the line (the first one stored, not added).
                var first = true
                for k in 0..<rowCount {
                    let weight = rowWeight[j &* rowCount &+ k]
                    guard weight != 0 else { continue }
                    let texels = src.base + Int(rowIndex[j &* rowCount &+ k]) &* src.rowStride
                    if first {
                        for x in 0..<src.width { line[x] = BlurPass.unpack(texels[x]) * weight }
                        first = false
                    } else {
                        for x in 0..<src.width { line[x] += BlurPass.unpack(texels[x]) * weight }
                    }
                }
                if first { line.update(repeating: .zero, count: src.width) }
                // Across, then the pass's finish.
                let out = target.row32(j)
                let v = 1 - Float(j) / Float(height)
                for i in 0..<width {
                    var sum = SIMD4<Float>.zero
                    let taps = i &* colCount
                    for k in 0..<colCount {
                        sum += line[Int(colIndex[taps &+ k])] * colWeight[taps &+ k]
                    }
                    sum = sum * scale + SIMD4(repeating: bias)
                    if darken != 0 {
                        sum *= BlurPass.edgeFactor(u: Float(i) / Float(width), v: v, darken: darken)
                    }
                    out[i] = BlurPass.pack(sum)
                }
            }
        }
        }
    }

    /// MilkDrop's edge darkening at quad coordinate (u, v): 1 − darken at the border, rising to 1 over
    /// the outer 4 % (the square root of the distance to the nearest edge, times 5, saturated).
    @inline(__always)
    static func edgeFactor(u: Float, v: Float, darken: Float) -> Float {
        let distance = Swift.min(Swift.min(u, v), 1 - Swift.max(u, v))
        let t = Swift.max(distance, 0).squareRoot() * 5
        return (1 - darken) + darken * (t < 1 ? t : 1)
    }

    /// A texel's red, green and blue as 0…255 floats (alpha is not blurred).
    @inline(__always)
    static func unpack(_ p: UInt32) -> SIMD4<Float> {
        SIMD4(Float(Int32(bitPattern: p & 0xFF)), Float(Int32(bitPattern: (p >> 8) & 0xFF)),
              Float(Int32(bitPattern: (p >> 16) & 0xFF)), 0)
    }

    /// Sums in 0…255 units clamped and rounded to an opaque texel.
    @inline(__always)
    static func pack(_ s: SIMD4<Float>) -> UInt32 {
        @inline(__always) func byte(_ c: Float) -> UInt32 {
            let clamped: Float = c > 0 ? (c < 255 ? c : 255) : 0   // NaN → 0
            return UInt32(truncatingIfNeeded: Int32(clamped + 0.5))
        }
        return byte(s[0]) | byte(s[1]) << 8 | byte(s[2]) << 16 | 0xFF00_0000
    }
}

/// For each destination column (or row) of a blur pass, the source columns (rows) its bilinear taps
/// read and their weights: `count` entries each, zero-weight padding where a pass has fewer.
struct BlurTaps {
    private(set) var count = 0
    private var index: [Int32] = []
    private var weight: [Float] = []

    init() {}

    /// The taps for `outputs` destinations over a source axis of `size` texels: destination `o` reads
    /// at texture coordinates `centre(o) + offsets[k]` with weight `weights[k]`, each a bilinear,
    /// clamped read of 8-bit fraction, as ``TexelGrid`` does.
    init(outputs: Int, size: Int, centre: (Int) -> Float, offsets: [Float], weights: [Float]) {
        count = offsets.count * 2
        index = [Int32](repeating: 0, count: outputs * count)
        weight = [Float](repeating: 0, count: outputs * count)
        let axis = SampleAxis(size: size)
        for o in 0..<outputs {
            let c = centre(o)
            for (k, offset) in offsets.enumerated() {
                let (i0, i1, f) = ClampEdge.linear(c + offset, axis)
                let second = Float(f) / 256
                let slot = o * count + 2 * k
                index[slot] = Int32(i0); weight[slot] = weights[k] * (1 - second)
                index[slot + 1] = Int32(i1); weight[slot + 1] = weights[k] * second
            }
        }
    }

    /// The source texels and weights of destination `output` (for tests).
    func entries(_ output: Int) -> [(index: Int, weight: Float)] {
        (0..<count).map { (Int(index[output * count + $0]), weight[output * count + $0]) }
    }

    /// Calls `body` with the indices, the weights and `count` (not at all for an empty table).
    func withTables(_ body: (UnsafePointer<Int32>, UnsafePointer<Float>, Int) -> Void) {
        guard count > 0 else { return }
        index.withUnsafeBufferPointer { i in
            weight.withUnsafeBufferPointer { w in body(i.baseAddress!, w.baseAddress!, count) }
        }
    }
}
