/// Colour helpers for `prepare` (per frame, not per pixel): hue rotation and cosine palettes.

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

/// Inigo Quilez's cosine palette: colour(t) = a + b·cos(2π(c·t + d)), per channel.
struct CosinePalette: Sendable {
    var a: (Float, Float, Float), b: (Float, Float, Float), c: (Float, Float, Float), d: (Float, Float, Float)

    func color(_ t: Float) -> (Float, Float, Float) {
        let tau: Float = 6.283_185_3
        return (a.0 + b.0 * fastCos(tau * (c.0 * t + d.0)),
                a.1 + b.1 * fastCos(tau * (c.1 * t + d.1)),
                a.2 + b.2 * fastCos(tau * (c.2 * t + d.2)))
    }

    /// Fills `lut` (count entries, t from 0 to 1) with opaque packed colours.
    func fill(_ lut: UnsafeMutablePointer<UInt32>, count: Int) {
        for i in 0..<count {
            let (r, g, b) = color(Float(i) / Float(max(1, count - 1)))
            lut[i] = packOpaque(r, g, b)
        }
    }
}
