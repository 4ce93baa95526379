/// How MilkDrop 2 reads a sampler's name in a shader (`sampler_fc_main`, `sampler_pw_noise_lq`,
/// `sampler_blur1`, `sampler_rand02_smalltiled`): for the compiler, which records the result in a
/// ``ShaderSamplerUse``.
///
/// After `sampler_`, a two-letter prefix and an underscore choose the filter and the edges — `fw`,
/// `fc`, `pw`, `pc` and their reverses `wf`, `cf`, `wp`, `cp`, in any case (f: bilinear, p: nearest;
/// w: wrap, c: clamp) — when the rest is not empty; without one a texture is read bilinear and
/// wrapped, except `blur1`…`blur3`, which are read bilinear and clamped.
package enum SamplerName {
    /// The texture and the mode `samplerName` (with or without `sampler_`) asks for.
    package static func use(_ samplerName: String, isVolume: Bool) -> ShaderSamplerUse {
        var root = Substring(samplerName)
        if root.hasPrefix("sampler_") { root = root.dropFirst(8) }
        var mode: SamplerMode?
        let chars = Array(root.utf8)
        if chars.count > 3 && chars[2] == UInt8(ascii: "_") {
            let pair = String(decoding: chars[0..<2], as: UTF8.self).uppercased()
            switch pair {
            case "FW", "WF": mode = SamplerMode(bilinear: true, wraps: true)
            case "FC", "CF": mode = SamplerMode(bilinear: true, wraps: false)
            case "PW", "WP": mode = SamplerMode(bilinear: false, wraps: true)
            case "PC", "CP": mode = SamplerMode(bilinear: false, wraps: false)
            default: break
            }
            // MilkDrop peels any two letters and an underscore off, even when they are not a mode.
            root = root.dropFirst(3)
        }
        let name = String(root)
        let standard = SamplerName.blurLevel(name) != nil ? SamplerMode(bilinear: true, wraps: false)
                                                          : SamplerMode(bilinear: true, wraps: true)
        return ShaderSamplerUse(name: name, mode: mode ?? standard, isVolume: isVolume)
    }

    /// 1…3 for `blur1`…`blur3`, else nil.
    package static func blurLevel(_ name: String) -> Int? {
        switch name {
        case "blur1": 1
        case "blur2": 2
        case "blur3": 3
        default: nil
        }
    }

    /// The slot (0…15) and the prefix of `randNN` or `randNN_prefix`, else nil (MilkDrop's test: `rand`,
    /// two digits, then the end or an underscore).
    package static func randomSlot(_ name: String) -> (slot: Int, prefix: String)? {
        let chars = Array(name.utf8)
        guard chars.count >= 6, chars[0..<4].elementsEqual("rand".utf8),
              let tens = digit(chars[4]), let ones = digit(chars[5]),
              chars.count == 6 || chars[6] == UInt8(ascii: "_") else { return nil }
        let slot = tens * 10 + ones
        guard slot <= 15 else { return nil }
        let prefix = chars.count > 7 ? String(decoding: chars[7...], as: UTF8.self) : ""
        return (slot, prefix)
    }

    private static func digit(_ c: UInt8) -> Int? {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") ? Int(c - UInt8(ascii: "0")) : nil
    }
}
