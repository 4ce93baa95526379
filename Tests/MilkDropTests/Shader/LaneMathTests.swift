import Glibc
@testable import MilkDrop
import Testing

@Suite("LaneMath: exact rounding, and transcendentals within their stated bounds of Glibc")
struct LaneMathTests {
    @Test("DX9 pow and atan2 within their bounds, specials as Glibc")
    func powAndAtan2() throws {
        for f in [ShaderBinary.pow, .atan2] {
            var b = ProgramBuilder()
            let x = b.input(.uvX), y = b.input(.uvY)
            let r = b.binary(f, x, y)
            var g = SplitMixForTests(seed: 6)
            for _ in 0..<40 {
                let xs = (0..<64).map { _ in Float.random(in: -20...20, using: &g) }, ys = (0..<64).map { _ in Float.random(in: -8...8, using: &g) }
                let (got, want) = try runBoth(b.program(r, r, r), count: 64) { i, k in i == .uvX ? xs[k] : ys[k] }
                for k in 0..<64 {
                    if f == .pow {
                        let exponent = abs(ys[k] * log2f(abs(xs[k])))
                        #expect(abs(got[k].x - want[k].x) <= 2e-7 * (2 + exponent) * abs(want[k].x), "pow(\(xs[k]), \(ys[k]))")
                    } else {
                        #expect(abs(got[k].x - want[k].x) <= 5e-7, "atan2(\(xs[k]), \(ys[k]))")
                    }
                }
            }
        }
        // atan2 at zeros and infinities, pow at 0, 1 and NaN.
        let pairs: [(Float, Float)] = [(0, 0), (-0.0, 0), (0, -0.0), (-0.0, -0.0), (1, 0), (-1, 0), (0, -1), (-0.0, -1),
                                       (.infinity, .infinity), (-.infinity, .infinity), (.infinity, -.infinity), (1, .infinity),
                                       (1, -.infinity), (.nan, 1), (1, .nan)]
        for (y, x) in pairs {
            let got = LaneMath.atan2(y, x), want = atan2f(y, x)
            #expect(same(got, want) || abs(got - want) <= 5e-7, "atan2(\(y), \(x)): \(got) vs \(want)")
        }
        #expect(LaneMath.pow(0, 2) == 0 && LaneMath.pow(0, 0).isNaN && LaneMath.pow(-8, 1.0 / 3).isFinite)
        #expect(LaneMath.pow(2, 200) == .infinity && LaneMath.pow(2, -200) == 0 && LaneMath.pow(1, 1e30) == 1)
        #expect(LaneMath.exp2(.nan).isNaN && LaneMath.log2(.nan).isNaN && LaneMath.log2(0) == -.infinity)
        #expect(LaneMath.log2(-.infinity) == .infinity && LaneMath.sin(.infinity).isNaN && LaneMath.cos(.nan).isNaN)
        #expect(abs(LaneMath.log2(.leastNormalMagnitude / 100) - log2f(.leastNormalMagnitude / 100)) < 1e-5)
    }

    @Test("LaneMath against Glibc over wide ranges: the bounds of its doc comment")
    func laneMathBounds() {
        var worst: [String: Float] = [:]
        func note(_ name: String, _ e: Float) { worst[name] = max(worst[name] ?? 0, e) }
        var x: Float = -8192
        while x <= 8192 { note("sin", abs(LaneMath.sin(x) - sinf(x))); note("cos", abs(LaneMath.cos(x) - cosf(x))); x += 0.0137 }
        x = -1e5
        while x <= 1e5 { note("sinWide", abs(LaneMath.sin(x) - sinf(x))); note("cosWide", abs(LaneMath.cos(x) - cosf(x))); x += 0.731 }
        x = -126
        while x <= 127.9 { note("exp2", abs(LaneMath.exp2(x) - exp2f(x)) / exp2f(x)); x += 0.000_97 }
        x = 1e-37
        while x < 1e37 { note("log2", abs(LaneMath.log2(x) - log2f(x)) / max(1, abs(log2f(x)))); x *= 1.000_37 }
        for _ in 0..<200_000 {
            let y = Float.random(in: -10...10), xx = Float.random(in: -10...10)
            note("atan2", abs(LaneMath.atan2(y, xx) - atan2f(y, xx)))
        }
        #expect(worst["sin"]! <= 2e-7 && worst["cos"]! <= 2e-7, "\(worst)")
        #expect(worst["sinWide"]! <= 5e-6 && worst["cosWide"]! <= 5e-6, "\(worst)")
        #expect(worst["exp2"]! <= 2e-7 && worst["log2"]! <= 2e-7 && worst["atan2"]! <= 5e-7, "\(worst)")
    }

    @Test("rounding is exact for every kind of float, signs of zero included")
    func rounding() {
        var g = SplitMixForTests(seed: 11)
        let values = ShaderMachineTests.specials + (0..<20_000).map { _ in Float(bitPattern: UInt32(truncatingIfNeeded: g.next())) }
        for x in values {
            #expect(same(LaneMath.floor(x), floorf(x)) && same(LaneMath.ceil(x), ceilf(x)), "\(x)")
            #expect(same(LaneMath.trunc(x), truncf(x)) && same(LaneMath.rint(x), rintf(x)), "\(x)")
        }
    }
}
