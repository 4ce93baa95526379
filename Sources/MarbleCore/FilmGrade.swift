/// The film grade of the `analog` shader on a run of premultiplied RGBA8 pixels: an affine colour map
/// (contrast, brightness, saturation as one 3×3 matrix and a lift) plus film grain from two rows of
/// the noise table, clamped to 0…alpha. The kernel itself, eight pixels a step on `SIMD8<Float>`;
/// `analog` calls this build or the AVX2 build (target KernelsAVX2, which inlines this same code) as
/// the CPU allows. Both give the same bytes: no fused multiply-adds, the same operations in the same
/// order, IEEE single precision either way.
///
/// Everything is `@inlinable` and `@inline(__always)` so that another module compiled for a newer CPU
/// gets its own copy (merely inlinable, the optimiser may call the portable one instead). Public, not
/// `package`, though only the project uses it: as `package` the AVX2 build stopped getting its copy
/// (`analog` took 1.66 ms a 720p frame instead of 1.12).
public enum FilmGrade {
    /// The per-frame constants: `m` row-major (output red from input red, green, blue, then green,
    /// then blue), `lift` the offset per unit of alpha, `grain` the noise amplitude.
    @frozen public struct Grade: Sendable {
        public var m: SIMD16<Float>
        public var lift: Float
        public var grain: Float
        @inlinable public init(m: SIMD16<Float>, lift: Float, grain: Float) {
            self.m = m; self.lift = lift; self.grain = grain
        }
    }

    /// Grades `count` pixels from `source` into `destination`, reading grain values 0…1 from `noiseA`
    /// and `noiseB` (one per pixel each; grain = (a + b − 1) × amplitude, a triangular distribution).
    @inlinable @inline(__always)
    public static func run(_ source: UnsafePointer<UInt32>, _ destination: UnsafeMutablePointer<UInt32>, count: Int,
                           noiseA: UnsafePointer<Float>, noiseB: UnsafePointer<Float>, grade: Grade) {
        var x = 0
        while x + 8 <= count {
            let p = UnsafeRawPointer(source + x).loadUnaligned(as: SIMD8<UInt32>.self)
            let a = UnsafeRawPointer(noiseA + x).loadUnaligned(as: SIMD8<Float>.self)
            let b = UnsafeRawPointer(noiseB + x).loadUnaligned(as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(destination + x).storeBytes(of: pixels(p, a, b, grade), as: SIMD8<UInt32>.self)
            x += 8
        }
        while x < count {
            var p = SIMD8<UInt32>(repeating: 0), a = SIMD8<Float>(repeating: 0), b = SIMD8<Float>(repeating: 0)
            p[0] = source[x]; a[0] = noiseA[x]; b[0] = noiseB[x]
            destination[x] = pixels(p, a, b, grade)[0]
            x += 1
        }
    }

    /// Eight pixels: lane for lane the arithmetic of one.
    @inlinable @inline(__always)
    static func pixels(_ p: SIMD8<UInt32>, _ noiseA: SIMD8<Float>, _ noiseB: SIMD8<Float>, _ grade: Grade) -> SIMD8<UInt32> {
        let m = grade.m
        let inv: Float = 1.0 / 255
        // Through Int32: SSE2 converts signed integers to floats in vectors, unsigned ones one by one.
        let a = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: p &>> 24)) * inv
        let r = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: p & 0xFF)) * inv
        let g = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: (p &>> 8) & 0xFF)) * inv
        let b = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: (p &>> 16) & 0xFF)) * inv
        let offset = (grade.lift + (noiseA + noiseB - 1) * grade.grain) * a
        let r2 = m[0] * r + m[1] * g + m[2] * b + offset
        let g2 = m[3] * r + m[4] * g + m[5] * b + offset
        let b2 = m[6] * r + m[7] * g + m[8] * b + offset
        return byte(r2, a) | byte(g2, a) &<< 8 | byte(b2, a) &<< 16 | (p & 0xFF00_0000)
    }

    /// Clamps to 0…alpha (NaN to 0) and rounds to a byte 0…255 (1.5·2²³ added: the low mantissa bits).
    @inlinable @inline(__always)
    static func byte(_ v: SIMD8<Float>, _ alpha: SIMD8<Float>) -> SIMD8<UInt32> {
        let c = v.replacing(with: alpha, where: alpha .< v)
        let clamped = c.replacing(with: 0, where: .!(c .>= 0))
        return unsafeBitCast(clamped * 255 + 12_582_912, to: SIMD8<UInt32>.self) & 0xFF
    }
}
