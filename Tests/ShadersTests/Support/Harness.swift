import Foundation
import MarbleCore
@testable import Shaders

/// Small frames: tests run in debug builds.
let testWidth = 64, testHeight = 36

/// Synthetic audio for frame `n`: a moving spectrum, a sine-ish waveform, a beat every 8 frames.
/// `loudness` scales everything (0 gives silence).
func syntheticFeatures(frame n: Int, loudness: Float = 1, bandCount: Int = 64, waveformLength: Int = 256) -> AudioFeatures {
    var f = AudioFeatures(bandCount: bandCount, waveformLength: waveformLength)
    let t = Float(n) / 30
    f.time = Double(n) / 30
    for i in 0..<bandCount {
        f.bands[i] = loudness * (0.5 + 0.4 * Float(sin(Double(Float(i) * 0.37 + t * 2.1))))
        f.bandPeaks[i] = min(1, f.bands[i] + 0.08 * loudness)
    }
    for i in 0..<waveformLength {
        f.waveformLeft[i] = loudness * 0.7 * Float(sin(Double(Float(i) * 0.11 + t * 5)))
        f.waveformRight[i] = loudness * 0.5 * Float(cos(Double(Float(i) * 0.07 + t * 3)))
    }
    for i in 0..<12 { f.chroma[i] = loudness * Float(i % 3) / 2 }
    f.level = 0.6 * loudness; f.rms = 0.3 * loudness; f.peak = 0.8 * loudness
    f.rmsLeft = 0.35 * loudness; f.rmsRight = 0.25 * loudness; f.peakLeft = 0.8 * loudness; f.peakRight = 0.6 * loudness
    f.bass = 1.3 * loudness; f.mid = loudness; f.treble = 0.8 * loudness
    f.bassAttenuated = loudness; f.midAttenuated = loudness; f.trebleAttenuated = loudness
    f.beatPulse = loudness * Float(8 - n % 8) / 8; f.isBeat = n % 8 == 0 && loudness > 0
    f.beatPhase = Float(n % 8) / 8; f.onset = f.isBeat ? loudness : 0; f.tempo = loudness > 0 ? 120 : 0
    f.loudnessMomentary = loudness > 0 ? -14 : -120; f.loudnessShortTerm = f.loudnessMomentary
    return f
}

/// A deterministic opaque test picture: smooth gradients with a few hard edges.
func testPicture(width: Int = testWidth, height: Int = testHeight, seed: UInt32 = 1) -> Texture {
    let texture = Texture(width: width, height: height)
    for y in 0..<height {
        let row = texture.view.row32(y)
        for x in 0..<width {
            let r = UInt32(x * 255 / max(1, width - 1))
            let g = UInt32(y * 255 / max(1, height - 1))
            let b: UInt32 = ((x / 8 + y / 8) % 2 == 0) ? 40 : 200
            let noise = (UInt32(truncatingIfNeeded: x &* 73856093 ^ y &* 19349663) &* seed) >> 28
            row[x] = (r ^ noise) | g << 8 | b << 16 | 0xFF00_0000
        }
    }
    return texture
}

func uniforms(frame n: Int, features: AudioFeatures, input: TextureView? = nil,
              width: Int = testWidth, height: Int = testHeight) -> FrameUniforms {
    FrameUniforms(time: Double(n) / 30, frameIndex: n, fps: Rational(30), width: width, height: height,
                  features: features, input: input, song: harnessSong)
}

/// The song every library test draws: no tags, no length, no cover (layers draw as without a song),
/// only lyrics, so that the `lyrics` layer has a line to show on every frame the tests draw (the
/// second word half sung at frame 30).
let harnessSong = SongInfo(lyrics: Lyrics(lines: [
    Lyrics.Line(start: 0, end: 2000, text: "Sing along", words: [Lyrics.Word(scalars: 0..<5, start: 0, end: 800),
                                                               Lyrics.Word(scalars: 5..<10, start: 800, end: 1200)]),
    Lyrics.Line(start: 2000, end: Lyrics.open, text: "la la", words: []),
]))

/// A shader instance with its parameters, rendered the way the pipeline does: configure, then per
/// frame prepare once and render strips.
struct Rig {
    let shader: any Shader
    let parameters: ShaderParameters
    let width: Int, height: Int
    let target: Texture
    let source: Texture

    init(_ name: String, _ values: [String: ParameterValue] = [:], width: Int = testWidth, height: Int = testHeight,
         source: Texture? = nil) throws {
        guard let type = ShaderLibrary.shader(named: name) else {
            throw ParameterError(shader: name, parameter: "name", message: "no such shader")
        }
        parameters = try ShaderParameters(descriptor: type.descriptor, values: values)
        shader = try type.init(parameters: parameters)
        self.width = width; self.height = height
        shader.configure(width: width, height: height)
        target = Texture(width: width, height: height)
        self.source = source ?? testPicture(width: width, height: height)
    }

    /// Renders one frame in `strips` equal-ish strips and returns the packed bytes.
    ///
    /// The target is dirtied first: a kernel must write every pixel of its rows. A `drawsOnCanvas`
    /// generator instead blends onto the picture under it, so it starts from transparent (`under`), and
    /// only its covered rows are rendered, as the compositor does.
    func render(_ u: FrameUniforms, strips: Int = 1, dirt: RGBA8 = RGBA8(r: 1, g: 2, b: 3, a: 4),
                under: RGBA8 = RGBA8(r: 0, g: 0, b: 0, a: 0)) -> [UInt8] {
        shader.prepare(u, parameters: parameters)
        let onCanvas = type(of: shader).descriptor.drawsOnCanvas
        target.fill(onCanvas ? under : dirt)
        let covered = shader.coveredRows(height: height).clamped(to: 0..<height)
        for s in 0..<strips {
            let lo = height * s / strips, hi = height * (s + 1) / strips
            guard !onCanvas || !covered.isEmpty else { continue }
            let rows = onCanvas ? (lo..<hi).clamped(to: covered) : lo..<hi
            shader.render(target.view, source: source.view, rows: rows, uniforms: u)
        }
        return target.packedBytes()
    }

    /// The frame drawn over an opaque picture (for `drawsOnCanvas` generators).
    func render(frame n: Int, over picture: RGBA8) -> [UInt8] {
        render(uniforms(frame: n, features: syntheticFeatures(frame: n, loudness: 1), input: nil,
                        width: width, height: height), under: picture)
    }

    func render(frame n: Int, loudness: Float = 1, strips: Int = 1, input: TextureView? = nil,
                dirt: RGBA8 = RGBA8(r: 1, g: 2, b: 3, a: 4)) -> [UInt8] {
        render(uniforms(frame: n, features: syntheticFeatures(frame: n, loudness: loudness), input: input,
                        width: width, height: height), strips: strips, dirt: dirt)
    }
}

/// Largest per-channel difference and where, or nil when the images have different sizes.
func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> (difference: Int, index: Int)? {
    guard a.count == b.count else { return nil }
    var worst = (difference: 0, index: 0)
    for i in 0..<a.count {
        let d = abs(Int(a[i]) - Int(b[i]))
        if d > worst.difference { worst = (d, i) }
    }
    return worst
}

/// Describes a difference for a failing expectation.
func describeDifference(_ a: [UInt8], _ b: [UInt8], width: Int) -> String {
    guard let (d, i) = maxDifference(a, b) else { return "sizes differ: \(a.count) vs \(b.count)" }
    let pixel = i / 4
    return "max difference \(d) at x \(pixel % width), y \(pixel / width), channel \(i % 4): \(a[i]) vs \(b[i])"
}

/// True when every pixel is valid premultiplied RGBA (each colour channel ≤ alpha).
func isPremultiplied(_ bytes: [UInt8]) -> Bool {
    for i in stride(from: 0, to: bytes.count, by: 4) {
        let alpha: UInt8 = bytes[i + 3]
        if bytes[i] > alpha || bytes[i + 1] > alpha || bytes[i + 2] > alpha { return false }
    }
    return true
}

/// Sum of all channels: a cheap "how much is drawn" measure.
func brightness(_ bytes: [UInt8]) -> Int { bytes.reduce(0) { $0 + Int($1) } }
