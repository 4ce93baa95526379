/// Branch-free float helpers for hot loops (no libm calls, so the compiler can vectorise them).
///
/// `log10f` in a loop over 1025 bins cost nine times the FFT on this machine; ``fastLog2(_:)`` is
/// accurate to about 2·10⁻⁵ (≈ 10⁻⁴ dB) for normal positive inputs.
enum FastMath {
    /// log2(x) for x > 0 (returns about -126 for zero and denormals, never NaN for x ≥ 0).
    @inline(__always)
    static func fastLog2(_ x: Float) -> Float {
        let bits = max(x, Float.leastNormalMagnitude).bitPattern
        let e = Float(Int32(truncatingIfNeeded: (bits >> 23) & 0xff) &- 127)
        let m = Float(bitPattern: (bits & 0x007f_ffff) | 0x3f80_0000)   // [1, 2)
        let t = (m - 1) / (m + 1)                                         // [0, 1/3)
        let t2 = t * t
        // 2/ln2 · atanh(t) series.
        let p = t * (2.885390082 + t2 * (0.961796694 + t2 * (0.577078016 + t2 * 0.412198583)))
        return e + p
    }

    /// 10·log10(power), floored at `floor` dB.
    @inline(__always)
    static func powerToDecibels(_ p: Float, floor: Float) -> Float {
        max(floor, 3.010299957 * fastLog2(p))
    }

    /// 20·log10(amplitude), floored at `floor` dB.
    @inline(__always)
    static func amplitudeToDecibels(_ a: Float, floor: Float) -> Float {
        max(floor, 6.020599913 * fastLog2(a))
    }

    /// Converts `n` powers to decibels in place-able buffers.
    static func powersToDecibels(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<Float>, count n: Int, floor: Float) {
        for i in 0..<n { dst[i] = powerToDecibels(src[i], floor: floor) }
    }

    /// Replaces NaN and ±infinity by 0 (the features' contract: never NaN, never infinite).
    @inline(__always)
    static func finite(_ x: Float) -> Float { x.isFinite ? x : 0 }

    /// The smallest `start · 2ᵏ` (k ≥ 0) that is at least `target`: FFT lengths and ring capacities.
    static func powerOfTwo(from start: Int, atLeast target: Double) -> Int {
        var n = start
        while Double(n) < target { n <<= 1 }
        return n
    }

    /// Largest |x| in `x` (NaN counts as 0): compares magnitudes as integers, which vectorises,
    /// where a `max(abs(…))` loop over floats does not.
    static func absolutePeak(_ x: UnsafeBufferPointer<Float>) -> Float {
        guard let base = x.baseAddress else { return 0 }
        var m: UInt32 = 0
        for i in 0..<x.count {
            let b = base[i].bitPattern & 0x7fff_ffff
            m = b > m ? b : m
        }
        guard m > 0x7f80_0000 else { return Float(bitPattern: m) }
        // A NaN is present (rare): take the slow path that skips it.
        var p: Float = 0
        for i in 0..<x.count where base[i].magnitude > p { p = base[i].magnitude }
        return p
    }

    /// Σ a[i]·b[i]. Eight SIMD lanes of partial sums: a plain `s += a[i] * b[i]` loop is one serial
    /// chain of additions (the compiler may not reorder float sums), about 8× slower.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count n: Int) -> Float {
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>()
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var i = 0
        while i &+ 16 <= n {
            let o = i &* 4
            acc0 += ra.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
            acc1 += ra.loadUnaligned(fromByteOffset: o &+ 32, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: o &+ 32, as: SIMD8<Float>.self)
            i &+= 16
        }
        var s = (acc0 + acc1).sum()
        while i < n { s += a[i] * b[i]; i &+= 1 }
        return s
    }
}
