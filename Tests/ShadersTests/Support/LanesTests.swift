import MarbleCore
import Testing
@testable import Shaders

/// The eight-lane maths must give, lane for lane, the scalar functions' bits: that is what lets the
/// backgrounds use it without moving a golden image.
@Suite struct LanesTests {
    /// Points across lattice cells, negative and large coordinates, and cell edges.
    static let points: [(Float, Float)] = {
        var p: [(Float, Float)] = [(0, 0), (-1, -1), (255.99, 0.5), (-0.0001, 3), (1000.25, -733.5), (0.5, 1e-7)]
        var h: UInt32 = 1
        for _ in 0..<400 {
            h = Noise.hash(h &+ 0x9E37_79B9)
            let x = Float(Int32(bitPattern: h) >> 8) / 1024          // ±8192
            let y = Float(Int32(bitPattern: Noise.hash(h)) >> 12) / 97
            p.append((x, y))
        }
        return p
    }()

    /// Evaluates `lanes` on the points eight at a time and `scalar` on each, and checks every bit.
    func agree(_ name: String, scalar: (Float, Float) -> Float, lanes: (Lanes, Lanes) -> Lanes) {
        var mismatches = 0
        for start in stride(from: 0, to: Self.points.count - 7, by: 8) {
            var x = Lanes(repeating: 0), y = Lanes(repeating: 0)
            for k in 0..<8 { (x[k], y[k]) = Self.points[start + k] }
            let wide = lanes(x, y)
            for k in 0..<8 where wide[k].bitPattern != scalar(x[k], y[k]).bitPattern { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(name): \(mismatches) lanes differ from the scalar function")
    }

    @Test("value noise, fbm and cellular noise: every lane has the scalar bits")
    func noise() {
        let n = Noise.Sampler()
        agree("value", scalar: { Noise.value($0, $1) }, lanes: { n.value($0, $1) })
        for octaves in [1, 3, 4] {
            agree("fbm \(octaves)", scalar: { Noise.fbm($0, $1, octaves: octaves) }, lanes: { n.fbm($0, $1, octaves: octaves) })
        }
        agree("voronoi f1", scalar: { Noise.voronoi($0, $1, jitter: 0.9).f1 }, lanes: { n.voronoi($0, $1, jitter: 0.9).f1 })
        agree("voronoi f2", scalar: { Noise.voronoi($0, $1, jitter: 0.9).f2 }, lanes: { n.voronoi($0, $1, jitter: 0.9).f2 })
        agree("voronoi id", scalar: { Noise.voronoi($0, $1).id }, lanes: { n.voronoi($0, $1).id })
    }

    @Test("fast trigonometry, clamps and smoothstep: every lane has the scalar bits")
    func fastMath() {
        agree("sin", scalar: { x, _ in fastSin(x) }, lanes: { x, _ in fastSin(x) })
        agree("cos", scalar: { x, _ in fastCos(x) }, lanes: { x, _ in fastCos(x) })
        agree("atan2", scalar: { fastAtan2($1, $0) }, lanes: { fastAtan2($1, $0) })
        agree("atan2 at the origin", scalar: { _, _ in fastAtan2(0, 0) }, lanes: { x, _ in fastAtan2(x * 0, x * 0) })
        agree("clamp01", scalar: { x, _ in clamp01(x / 4000) }, lanes: { x, _ in clamp01(x / 4000) })
        agree("max", scalar: { max($0, $1) }, lanes: { lanesMax($0, $1) })
        agree("smoothstep", scalar: { x, _ in smoothstep(-100, 100, x) }, lanes: { x, _ in smoothstep(-100, 100, x) })
        agree("floor", scalar: { x, _ in Float(floorToInt32(x)) }, lanes: { x, _ in Lanes(floorToInt32(x)) })
    }

    @Test("integers to floats without the standard library's conversion: Float(i) bit for bit over |i| < 2²²")
    func integersToFloats() {
        let edge: Int32 = 1 << 22
        var values: [Int32] = [0, 1, -1, 2, -2, 7, -8, 126, -126, 1000, -1000, edge - 1, -edge, edge - 2, -edge + 1]
        var g = SystemRandomNumberGenerator()
        for _ in 0..<4000 { values.append(Int32.random(in: -edge..<edge, using: &g)) }
        while values.count % 8 != 0 { values.append(0) }
        for start in stride(from: 0, to: values.count, by: 8) {
            var i = LaneInts()
            for k in 0..<8 { i[k] = values[start + k] }
            let f = lanesFloat(i)
            for k in 0..<8 { #expect(f[k].bitPattern == Float(i[k]).bitPattern, "\(i[k])") }
        }
    }

    @Test("NaN clamps to 0 on lanes as in the scalar clamp")
    func nan() {
        let v = clamp01(Lanes(.nan, -1, 0.5, 2, .infinity, -.infinity, 0, 1))
        #expect(v == Lanes(0, 0, 0.5, 1, 1, 0, 0, 1))
    }

    @Test("lane groups cover a row exactly once, the last group partial", arguments: [1, 7, 8, 9, 16, 77])
    func groups(count: Int) {
        var seen = [Int](repeating: 0, count: count)
        forEachLaneGroup(count: count, { first in lanes(0, step: 1, first: first) }, store: { i, v in
            seen[i] += 1
            #expect(v == Float(i))
        })
        #expect(seen.allSatisfy { $0 == 1 })
    }
}
