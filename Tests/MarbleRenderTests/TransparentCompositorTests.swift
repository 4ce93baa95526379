import Foundation
import MarbleCore
@testable import MarbleRender
@testable import Shaders
import Testing

/// A transparent canvas (`Compositor(transparent: true)`): frames start from (0, 0, 0, 0), and a layer
/// drawn on it, then put over a background, gives what the same layer drawn on that background gives.
@Suite("TransparentCompositor")
struct TransparentCompositorTests {
    static let width = 96, height = 70   // bands of 32 rows: two full ones and a short one
    static let background = RGBA8(r: 0x33, g: 0x66, b: 0x99)

    /// The compositor tests' frame, with a song that has a line to sing (for the `lyrics` layer).
    static func uniforms(frame: Int) -> FrameUniforms {
        var u = CompositorTests.uniforms(frame: frame)
        u.song = SongInfo(lyrics: Lyrics(lines: [Lyrics.Line(start: 0, end: Lyrics.open, text: "Ag", words: [])]))
        return u
    }

    /// `top` (premultiplied) over the opaque `under`, per channel with exact rounding.
    static func over(_ top: [UInt8], _ under: RGBA8) -> [UInt8] {
        var out = top
        let u = [under.r, under.g, under.b, under.a]
        for i in stride(from: 0, to: top.count, by: 4) {
            let k = 255 - Int(top[i + 3])
            for c in 0..<4 { out[i + c] = UInt8(min(255, Int(top[i + c]) + (Int(u[c]) * k + 127) / 255)) }
        }
        return out
    }

    static func render(_ layers: [LayerSpec], transparent: Bool, frame: Int = 3) throws -> [UInt8] {
        let compositor = try Compositor(preset: Preset(name: "t", layers: layers), width: width, height: height, threads: 2,
                                        transparent: transparent)
        let canvas = Texture(width: width, height: height)
        canvas.fill(RGBA8(r: 9, g: 9, b: 9))   // last frame's pixels: a frame must not keep them
        compositor.render(uniforms(frame: frame), into: canvas)
        return canvas.packedBytes()
    }

    @Test("a banded frame starts from (0, 0, 0, 0) on a transparent canvas, from opaque black otherwise")
    func bandedClear() throws {
        let blank = [LayerSpec(shader: "text", parameters: ["text": .text(" ")])]   // draws on the canvas: banded
        let scene = Preset(name: "t", layers: blank)
        #expect(try Compositor(preset: scene, width: Self.width, height: Self.height, threads: 2, transparent: true).isBanded)
        #expect(try Self.render(blank, transparent: true).allSatisfy { $0 == 0 })
        let opaque = try Self.render(blank, transparent: false)
        #expect(stride(from: 0, to: opaque.count, by: 4).allSatisfy { opaque[$0..<$0 + 4] == [0, 0, 0, 255] })
    }

    @Test("layers blended from their own texture, and a filter's picture, compose alpha on a transparent canvas",
          arguments: [false, true])
    func uncoveredPixels(withFilter: Bool) throws {
        // Half-opaque red over the whole frame; a blur (of a flat picture: the same picture) makes the
        // scene whole-frame, and its picture replaces the canvas rather than going over it a second time.
        var layers = [LayerSpec(shader: "solid", opacity: 0.5, parameters: ["color": .text("#ff0000")])]
        if withFilter { layers.append(LayerSpec(shader: "blur")) }
        let clear = try Self.render(layers, transparent: true)
        let opaque = try Self.render(layers, transparent: false)
        // Half-opaque red on (0,0,0,0): (128, 0, 0, 128); on opaque black: (128, 0, 0, 255).
        for i in stride(from: 0, to: clear.count, by: 4) {
            #expect(Array(clear[i..<i + 4]) == [128, 0, 0, 128], "pixel \(i / 4)")
            #expect(Array(opaque[i..<i + 4]) == [128, 0, 0, 255], "pixel \(i / 4)")
            if clear[i + 3] != 128 || opaque[i + 3] != 255 { break }
        }
    }

    /// Every generator that is not a full-frame background, drawn normally.
    static let generators: [String] = ShaderLibrary.builtIn.compactMap { type -> String? in
        let d = type.descriptor
        return d.kind == .generator && !d.isOpaque && !["solid", "media"].contains(d.name) ? d.name : nil
    }

    @Test("a generator on a transparent canvas, put over a background, matches it drawn on that background (±2)",
          arguments: generators)
    func generatorOverBackground(name: String) throws {
        let solid = LayerSpec(shader: "solid", parameters: ["color": .text("#336699")])
        let layer = LayerSpec(shader: name, parameters: name == "text" ? ["text": .text("Ag"), "fade_in": .number(0)] : [:])
        // The lyrics layer draws the song's line: the frames below are drawn with one (see `render`).
        let reference = try Self.render([solid, layer], transparent: false)
        let clear = try Self.render([layer], transparent: true)
        let drawn = stride(from: 3, to: clear.count, by: 4).filter { clear[$0] > 0 }.count
        #expect(drawn > 0, "\(name) drew nothing: the comparison would prove nothing")
        let composed = Self.over(clear, Self.background)
        var worst = 0
        for i in composed.indices { worst = max(worst, abs(Int(composed[i]) - Int(reference[i]))) }
        // Two roundings apart: the layer's blend onto the background vs. onto nothing and then over it.
        #expect(worst <= 2, "\(name): max difference \(worst)")
    }

    /// Premultiplied pairs with channels ≤ alpha, from a fixed seed.
    static func pairs(_ count: Int) -> [(UInt32, UInt32)] {
        var rng = SplitMix64(seed: 28)
        func pixel() -> UInt32 {
            let a = UInt32(rng.next() % 256)
            func c() -> UInt32 { a == 0 ? 0 : UInt32(rng.next() % UInt64(a + 1)) }
            return c() | c() << 8 | c() << 16 | a << 24
        }
        return (0..<count).map { _ in (pixel(), pixel()) }
    }

    @Test("blend modes compose alpha: result = (1−a_d)·C_s + (1−a_s)·C_d + a_s·a_d·B(c_s, c_d), alpha a_s + a_d − a_s·a_d (±1)",
          arguments: [BlendMode.normal, .screen, .multiply])
    func separableBlendOverAlpha(mode: BlendMode) {
        for (s, d) in Self.pairs(20_000) {
            let got = Blend.pixel(s, onto: d, mode: mode, opacity: 255)
            let sa = Double(s >> 24) / 255, da = Double(d >> 24) / 255
            for shift in [0, 8, 16] as [UInt32] {
                let cs = Double((s >> shift) & 0xFF) / 255, cd = Double((d >> shift) & 0xFF) / 255   // premultiplied
                let straightS = sa > 0 ? cs / sa : 0, straightD = da > 0 ? cd / da : 0
                let b: Double = switch mode {
                case .normal: straightS
                case .screen: straightS + straightD - straightS * straightD
                case .multiply: straightS * straightD
                case .add: min(1, straightS + straightD)
                }
                let expected = (1 - da) * cs + (1 - sa) * cd + sa * da * b
                let channel = Double((got >> shift) & 0xFF)
                #expect(abs(channel - expected * 255) <= 1.01, "\(mode) \(String(s, radix: 16)) onto \(String(d, radix: 16))")
            }
            let alpha = Double(got >> 24)
            #expect(abs(alpha - (sa + da - sa * da) * 255) <= 1.01, "\(mode) alpha")
        }
    }

    @Test("add is Porter-Duff plus on alpha too: min(255, a_s + a_d)")
    func addOverAlpha() {
        for (s, d) in Self.pairs(2000) {
            let got = Blend.pixel(s, onto: d, mode: .add, opacity: 255)
            #expect(got >> 24 == min(255, (s >> 24) + (d >> 24)))
        }
    }

    @Test("--transparent drops the bottom full-frame generator (a background), keeps sparse layers and filters")
    func withoutBackground() throws {
        let scene = Preset(name: "s", layers: [LayerSpec(shader: "magma"), LayerSpec(shader: "bars"), LayerSpec(shader: "ink")])
        #expect(try SceneBuilder.withoutBackground(scene).layers.map(\.shader) == ["bars", "ink"])
        let sparse = Preset(name: "s", layers: [LayerSpec(shader: "bars"), LayerSpec(shader: "text")])
        #expect(try SceneBuilder.withoutBackground(sparse).layers.map(\.shader) == ["bars", "text"])
        // A translucent first layer is not a background: it tints what is under it.
        let tint = Preset(name: "s", layers: [LayerSpec(shader: "solid", opacity: 0.5), LayerSpec(shader: "bars")])
        #expect(try SceneBuilder.withoutBackground(tint).layers.count == 2)
        #expect(throws: MarbleError.self) { try SceneBuilder.withoutBackground(Preset(name: "m", layers: [LayerSpec(shader: "magma")])) }
    }
}
