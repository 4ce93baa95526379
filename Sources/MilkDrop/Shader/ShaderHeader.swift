/// What MilkDrop 2 puts around a preset's shader (its `include.fx` header and the wrapping of
/// `shader_body`), as this compiler sees it: the macros, the uniforms and their places in the
/// ``ShaderUniforms`` block, the samplers and the per-pixel inputs.
///
/// The names follow MilkDrop's header: `time`, `fps`, `frame`, `progress` are `_c2`'s components,
/// `bass`…`vol` `_c3`'s, `bass_att`…`vol_att` `_c4`'s, `q1`…`q32` those of `_qa`…`_qh`; `aspect` is
/// `_c0` (x and y multipliers for an aspect-aware picture, z and w their inverses), `texsize` `_c7`,
/// `roam_cos`/`roam_sin` `_c8`/`_c9`, `slow_roam_cos`/`slow_roam_sin` `_c10`/`_c11`, the blur ranges
/// `_c5`, `_c6` and `_c13`. `M_PI_2` is 2π there, not π/2 — presets rely on it, so it stays.
enum ShaderHeader {
    /// The header's `#define`s, ready for the preprocessor.
    static let macros: [String: ShaderMacro] = {
        var table: [String: ShaderMacro] = [:]
        func define(_ name: String, _ body: String) { define(name, nil, body) }
        func define(_ name: String, _ parameters: [String]?, _ body: String) {
            // The bodies are this file's own text: they always lex.
            let tokens = (try? ShaderLexer.tokens(body)) ?? []
            table[name] = ShaderMacro(parameters: parameters, body: tokens)
        }
        define("M_PI", "3.14159265359")
        define("M_PI_2", "6.28318530718")
        define("M_INV_PI_2", "0.159154943091895")
        for (i, name) in ["time", "fps", "frame", "progress"].enumerated() { define(name, "_c2.\(xyzw[i])") }
        for (i, name) in ["bass", "mid", "treb", "vol"].enumerated() { define(name, "_c3.\(xyzw[i])") }
        for (i, name) in ["bass_att", "mid_att", "treb_att", "vol_att"].enumerated() { define(name, "_c4.\(xyzw[i])") }
        for q in 1...32 { define("q\(q)", "_q\(qBanks[(q - 1) / 4]).\(xyzw[(q - 1) % 4])") }
        define("aspect", "_c0")
        define("texsize", "_c7")
        define("roam_cos", "_c8")
        define("roam_sin", "_c9")
        define("slow_roam_cos", "_c10")
        define("slow_roam_sin", "_c11")
        define("mip_x", "_c12.x")
        define("mip_y", "_c12.y")
        define("mip_xy", "_c12.xy")
        define("mip_avg", "_c12.z")
        define("blur1_min", "_c6.z")
        define("blur1_max", "_c6.w")
        define("blur2_min", "_c13.x")
        define("blur2_max", "_c13.y")
        define("blur3_min", "_c13.z")
        define("blur3_max", "_c13.w")
        define("GetMain", ["uv"], "(tex2D(sampler_main,uv).xyz)")
        define("GetPixel", ["uv"], "(tex2D(sampler_main,uv).xyz)")
        define("GetBlur1", ["uv"], "(tex2D(sampler_blur1,uv).xyz*_c5.x + _c5.y)")
        define("GetBlur2", ["uv"], "(tex2D(sampler_blur2,uv).xyz*_c5.z + _c5.w)")
        define("GetBlur3", ["uv"], "(tex2D(sampler_blur3,uv).xyz*_c6.x + _c6.y)")
        define("lum", ["x"], "(dot(x,float3(0.32,0.49,0.29)))")
        define("tex2d", "tex2D")
        define("tex3d", "tex3D")
        for mode in ["FC", "PC", "FW", "PW"] { define("sampler_\(mode)_main", "sampler_\(mode.lowercased())_main") }
        return table
    }()

    private static let xyzw = ["x", "y", "z", "w"]
    private static let qBanks = ["a", "b", "c", "d", "e", "f", "g", "h"]

    /// The uniform a header name stands for: its type and where it starts in the block (`_c0`…`_c13`,
    /// `_qa`…`_qh`, `rand_frame`, `rand_preset`, the 24 `rot_` matrices).
    static func uniform(_ name: String) -> (type: ShaderType, offset: Int32)? {
        uniforms[name]
    }

    private static let uniforms: [String: (type: ShaderType, offset: Int32)] = {
        var table: [String: (type: ShaderType, offset: Int32)] = [:]
        for c in 0..<14 { table["_c\(c)"] = (.float(4), Int32(ShaderUniforms.constantsOffset + 4 * c)) }
        for (i, bank) in qBanks.enumerated() { table["_q\(bank)"] = (.float(4), Int32(ShaderUniforms.qOffset + 4 * i)) }
        table["rand_frame"] = (.float(4), Int32(ShaderUniforms.randFrameOffset))
        table["rand_preset"] = (.float(4), Int32(ShaderUniforms.randPresetOffset))
        for (i, name) in ShaderUniforms.rotationNames.enumerated() {
            table[name] = (.matrix(.float, 4, 3), Int32(ShaderUniforms.rotationsOffset + 12 * i))
        }
        return table
    }()

    /// A sampler a name stands for (`sampler_main`, `sampler_fw_main`, `sampler_blur1`, `sampler_noise_lq`,
    /// `sampler_rand00`, `sampler_worms` ...): the texture's name and how it is read; nil when the name
    /// does not start with `sampler_`. As in MilkDrop, a two-letter prefix `fw_`, `fc_`, `pw_`, `pc_` (or
    /// reversed, any case) picks bilinear (`f`) or nearest (`p`) and wrapping (`w`) or clamping (`c`);
    /// without one the blur textures clamp and every other texture wraps, all bilinear.
    static func sampler(_ name: String) -> (texture: String, mode: SamplerMode)? {
        guard name.hasPrefix("sampler_") else { return nil }
        let use = SamplerName.use(name, isVolume: false)
        return (use.name, use.mode)
    }

    /// The 3-D textures MilkDrop provides (read with `tex3D`).
    static let volumeTextures: Set<String> = ["noisevol_lq", "noisevol_hq"]

    /// The per-pixel inputs of each kind of shader and their types. In the composite shader `uv_orig`
    /// is `uv` itself (MilkDrop defines both as the same register), so writing one changes the other.
    static func inputs(_ kind: MilkShaderKind) -> [(name: String, type: ShaderType, parts: [ShaderPixelInput])] {
        switch kind {
        case .warp:
            [("uv", .float(2), [.uvX, .uvY]), ("uv_orig", .float(2), [.uvOrigX, .uvOrigY]),
             ("rad", .float, [.rad]), ("ang", .float, [.ang])]
        case .composite:
            [("uv", .float(2), [.uvX, .uvY]), ("rad", .float, [.rad]), ("ang", .float, [.ang]),
             ("hue_shader", .float(3), [.hueR, .hueG, .hueB])]
        }
    }
}
