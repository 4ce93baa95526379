import MarbleCore
@testable import MarbleRender
import Shaders
import Testing

/// A scene sent only to the encoder: the first layer's rows of one colour (`Shader.uniformRow`), where no
/// layer above it draws, go straight to YUV. They must give the bytes of drawing and converting them.
@Suite("Compositor: rows of one colour go straight to YUV")
struct UniformRowTests {
    static let width = 64, height = 200

    /// A background that draws row y as (y, 0, 255 − y) but claims (0, y, 128): where the compositor takes
    /// the claim instead of drawing, the YUV shows it.
    final class Claimed: Shader, @unchecked Sendable {
        static let descriptor = ShaderDescriptor(name: "test_claimed_rows", summary: "Rows that say another colour.",
                                                 kind: .generator, isOpaque: true, parameters: [])
        init(parameters: ShaderParameters) throws {}
        func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {}
        func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
            for y in rows { target.row32(y).update(repeating: Self.drawn(y), count: target.width) }
        }
        func uniformRow(_ y: Int) -> UInt32? { Self.claimed(y) }
        static func drawn(_ y: Int) -> UInt32 { RGBA8(r: UInt8(y & 0xFF), g: 0, b: UInt8(255 - y & 0xFF)).packed }
        static func claimed(_ y: Int) -> UInt32 { RGBA8(r: 0, g: UInt8(y & 0xFF), b: 128).packed }
    }

    /// White over rows 61..<99 only (odd bounds: the pairs they touch, 60..<100, are drawn).
    final class Stripe: Shader, @unchecked Sendable {
        static let descriptor = ShaderDescriptor(name: "test_stripe", summary: "A white stripe.", kind: .generator,
                                                 drawsOnCanvas: true, parameters: [])
        init(parameters: ShaderParameters) throws {}
        func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {}
        func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
            for y in rows.clamped(to: 61..<99) { target.row32(y).update(repeating: 0xFFFF_FFFF, count: target.width) }
        }
        func coveredRows(height: Int) -> Range<Int> { 61..<99 }
    }

    /// Registered once for every test of the suite (tests run in parallel; a second registration throws).
    static let registered: Bool = {
        for type in [Claimed.self, Stripe.self] as [any Shader.Type] where ShaderLibrary.shader(named: type.descriptor.name) == nil {
            try? ShaderRegistry.register(type)
        }
        return ShaderLibrary.shader(named: Claimed.descriptor.name) != nil && ShaderLibrary.shader(named: Stripe.descriptor.name) != nil
    }()

    static func register() { #expect(registered) }

    static func uniforms(frame: Int) -> FrameUniforms {
        var f = AudioFeatures(bandCount: 16, waveformLength: 256)
        for i in f.bands.indices { f.bands[i] = Float((i * 5 + frame) % 16) / 16; f.bandPeaks[i] = min(1, f.bands[i] + 0.2) }
        for i in f.waveformLeft.indices { f.waveformLeft[i] = 0.5 * Float((i + frame) % 20) / 20; f.waveformRight[i] = f.waveformLeft[i] }
        f.level = 0.4
        return FrameUniforms(time: Double(frame) / 30, frameIndex: frame, fps: Rational(30), width: width, height: height, features: f)
    }

    typealias Planes = CompositorTests.Planes

    static func planes() -> Planes { Planes(width: width, height: height) }

    /// How many bytes differ (a failure names a count, not two frames of bytes).
    static func differing(_ a: Planes, _ b: Planes) -> Int { zip(a.bytes, b.bytes).filter { $0 != $1 }.count }

    /// The frame sent only to the encoder, and the same frame drawn on a canvas and converted whole.
    static func both(_ preset: Preset, threads: Int, frame: Int) throws -> (encoderOnly: Planes, converted: Planes) {
        let fused = try Compositor(preset: preset, width: width, height: height, threads: threads)
        let reference = try Compositor(preset: preset, width: width, height: height, threads: 1)
        #expect(fused.isBanded)
        let u = uniforms(frame: frame)
        let planes = Self.planes()
        planes.with { fused.render(u, into: nil, convertingInto: $0) }
        let canvas = Texture(width: width, height: height)
        reference.render(u, into: canvas)
        let converted = Self.planes()
        converted.with { YUVConverter.convert(canvas.view, into: $0, pairs: 0..<(height / 2)) }
        return (planes, converted)
    }

    @Test("the pairs no layer above draws take the first layer's claimed colours; the pairs it touches are drawn",
          arguments: [1, 2, 3])
    func claimedRowsOutsideTheHull(threads: Int) throws {
        Self.register()
        let preset = Preset(name: "t", layers: [LayerSpec(shader: "test_claimed_rows"), LayerSpec(shader: "test_stripe")])
        let (encoderOnly, converted) = try Self.both(preset, threads: threads, frame: 0)
        let expected = Self.planes()
        expected.bytes = converted.bytes
        expected.with { p in
            for pair in 0..<(Self.height / 2) where !(30..<50).contains(pair) {
                YUVConverter.fillRows(Claimed.claimed(2 * pair), Claimed.claimed(2 * pair + 1), into: p, pair: pair, width: Self.width)
            }
        }
        #expect(Self.differing(encoderOnly, expected) == 0)
        #expect(Self.differing(encoderOnly, converted) > 0, "the claim differs from the drawing, so the shortcut shows")
    }

    @Test("a first layer alone: every pair from its claimed colours", arguments: [1, 2])
    func firstLayerAlone(threads: Int) throws {
        Self.register()
        let (encoderOnly, _) = try Self.both(Preset(name: "t", layers: [LayerSpec(shader: "test_claimed_rows")]), threads: threads, frame: 0)
        let expected = Self.planes()
        expected.with { p in
            for pair in 0..<(Self.height / 2) {
                YUVConverter.fillRows(Claimed.claimed(2 * pair), Claimed.claimed(2 * pair + 1), into: p, pair: pair, width: Self.width)
            }
        }
        #expect(Self.differing(encoderOnly, expected) == 0)
    }

    /// Black to orange down 200 rows: every row a different colour, so every pair mixes two (a grey
    /// gradient would not do: its chroma is 128 whatever the rounding).
    @Test("a vertical gradient under bars and a waveform: the same bytes as drawing and converting every row",
          arguments: [90.0, 270.0, 80.0], [1, 2])
    func gradientRowsAreExact(angle: Double, threads: Int) throws {
        let preset = Preset(name: "t", layers: [
            LayerSpec(shader: "gradient", parameters: ["from": .text("#000000"), "to": .text("#ff8000"), "angle": .number(angle)]),
            LayerSpec(shader: "bars", parameters: ["height": .number(0.3)]),
            LayerSpec(shader: "waveform", blend: .add, parameters: ["height": .number(0.1)]),
        ])
        for frame in 0..<3 {
            let (encoderOnly, converted) = try Self.both(preset, threads: threads, frame: frame)
            #expect(Self.differing(encoderOnly, converted) == 0, "angle \(angle) frame \(frame)")
        }
    }

    @Test("a gradient's rows are one colour exactly when it is linear and vertical")
    func gradientClaims() throws {
        func claims(_ parameters: [String: ParameterValue]) throws -> UInt32? {
            let compositor = try Compositor(preset: Preset(name: "t", layers: [LayerSpec(shader: "gradient", parameters: parameters)]),
                                            width: Self.width, height: Self.height, threads: 1)
            compositor.advance(Self.uniforms(frame: 0))
            return compositor.layers[0].shader.uniformRow(7)
        }
        #expect(try claims(["angle": .number(90)]) != nil)
        #expect(try claims(["angle": .number(0)]) == nil)
        #expect(try claims(["style": .text("radial")]) == nil)
    }
}
