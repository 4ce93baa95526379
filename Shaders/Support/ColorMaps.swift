/// Colour maps for intensity pictures (spectrograms, sonograms): 0 (silence) → 1 (loudest), as a
/// 1024-entry table of opaque packed pixels made once, looked up per pixel.
///
/// magma, inferno, viridis and plasma follow the perceptually uniform maps of matplotlib (nine
/// anchor colours each, read off the published maps at 0, 1/8, …, 1); the others are in the spirit of
/// FFmpeg showspectrum's colour modes: `intensity` (black, blue, magenta, red, orange, white),
/// `rainbow` (violet to red over black), `fire`, `cool` (blue-cyan ice) and `gray`.
/// Anchors are blended in linear light, so the steps between them do not darken.
enum ColorMap: String, CaseIterable, Sendable {
    case magma, inferno, viridis, plasma, intensity, rainbow, fire, cool, gray

    /// Entries in a table.
    static let size = 1024

    /// The names, for a parameter's choices.
    static var names: [String] { allCases.map(\.rawValue) }

    /// Anchor colours, evenly spaced from 0 to 1, as 0xRRGGBB.
    private var anchors: [UInt32] {
        switch self {
        case .magma: [0x000004, 0x1c1044, 0x4f127b, 0x812581, 0xb5367a, 0xe55064, 0xfb8761, 0xfec287, 0xfcfdbf]
        case .inferno: [0x000004, 0x1f0c48, 0x550f6d, 0x88226a, 0xba3655, 0xe35933, 0xf98e09, 0xf9cb35, 0xfcffa4]
        case .viridis: [0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c, 0x28ae80, 0x5ec962, 0xaddc30, 0xfde725]
        case .plasma: [0x0d0887, 0x4c02a1, 0x7e03a8, 0xa92395, 0xcc4778, 0xe56b5d, 0xf89540, 0xfdc527, 0xf0f921]
        case .intensity: [0x000000, 0x0c0a3c, 0x2a1a9a, 0x7a1ea8, 0xc8207a, 0xf04030, 0xff8c1a, 0xffd460, 0xffffff]
        case .rainbow: [0x000000, 0x30005c, 0x3a1bd6, 0x0090ff, 0x00d8c0, 0x40e040, 0xf0e020, 0xff7a10, 0xff1a1a]
        case .fire: [0x000000, 0x2a0000, 0x660000, 0xa80c00, 0xe03a00, 0xff7400, 0xffb020, 0xffe070, 0xffffff]
        case .cool: [0x000000, 0x041a33, 0x06345e, 0x075a8c, 0x0a86b0, 0x1fb0cc, 0x5cd4e0, 0xa8ecf2, 0xeefcff]
        case .gray: [0x000000, 0xffffff]
        }
    }

    /// Writes the ``size``-entry table (opaque, packed RGBA8, R in the low byte) to `table`.
    func fill(_ table: UnsafeMutablePointer<UInt32>) {
        let a = anchors
        @inline(__always) func linear(_ c: UInt32, _ shift: UInt32) -> Float {
            let v = Float((c >> shift) & 0xFF) / 255
            return v * v   // gamma 2 is close enough to sRGB for blending anchors
        }
        for i in 0..<Self.size {
            let p = Float(i) / Float(Self.size - 1) * Float(a.count - 1)
            let j = min(a.count - 2, Int(p))
            let t = p - Float(j)
            var rgb: (Float, Float, Float) = (0, 0, 0)
            rgb.0 = mix(linear(a[j], 16), linear(a[j + 1], 16), t).squareRoot()
            rgb.1 = mix(linear(a[j], 8), linear(a[j + 1], 8), t).squareRoot()
            rgb.2 = mix(linear(a[j], 0), linear(a[j + 1], 0), t).squareRoot()
            table[i] = packOpaque(rgb.0, rgb.1, rgb.2)
        }
    }
}
