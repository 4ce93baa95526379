/// MilkDrop's motion vectors: a grid of short lines, each from a grid point towards the place the warp
/// fetched that point's picture from, so they trace the flow of the feedback.
///
/// Semantics as projectM 4 `MilkdropPreset/MotionVectors.cpp` and its vertex shader
/// (`PresetMotionVectorsVertexShaderGlsl330.vert`): `mv_x` × `mv_y` points (at most 64 × 48; the
/// fractional parts spread the grid), the point of column x at u = (x + 0.25) / (mv_x + frac − 0.75)
/// + `mv_dx` and of row y at v = (y + 0.25) / (mv_y + frac − 0.75) − `mv_dy` (texture space, v down),
/// points outside (0, 1) skipped; each line goes from the point to point + `mv_l` × (source − point),
/// at least 1/1280 long in texture units (MilkDrop 2's one texel of its texture, here the reference
/// 1280-wide one at every size), a still point (1/1280, 1/1280). One-pixel antialiased lines,
/// alpha-blended; nothing when `mv_a` < 0.0001.
/// projectM draws them onto the previous frame before warping it; here they are drawn after the warp
/// with the rest of the list (they are warped by the next frame instead of this one).
package enum MotionVectors {
    /// The per-frame motion-vector variables.
    package struct Settings: Sendable, Equatable {
        /// `mv_x` (`nMotionVectorsX`): columns of the grid, 0…64 (fractional part: spacing).
        package var columns: Float = 12
        /// `mv_y` (`nMotionVectorsY`): rows of the grid, 0…48.
        package var rows: Float = 9
        /// `mv_dx` (`fMotionVectorsDX`): horizontal shift of the grid, in widths.
        package var dx: Float = 0
        /// `mv_dy` (`fMotionVectorsDY`): vertical shift of the grid (positive: up), in heights.
        package var dy: Float = 0
        /// `mv_l` (`fMotionVectorsL`): length multiplier of the lines.
        package var length: Float = 0.9
        /// `mv_r`, `mv_g`, `mv_b`, `mv_a`: colour and opacity.
        package var color: MilkColor = SIMD4(1, 1, 1, 0)

        package init() {}
        package init(columns: Float, rows: Float, dx: Float, dy: Float, length: Float, color: MilkColor) {
            self.columns = columns; self.rows = rows; self.dx = dx; self.dy = dy; self.length = length; self.color = color
        }
    }

    /// Adds the grid's lines to `list`. `source(p)` gives, for a texture-space point p of this frame
    /// (u right, v down, 0…1), the texture-space point of the previous frame the warp sampled there
    /// (the warp mesh's interpolated u/v); pass `{ $0 }` when there is no warp yet.
    package static func build(_ s: Settings, into list: inout MilkDrawList,
                             source: (SIMD2<Float>) -> SIMD2<Float>) {
        guard s.color.w >= 0.0001, s.columns.isFinite, s.rows.isFinite else { return }
        var countX = Int(max(0, min(s.columns, 1000))), countY = Int(max(0, min(s.rows, 1000)))
        guard countX > 0, countY > 0 else { return }
        var fracX = min(1, max(0, s.columns - Float(countX))), fracY = min(1, max(0, s.rows - Float(countY)))
        if countX > 64 { countX = 64; fracX = 0 }
        if countY > 48 { countY = 48; fracY = 0 }
        let space = list.space
        let minimum = 1 / Float(MilkDrawList.referenceWidth)
        let length = s.length.isFinite ? s.length : 0
        list.begin(.segments, blend: .alpha, size: 1)
        for y in 0..<countY {
            let v = (Float(y) + 0.25) / (Float(countY) + fracY + 0.25 - 1) - s.dy
            guard v > 0.0001, v < 0.9999 else { continue }
            for x in 0..<countX {
                let u = (Float(x) + 0.25) / (Float(countX) + fracX + 0.25 - 1) + s.dx
                guard u > 0.0001, u < 0.9999 else { continue }
                let p = SIMD2(u, v)
                var d = (source(p) - p) * length
                let l = (d.x * d.x + d.y * d.y).squareRoot()
                if !(l > minimum) {
                    d = l > 1e-8 ? d * (minimum / l) : SIMD2(repeating: minimum)
                }
                let end = p + d
                list.append(space.pixel(u: p.x, v: p.y), s.color)
                list.append(space.pixel(u: end.x, v: end.y), s.color)
            }
        }
        list.end()
    }
}
