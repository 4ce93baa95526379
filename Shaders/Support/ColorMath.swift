/// Colour helpers for `prepare` (per frame, not per pixel): hue rotation.

/// Rotation of hue around the grey axis (keeps luminance roughly, keeps greys grey).
struct HueRotation: Sendable {
    var m: (Float, Float, Float, Float, Float, Float, Float, Float, Float)

    /// `degrees` of rotation; 0 is the identity.
    init(degrees: Float) {
        let a = degrees * (Float.pi / 180)
        let c = fastCos(a), s = fastSin(a)
        let k = (1 - c) / 3, r = s * 0.577_350_27
        m = (c + k, k - r, k + r,
             k + r, c + k, k - r,
             k - r, k + r, c + k)
    }

    func apply(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        (m.0 * r + m.1 * g + m.2 * b, m.3 * r + m.4 * g + m.5 * b, m.6 * r + m.7 * g + m.8 * b)
    }
}
