import MarbleCore

/// The names of the C keys ("C1" … "C8", middle C is C4) on a piano view's keyboard, in the lower part
/// of each C's white key when the keys are wide and tall enough to read them (text at least
/// ``AxisLabels/minimumSize`` pixels high); otherwise the keyboard keeps its dots. Laid out once per
/// frame size with ``AxisLabels`` (the measuring views' labels), in dark ink without a halo; a name
/// the frame's edge would cut is left out.
final class PianoNoteNames {
    private let labels: AxisLabels
    /// False when the keys are too small for names (the dots stay).
    private(set) var shown = false

    init() throws { labels = try AxisLabels() }

    /// Lays out the names for a `width` × `height` frame whose keyboard's lower part (the white keys)
    /// spans rows `lowerTop..<bottom`, `slot` pixels per semitone, with C keys centred at `centers`
    /// (the first is MIDI note `firstC`).
    func configure(width: Int, height: Int, lowerTop: Int, bottom: Int, slot: Float,
                   centers: UnsafePointer<Float>, count: Int, firstC: Int) {
        labels.begin(width: width, height: height, ink: Color(red: 0.22, green: 0.22, blue: 0.26), haloAlpha: 0)
        let whiteKey = slot * 12 / 7
        let size = Int(min(Float(bottom - lowerTop) * 0.6, whiteKey * 0.62).rounded(.down))
        shown = size >= AxisLabels.minimumSize && count > 0
        guard shown else { return }
        // The names sit on a line a fifth of the white keys' lower part above the keyboard's bottom.
        let baseline = Float(bottom - max(1, (bottom - lowerTop) / 5))
        for k in 0..<count {
            labels.label("C\((firstC + 12 * k) / 12 - 1)", size: size, x: centers[k], y: baseline, anchorX: 0.5, anchorY: 1)
        }
    }

    /// Blends the names crossing frame row `y` onto `dst` (a row `width` pixels wide).
    @inline(__always)
    func draw<B: BlendFunction>(_: B.Type, row y: Int, into dst: UnsafeMutablePointer<UInt32>, width: Int, opacity: UInt32) {
        labels.draw(B.self, row: y, into: dst, width: width, opacity: opacity)
    }
}
