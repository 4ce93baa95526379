/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, fast, deterministic generator for the random
/// choices kernels make (sparks, MilkDrop's `rand` seeds and tint), so that the same seed always
/// gives the same picture.
package struct SplitMix64: Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<1 (24 bits).
    package mutating func unit() -> Float { Float(next() >> 40) * (1 / 16_777_216) }
}
