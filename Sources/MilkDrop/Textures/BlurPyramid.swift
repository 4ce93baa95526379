import MarbleCore

/// MilkDrop 2's blur textures `blur1`, `blur2`, `blur3`, computed each frame from the feedback buffer
/// (after the warp, before the waves and shapes, as MilkDrop does) the way MilkDrop computes them.
///
/// Six render targets, each level a long horizontal pass into one and a short vertical pass into the
/// next (``BlurPass``): from a buffer of W × H, the first halves the size, the second halves it again
/// (blur1 is a quarter of the buffer each way), then blur2 is half of blur1 and blur3 half of blur2,
/// each at least 16 texels, widths rounded to a multiple of 16 and heights to a multiple of 4
/// (`(n + 3) / 16 × 16`, `(n + 3) / 4 × 4`: 1280 × 720 gives 320 × 180, 160 × 92, 80 × 48). Each level
/// reads the one before it. The horizontal pass blurs with 8 bilinear reads (weights 4, 3.8, 3.5, 2.9,
/// 1.9, 1.2, 0.7, 0.3 paired into 4 taps each side) and stores the level's range as
/// ``BlurRange/encode(level:)`` says; the vertical pass blurs with 4 reads (the same weights in pairs
/// of pairs) and, on level 1 only, darkens the edges by `blur1_edge_darken`. Only the levels the
/// preset's shaders use are computed (MilkDrop's rule too).
///
/// The three textures the shaders read are ``levels``: the same objects for the pyramid's life, so a
/// binder resolves them once; their pixels and size change in ``update(source:levels:range:edgeDarken:strips:)``.
/// After the first frame at a size, an update allocates nothing.
package final class BlurPyramid {
    /// `blur1`, `blur2`, `blur3` as shaders read them (black 16 × 16 until the first update).
    package let levels: [BorrowedTexture]
    /// The ranges the last update encoded with; ``decode(level:)`` is what `GetBlurN` needs.
    package private(set) var range = BlurRange.standard
    private var targets: [Texture]
    private let passes = (0..<6).map { _ in BlurPass() }
    private var configured = (width: 0, height: 0)

    /// MilkDrop's weights of the 8 texels on each side of the horizontal blur.
    static let weights: [Float] = [4.0, 3.8, 3.5, 2.9, 1.9, 1.2, 0.7, 0.3]

    package init() {
        targets = (0..<6).map { _ in Texture(width: 16, height: 16) }
        levels = [1, 3, 5].map { [targets] in BorrowedTexture(targets[$0].view, keeping: targets[$0]) }
    }

    /// `GetBlurN`'s scale and bias for level `level` (0…2): `read × scale + bias`.
    package func decode(level: Int) -> (scale: Float, bias: Float) { range.decode(level: level) }

    /// The sizes of the six render targets for a buffer of `width` × `height`: level n's horizontal
    /// pass draws into 2n − 2, its vertical pass into 2n − 1 (the texture shaders read).
    package static func sizes(width: Int, height: Int) -> [(width: Int, height: Int)] {
        var w = width, h = height
        return (0..<6).map { i in
            if i % 2 == 0 || i < 2 { w = max(16, w / 2); h = max(16, h / 2) }
            return ((w + 3) / 16 * 16, (h + 3) / 4 * 4)
        }
    }

    /// Computes levels 1…`count` (0…3) from `source`, the feedback buffer, with the preset's ranges and
    /// `blur1_edge_darken`, spreading each pass's rows over `strips` (nil: on this thread).
    package func update(source: TextureView, levels count: Int, range: BlurRange, edgeDarken: Float,
                        strips: (any StripRunner)?) {
        self.range = range
        let levelCount = min(max(count, 0), 3)
        guard levelCount > 0 else { return }
        if configured != (source.width, source.height) { configure(width: source.width, height: source.height) }
        let workers = max(strips?.threads ?? 1, 1)
        for (i, pass) in passes.enumerated() {
            pass.reserve(workers: workers, width: i == 0 ? source.width : targets[i - 1].width)
        }
        passes[0].source = BlurPyramid.grid(source)
        let darken = edgeDarken.isFinite ? edgeDarken : 0
        for i in 0..<(2 * levelCount) {
            let pass = passes[i]
            if i % 2 == 0 {
                let (scale, bias) = range.encode(level: i / 2)
                pass.scale = scale; pass.bias = bias * 255
            } else {
                pass.edgeDarken = i == 1 ? darken : 0
            }
            if let strips, strips.threads > 1 {
                strips.run(count: pass.target.height, pass)
            } else {
                pass.run(strip: 0..<pass.target.height, worker: 0)
            }
        }
    }

    /// New render targets and tap tables for a buffer of `width` × `height`.
    private func configure(width: Int, height: Int) {
        let sizes = BlurPyramid.sizes(width: width, height: height)
        targets = sizes.map { Texture(width: $0.width, height: $0.height) }
        for (n, level) in levels.enumerated() { level.update(targets[2 * n + 1].view, keeping: targets[2 * n + 1]) }
        let w = BlurPyramid.weights
        // The horizontal pass: 4 taps each side, d = 2k + the pair's balance, one texel's nudge right and down.
        let hWeights = [w[0] + w[1], w[2] + w[3], w[4] + w[5], w[6] + w[7]]
        let hOffsets = [0 + 2 * w[1] / hWeights[0], 2 + 2 * w[3] / hWeights[1],
                        4 + 2 * w[5] / hWeights[2], 6 + 2 * w[7] / hWeights[3]]
        let hDivide = 0.5 / hWeights.reduce(0, +)
        // The vertical pass: 2 taps each side, one texel's nudge right.
        let vWeights = [w[0] + w[1] + w[2] + w[3], w[4] + w[5] + w[6] + w[7]]
        let vOffsets = [0 + 2 * ((w[2] + w[3]) / vWeights[0]), 2 + 2 * ((w[6] + w[7]) / vWeights[1])]
        let vDivide = 1 / ((vWeights[0] + vWeights[1]) * 2)
        for (i, pass) in passes.enumerated() {
            let src = i == 0 ? (width: width, height: height) : sizes[i - 1]
            let dst = sizes[i]
            let sw = Float(src.width), sh = Float(src.height), dw = Float(dst.width), dh = Float(dst.height)
            pass.target = targets[i].view
            if i > 0 { pass.source = BlurPyramid.grid(targets[i - 1].view) }
            if i % 2 == 0 {
                pass.columns = BlurTaps(outputs: dst.width, size: src.width, centre: { Float($0) / dw + 1 / sw },
                                        offsets: hOffsets.flatMap { [$0 / sw, -$0 / sw] },
                                        weights: hWeights.flatMap { [$0 * hDivide, $0 * hDivide] })
                pass.rows = BlurTaps(outputs: dst.height, size: src.height, centre: { 1 - Float($0) / dh + 1 / sh },
                                     offsets: [0], weights: [1])
            } else {
                pass.columns = BlurTaps(outputs: dst.width, size: src.width, centre: { Float($0) / dw + 1 / sw },
                                        offsets: [0], weights: [1])
                pass.rows = BlurTaps(outputs: dst.height, size: src.height, centre: { 1 - Float($0) / dh },
                                     offsets: vOffsets.flatMap { [$0 / sh, -$0 / sh] },
                                     weights: vWeights.flatMap { [$0 * vDivide, $0 * vDivide] })
                pass.scale = 1; pass.bias = 0
            }
        }
        configured = (width, height)
    }

    private static func grid(_ view: TextureView) -> TexelGrid {
        TexelGrid(base: UnsafePointer(view.pixels.assumingMemoryBound(to: UInt32.self)), width: view.width,
                  height: view.height, depth: 1, rowStride: view.bytesPerRow / 4, sliceStride: 0)
    }
}
