/// A colour as written in presets and parameters: straight (not premultiplied) RGBA in 0…1.
///
/// Parses `#rgb`, `#rrggbb`, `#rrggbbaa` and a few CSS names. Kernels usually convert it once, in `init`
/// or `prepare`, to ``RGBA8`` (premultiplied) or to floats.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    /// Components, straight (not premultiplied), 0…1.
    public var red: Float, green: Float, blue: Float, alpha: Float

    /// A colour from straight components in 0…1 (opaque unless `alpha` says otherwise).
    public init(red: Float, green: Float, blue: Float, alpha: Float = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Fully transparent.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    static let names: [String: String] = [
        "black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#00ff00", "blue": "#0000ff",
        "yellow": "#ffff00", "cyan": "#00ffff", "magenta": "#ff00ff", "orange": "#ff8000", "purple": "#8000ff",
        "pink": "#ff4fa0", "gray": "#808080", "grey": "#808080", "transparent": "#00000000",
    ]

    /// Parses a colour; returns nil when the text is not one.
    public init?(parsing text: String) {
        var hex = text.trimmingCharactersInSet(" ").lowercased()
        if let named = Color.names[hex] { hex = named }
        guard hex.hasPrefix("#") else { return nil }
        hex.removeFirst()
        // Hex digits only: UInt32(_:radix:) would also take a sign ("#+fffff").
        guard !hex.isEmpty, hex.allSatisfy(\.isHexDigit) else { return nil }
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else { return nil }
        let v = hex.count == 6 ? (value << 8 | 0xFF) : value
        red = Float((v >> 24) & 0xFF) / 255
        green = Float((v >> 16) & 0xFF) / 255
        blue = Float((v >> 8) & 0xFF) / 255
        alpha = Float(v & 0xFF) / 255
    }

    /// Premultiplied 8-bit form.
    public var premultiplied: RGBA8 {
        func q(_ x: Float) -> UInt8 { UInt8(max(0, min(255, (x * 255).rounded()))) }
        return RGBA8(r: q(red * alpha), g: q(green * alpha), b: q(blue * alpha), a: q(alpha))
    }

    /// Linear interpolation between two colours.
    public func mixed(with other: Color, _ t: Float) -> Color {
        Color(red: red + (other.red - red) * t, green: green + (other.green - green) * t,
              blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
    }

    /// `#rrggbb`, or `#rrggbbaa` when translucent: the form presets use.
    public var description: String {
        func h(_ x: Float) -> String {
            let v = Int(max(0, min(255, (x * 255).rounded())))
            return (v < 16 ? "0" : "") + String(v, radix: 16)
        }
        return "#" + h(red) + h(green) + h(blue) + (alpha < 1 ? h(alpha) : "")
    }
}

extension String {
    /// Foundation-free trim (MarbleCore imports no C and no Foundation).
    func trimmingCharactersInSet(_ set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
