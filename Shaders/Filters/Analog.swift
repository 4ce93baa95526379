/// Analog: film look — brightness, contrast, saturation and film grain over the picture.
///
/// Audio: grain strength × (1 + `react` · level), so loud passages get grainier. Grain is a fixed
/// function of (x, y, frame index): two reads from the noise table at offsets hashed from the frame
/// index (a triangular distribution, and no visible 256-pixel tiling), so frames repeat exactly.
/// Works on premultiplied colour (contrast pivots around half the pixel's alpha; results stay ≤ alpha).
/// Versus Marble's Metal original: grain came from wall-clock time (never repeatable) and the picture
/// was treated as opaque.
import MarbleCore

public final class Analog: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads per-frame values.
    public static let descriptor = ShaderDescriptor(
        name: "analog", summary: "Film grain with brightness, contrast and saturation.", kind: .filter,
        parameters: [
            ParameterDescriptor("brightness", "Added light, −1…1.", .number(default: 0, range: -1...1)),
            ParameterDescriptor("contrast", "Contrast around mid-grey (1 unchanged).", .number(default: 1.1, range: 0...3)),
            ParameterDescriptor("saturation", "Colour intensity (0 grey, 1 unchanged).", .number(default: 0.85, range: 0...3)),
            ParameterDescriptor("grain", "Film grain strength.", .number(default: 0.12, range: 0...1)),
            ParameterDescriptor("react", "Extra grain with loudness (× level).", .number(default: 1, range: 0...4)),
        ])

    private var brightness: Float = 0, contrast: Float = 1, saturation: Float = 1, grain: Float = 0
    private var offsetA = 0, offsetB = 0

    public init(parameters: ShaderParameters) throws {}

    public func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        brightness = parameters.number("brightness")
        contrast = parameters.number("contrast")
        saturation = parameters.number("saturation")
        let drive = AudioDrive(uniforms.features)
        grain = parameters.number("grain") * (1 + parameters.number("react") * drive.level)
        let h = Noise.hash(UInt32(truncatingIfNeeded: uniforms.frameIndex) &+ 0x9E37_79B9)
        offsetA = Int(h & 0xFFFF); offsetB = Int(h >> 16)
    }

    public func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let width = min(target.width, source.width)
        let table = Noise.table
        let b = brightness, c = contrast, s = saturation, g = grain
        let inv: Float = 1.0 / 255
        for y in rows {
            let dst = target.row32(y)
            guard y < source.height else { fillPixels(dst, target.width, 0); continue }
            let src = source.row32(y)
            let rowA = table + ((y &+ offsetA >> 8) & 255) << 8
            let rowB = table + ((y &+ offsetB) & 255) << 8
            for x in 0..<width {
                let p = src[x]
                let a = Float(p >> 24) * inv
                var r = Float(p & 0xFF) * inv, gr = Float((p >> 8) & 0xFF) * inv, bl = Float((p >> 16) & 0xFF) * inv
                let pivot = 0.5 * a
                r = (r - pivot) * c + pivot + b * a
                gr = (gr - pivot) * c + pivot + b * a
                bl = (bl - pivot) * c + pivot + b * a
                let l = 0.299 * r + 0.587 * gr + 0.114 * bl
                let n = (rowA[(x &+ offsetA) & 255] + rowB[(x &* 3 &+ offsetB) & 255] - 1) * g * a
                r = l + (r - l) * s + n
                gr = l + (gr - l) * s + n
                bl = l + (bl - l) * s + n
                dst[x] = byte(min(r, a)) | byte(min(gr, a)) << 8 | byte(min(bl, a)) << 16 | (p & 0xFF00_0000)
            }
            if width < target.width { fillPixels(dst + width, target.width - width, 0) }
        }
    }
}
