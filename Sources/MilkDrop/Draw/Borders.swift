/// MilkDrop's outer and inner borders: two rectangular rings drawn last, over everything else.
///
/// Geometry as MilkDrop 2 and projectM draw it (projectM 4 `MilkdropPreset/Border.cpp`: rings between
/// clip-space radii 1 and 1 − `ob_size`, then 1 − `ob_size` and 1 − `ob_size` − `ib_size`; projectM 3
/// `Renderer/Renderable.cpp` says the same in 0…1 units with `ob_size·0.5`): the outer border covers
/// `ob_size / 2` of the width on the left and on the right and `ob_size / 2` of the height at the top
/// and at the bottom; the inner border the next `ib_size / 2`. Always alpha-blended ("no additive
/// drawing for borders"); a border with alpha ≤ 0.001 is not drawn.
package enum Borders {
    /// The per-frame border variables.
    package struct Settings: Sendable, Equatable {
        /// `ob_size` (`fOuterBorderSize`): thickness of the outer border, 0…1 (of half the frame).
        package var outerSize: Float = 0.01
        /// `ob_r`, `ob_g`, `ob_b`, `ob_a` (`fOuterBorderR`…): outer border colour and opacity.
        package var outerColor: MilkColor = SIMD4(0, 0, 0, 0)
        /// `ib_size` (`fInnerBorderSize`): thickness of the inner border, 0…1.
        package var innerSize: Float = 0.01
        /// `ib_r`, `ib_g`, `ib_b`, `ib_a` (`fInnerBorderR`…): inner border colour and opacity.
        package var innerColor: MilkColor = SIMD4(0.25, 0.25, 0.25, 0)

        package init() {}
        package init(outerSize: Float, outerColor: MilkColor, innerSize: Float, innerColor: MilkColor) {
            self.outerSize = outerSize; self.outerColor = outerColor
            self.innerSize = innerSize; self.innerColor = innerColor
        }
    }

    /// Adds the borders that are visible to `list` (outer first, then inner).
    package static func build(_ settings: Settings, into list: inout MilkDrawList) {
        let w = Float(list.width), h = Float(list.height)
        let outer = clampSize(settings.outerSize), inner = clampSize(settings.innerSize)
        ring(from: 0, to: outer * 0.5, color: settings.outerColor, w: w, h: h, list: &list)
        ring(from: outer * 0.5, to: min(1, (outer + inner) * 0.5), color: settings.innerColor, w: w, h: h, list: &list)
    }

    private static func clampSize(_ s: Float) -> Float { s.isFinite ? min(max(s, 0), 2) : 0 }

    /// The ring between insets `a` and `b` (fractions of the width and height on each side).
    private static func ring(from a: Float, to b: Float, color: MilkColor, w: Float, h: Float, list: inout MilkDrawList) {
        guard color.w > 0.001, b > a else { return }
        let outer = (SIMD2(a * w, a * h), SIMD2(w - a * w, h - a * h))
        let inner = (SIMD2(b * w, b * h), SIMD2(w - b * w, h - b * h))
        list.addFrame(outer: outer, inner: inner, color: color)
    }
}
