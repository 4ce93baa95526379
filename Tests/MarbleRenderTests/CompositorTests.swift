import Foundation
import MarbleCore
@testable import MarbleMedia
@testable import MarbleRender
import Shaders
import Testing

@Suite("Compositor")
struct CompositorTests {
    static let width = 96, height = 70   // bands of 32 rows: two full ones and a short one

    /// Features that make every layer draw something: rising bands, a sine waveform.
    static func features(frame: Int) -> AudioFeatures {
        var f = AudioFeatures(bandCount: 16, waveformLength: 256)
        for i in f.bands.indices {
            f.bands[i] = Float((i * 7 + frame * 3) % 16) / 16
            f.bandPeaks[i] = min(1, f.bands[i] + 0.1)
        }
        for i in f.waveformLeft.indices {
            f.waveformLeft[i] = 0.8 * Float(sin(Double(i) / 9 + Double(frame)))
            f.waveformRight[i] = f.waveformLeft[i]
        }
        f.level = 0.5
        return f
    }

    static func uniforms(frame: Int) -> FrameUniforms {
        FrameUniforms(time: Double(frame) / 30, frameIndex: frame, fps: Rational(30), width: width, height: height,
                      features: features(frame: frame))
    }

    /// Y, U and V planes in one buffer (of these tests' size unless told).
    final class Planes {
        let width: Int, height: Int
        var bytes: [UInt8]
        init(width: Int = CompositorTests.width, height: Int = CompositorTests.height) {
            self.width = width; self.height = height
            bytes = [UInt8](repeating: 0, count: width * height * 3 / 2)
        }
        func with<R>(_ body: (YUVConverter.Planes) -> R) -> R {
            let w = width, luma = w * height
            return bytes.withUnsafeMutableBufferPointer { b in
                let base = b.baseAddress!
                return body(YUVConverter.Planes(y: base, yStride: w, u: base + luma, uStride: w / 2,
                                                v: base + luma + luma / 4, vStride: w / 2))
            }
        }
    }

    @Test("a banded scene sent only to the encoder is drawn in per-thread band scratch: same YUV as converting the canvas",
          arguments: [1, 2, 3])
    func bandScratchMatchesCanvas(threads: Int) throws {
        let preset = try PresetLibrary.load("spectrum")
        let fused = try Compositor(preset: preset, width: Self.width, height: Self.height, threads: threads)
        let reference = try Compositor(preset: preset, width: Self.width, height: Self.height, threads: 1)
        #expect(fused.isBanded)
        for frame in 0..<4 {
            let u = Self.uniforms(frame: frame)
            let planes = Planes()
            planes.with { fused.render(u, into: nil, convertingInto: $0) }

            let canvas = Texture(width: Self.width, height: Self.height)
            reference.render(u, into: canvas)
            let expected = Planes()
            expected.with { p in YUVConverter.convert(canvas.view, into: p, pairs: 0..<(Self.height / 2)) }
            #expect(planes.bytes == expected.bytes, "frame \(frame)")
            #expect(canvas.packedBytes().contains { $0 != 0 }, "the scene draws something")
        }
    }

    @Test("a banded scene asked for both a canvas and YUV (a recording shown in the terminal) fills both, alike",
          arguments: [1, 2])
    func bandedCanvasAndPlanes(threads: Int) throws {
        let preset = try PresetLibrary.load("spectrum")
        let both = try Compositor(preset: preset, width: Self.width, height: Self.height, threads: threads)
        let reference = try Compositor(preset: preset, width: Self.width, height: Self.height, threads: 1)
        let canvas = Texture(width: Self.width, height: Self.height)
        canvas.fill(RGBA8(r: 1, g: 2, b: 3, a: 4))
        for frame in 0..<3 {
            let u = Self.uniforms(frame: frame)
            let planes = Planes()
            planes.with { both.render(u, into: canvas, convertingInto: $0) }
            let expectedCanvas = Texture(width: Self.width, height: Self.height)
            reference.render(u, into: expectedCanvas)
            let expected = Planes()
            expected.with { p in YUVConverter.convert(expectedCanvas.view, into: p, pairs: 0..<(Self.height / 2)) }
            #expect(canvas.packedBytes() == expectedCanvas.packedBytes(), "frame \(frame)")
            #expect(planes.bytes == expected.bytes, "frame \(frame)")
        }
    }

    @Test("a scene with a filter takes the whole-frame path, and its YUV is its canvas converted")
    func filterSceneConvertsItsCanvas() throws {
        var preset = try PresetLibrary.load("spectrum")
        preset.layers.append(LayerSpec(shader: "pixellate"))
        let compositor = try Compositor(preset: preset, width: Self.width, height: Self.height, threads: 2)
        #expect(!compositor.isBanded)
        let canvas = Texture(width: Self.width, height: Self.height)
        let planes = Planes()
        let u = Self.uniforms(frame: 2)
        planes.with { compositor.render(u, into: canvas, convertingInto: $0) }
        let expected = Planes()
        expected.with { p in YUVConverter.convert(canvas.view, into: p, pairs: 0..<(Self.height / 2)) }
        #expect(planes.bytes == expected.bytes)
    }
}

@Suite("Compositor: a first layer that draws only some pixels")
struct PartialFirstLayerTests {
    /// Bars or a waveform alone (no background under them) used to leave in the band scratch the pixels
    /// of the band drawn before, wherever they drew nothing: in a video the picture filled up with old
    /// bars (cyan) or lines (white) within a second, while a PNG of the same frame was fine.
    @Test("each frame starts from black: the banded YUV equals the canvas path's over a dirty canvas, frame after frame",
          arguments: ["bars", "waveform"], [1, 2])
    func startsFromBlack(shader: String, threads: Int) throws {
        let preset = Preset(name: "t", layers: [LayerSpec(shader: shader)])
        let banded = try Compositor(preset: preset, width: CompositorTests.width, height: CompositorTests.height, threads: threads)
        let whole = try Compositor(preset: preset, width: CompositorTests.width, height: CompositorTests.height, threads: 1)
        #expect(banded.isBanded)
        for frame in 0..<4 {
            let u = CompositorTests.uniforms(frame: frame)
            let planes = CompositorTests.Planes()
            planes.with { banded.render(u, into: nil, convertingInto: $0) }
            let canvas = Texture(width: CompositorTests.width, height: CompositorTests.height)
            canvas.fill(RGBA8(r: 200, g: 10, b: 90, a: 255))
            whole.render(u, into: canvas)
            let expected = CompositorTests.Planes()
            expected.with { YUVConverter.convert(canvas.view, into: $0, pairs: 0..<(CompositorTests.height / 2)) }
            #expect(planes.bytes == expected.bytes, "\(shader) frame \(frame)")
            #expect(canvas.packedBytes().contains { $0 != 0 }, "the layer draws something")
            let pixels = canvas.packedBytes()
            #expect(stride(from: 0, to: pixels.count, by: 4).contains { pixels[$0] == 0 && pixels[$0 + 3] == 255 },
                    "the dirty canvas was cleared to black where nothing was drawn")
        }
    }
}
