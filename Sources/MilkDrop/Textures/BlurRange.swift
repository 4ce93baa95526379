/// The value ranges of MilkDrop 2's blur levels (the preset's `blur1_min` … `blur3_max`, `b1n` …
/// `b3x`): each level stores `(value − min) / (max − min)` in 8 bits, and a shader's `GetBlurN`
/// turns a read back with ``decode(level:)``.
///
/// The ranges are made "safe" as MilkDrop does before use: a later level's range is clipped to the
/// one before it (8 bits are not wasted on values the previous level could not hold), and a range
/// narrower than 0.1 is moved to its centre minus 0.05 — at both ends. That last step is MilkDrop's
/// (the maximum was surely meant to be the centre plus 0.05; butterchurn copies it too): such a
/// level decodes to the constant `min`, and so does every level after it. ``encode(level:)`` of a
/// collapsed level is then meaningless (MilkDrop divides by zero); it is reported as scale 0, bias 0
/// and the pyramid stores black there, which decodes to the same constant.
package struct BlurRange: Sendable, Equatable {
    /// The safe ranges of levels 1…3 (index 0…2).
    package private(set) var min: SIMD3<Float>
    package private(set) var max: SIMD3<Float>

    /// MilkDrop's defaults: every level 0…1.
    package static let standard = BlurRange(min: [0, 0, 0], max: [1, 1, 1])

    /// The safe ranges for a preset's `blur1_min` … `blur3_max` (in level order). A value that is not
    /// finite (an equation gone wrong) counts as its default, 0 or 1.
    package init(min rawMin: SIMD3<Float>, max rawMax: SIMD3<Float>) {
        var lo = rawMin, hi = rawMax
        for level in 0..<3 {
            if !lo[level].isFinite { lo[level] = 0 }
            if !hi[level].isFinite { hi[level] = 1 }
        }
        for level in 0..<3 {
            if level > 0 {
                hi[level] = Swift.min(hi[level - 1], hi[level])
                lo[level] = Swift.max(lo[level - 1], lo[level])
            }
            if !(hi[level] - lo[level] >= 0.1) {
                let centre = (lo[level] + hi[level]) * 0.5
                lo[level] = centre - 0.05
                hi[level] = centre - 0.05
            }
        }
        min = lo; max = hi
    }

    /// Whether level `level` (0…2) decodes to a constant (its range collapsed).
    package func isCollapsed(level: Int) -> Bool { !(max[level] - min[level] > 0) }

    /// What `GetBlurN` does with a read of level `level` (0…2): `read × scale + bias` (MilkDrop's
    /// `_c5`/`_c6` shader constants: max − min and min).
    package func decode(level: Int) -> (scale: Float, bias: Float) {
        (max[level] - min[level], min[level])
    }

    /// What the horizontal pass of level `level` (0…2) applies to the average it reads: level 1 maps
    /// its range onto 0…1 of the feedback buffer, a later level maps its range onto 0…1 of the previous
    /// level's stored values.
    package func encode(level: Int) -> (scale: Float, bias: Float) {
        if (0...level).contains(where: isCollapsed(level:)) { return (0, 0) }
        let (lo, hi): (Float, Float)
        if level == 0 {
            (lo, hi) = (min[0], max[0])
        } else {
            // This level's range in the previous level's stored units.
            let span = max[level - 1] - min[level - 1]
            (lo, hi) = ((min[level] - min[level - 1]) / span, (max[level] - min[level - 1]) / span)
        }
        let scale = 1 / (hi - lo)
        return (scale, -lo * scale)
    }
}
