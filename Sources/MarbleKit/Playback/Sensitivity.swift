/// How strongly visuals react to the audio: a factor on the analysed levels.
///
/// Always within ``range``; raising and lowering move by a constant ratio (``step``), so each
/// key press changes the look by the same perceived amount at any level.
public enum Sensitivity {
    /// The allowed sensitivities: from a tenth to ten times the analysed levels.
    public static let range: ClosedRange<Float> = 0.1 ... 10
    /// The analysed levels as they are (factor 1).
    public static let `default`: Float = 1
    /// One raise multiplies by this; one lower divides by it.
    public static let step: Float = 1.25

    /// `value` clamped to ``range``; not-a-number gives the default.
    public static func clamped(_ value: Float) -> Float {
        guard !value.isNaN else { return `default` }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// One step up from `value` (× ``step``), clamped to ``range``.
    public static func raised(_ value: Float) -> Float { clamped(clamped(value) * step) }
    /// One step down from `value` (÷ ``step``), clamped to ``range``.
    public static func lowered(_ value: Float) -> Float { clamped(clamped(value) / step) }
}
