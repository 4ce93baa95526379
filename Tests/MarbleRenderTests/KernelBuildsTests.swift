@testable import KernelsAVX2
import MarbleCore
import Testing
@testable import MarbleRender
@testable import Shaders

/// The film grade kernel (the `analog` shader's pixels): its AVX2 build must give the portable
/// build's bytes, and both must be the grade the shader documents.
@Suite struct KernelBuildsTests {
    static let grade = FilmGrade.Grade(m: SIMD16(1.2, -0.1, 0.05, 0.1, 0.9, -0.2, -0.3, 0.4, 1.3, 0, 0, 0, 0, 0, 0, 0),
                                       lift: 0.04, grain: 0.3)

    /// Premultiplied pixels with every alpha, colour channels ≤ alpha, and grain values 0…1.
    static func inputs(_ count: Int) -> ([UInt32], [Float], [Float]) {
        var pixels: [UInt32] = [], a: [Float] = [], b: [Float] = []
        var h: UInt32 = 7
        for i in 0..<count {
            h = h &* 1_664_525 &+ 1_013_904_223
            let alpha = UInt32(i * 37 % 256)
            let r = alpha == 0 ? 0 : (h >> 8) % (alpha + 1), g = alpha == 0 ? 0 : (h >> 16) % (alpha + 1)
            let bl = alpha == 0 ? 0 : (h >> 4) % (alpha + 1)
            pixels.append(r | g << 8 | bl << 16 | alpha << 24)
            a.append(Float(h >> 9) / 8_388_608); b.append(Float((h &* 31) >> 9) / 8_388_608)
        }
        return (pixels, a, b)
    }

    func run(_ count: Int, wide: Bool) -> [UInt32] {
        let (pixels, a, b) = Self.inputs(count)
        var out = [UInt32](repeating: 0xDEAD_BEEF, count: count)
        pixels.withUnsafeBufferPointer { p in a.withUnsafeBufferPointer { na in b.withUnsafeBufferPointer { nb in
            out.withUnsafeMutableBufferPointer { o in
                if wide {
                    KernelsAVX2.filmGrade(p.baseAddress!, o.baseAddress!, count: count, noiseA: na.baseAddress!,
                                          noiseB: nb.baseAddress!, grade: Self.grade)
                } else {
                    FilmGrade.run(p.baseAddress!, o.baseAddress!, count: count, noiseA: na.baseAddress!,
                                  noiseB: nb.baseAddress!, grade: Self.grade)
                }
            }
        } } }
        return out
    }

    @Test("the portable build is the documented grade: M·c + (lift + (a + b − 1)·grain)·alpha, clamped to 0…alpha",
          arguments: [1, 8, 13, 1920])
    func portableIsTheGrade(count: Int) {
        let (pixels, na, nb) = Self.inputs(count)
        let out = run(count, wide: false)
        let m = Self.grade.m
        for i in 0..<count {
            let p = pixels[i]
            let alpha = Double(p >> 24) / 255
            let c = [Double(p & 0xFF) / 255, Double(p >> 8 & 0xFF) / 255, Double(p >> 16 & 0xFF) / 255]
            let offset = (Double(Self.grade.lift) + (Double(na[i]) + Double(nb[i]) - 1) * Double(Self.grade.grain)) * alpha
            for ch in 0..<3 {
                let v = Double(m[3 * ch]) * c[0] + Double(m[3 * ch + 1]) * c[1] + Double(m[3 * ch + 2]) * c[2] + offset
                let expected = Int((min(max(v, 0), alpha) * 255).rounded())
                let got = Int(out[i] >> (8 * UInt32(ch)) & 0xFF)
                #expect(abs(got - expected) <= 1, "pixel \(i) channel \(ch): \(got), expected \(expected)")
            }
            #expect(out[i] >> 24 == p >> 24, "alpha is kept")
        }
    }

    @Test("the AVX2 build gives the portable build's bytes", .enabled(if: YUVConverter.usesAVX2),
          arguments: [1, 7, 8, 9, 1920, 1923])
    func buildsAgree(count: Int) {
        #expect(run(count, wide: true) == run(count, wide: false))
    }

    @Test("a compositor switches the shaders to the AVX2 builds exactly when the CPU allows them")
    func selection() throws {
        WideKernels.allow(false)
        _ = try Compositor(preset: Preset(name: "t", layers: [LayerSpec(shader: "analog")]), width: 16, height: 16, threads: 1)
        #expect(WideKernels.enabled == YUVConverter.usesAVX2)
    }
}
