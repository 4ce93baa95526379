/// A `.milk` preset as read from disk: its numeric settings and its code, not yet compiled or checked.
///
/// The format is MilkDrop's INI-like text: an optional `MILKDROP_PRESET_VERSION=…` line, a `[preset00]`
/// header, then `key=value` lines. Settings (`fDecay`, `zoom`, `nWaveMode`, `ob_size`, `b1n`, …) become
/// ``values`` with lower-cased keys; numbered code lines (`per_frame_N`, `per_pixel_N`, `wave_N_per_pointK`,
/// `warp_N` …) become ``CodeBlock``s. ``MilkPresetParser`` documents every spelling it accepts.
package struct MilkPresetFile: Sendable {
    /// Where the file was read from (as given to the parser).
    package var path: String
    /// `MILKDROP_PRESET_VERSION` (201 for MilkDrop 2.0 files); nil for 1.x files, which have none.
    package var version: Int?
    /// Numeric settings of the preset, keys lower-cased (`"fdecay"`, `"zoom"`, `"nwavemode"`, `"b1n"` …).
    /// Custom wave and shape settings are not here but in ``waves`` and ``shapes``.
    package var values: [String: Double]
    /// `per_frame_init_N`: run once when the preset starts.
    package var perFrameInit: CodeBlock
    /// `per_frame_N`: run once per frame.
    package var perFrame: CodeBlock
    /// `per_pixel_N`: run for each vertex of the warp mesh.
    package var perPixel: CodeBlock
    /// Always ``MilkDropLimits/customWaves`` entries, index 0 first (disabled waves included).
    package var waves: [CustomWaveCode]
    /// Always ``MilkDropLimits/customShapes`` entries, index 0 first (disabled shapes included).
    package var shapes: [CustomShapeCode]
    /// MilkDrop 2's HLSL warp shader (`warp_N` lines, the leading backtick removed); nil when it has no code.
    package var warpShader: CodeBlock?
    /// MilkDrop 2's HLSL composite shader (`comp_N` lines); nil when it has no code.
    package var compositeShader: CodeBlock?
    /// Lines that were read but ignored or overridden, with the reason (a value that is not a number,
    /// a repeated key, a wave index past the last wave …). Never a reason to reject the file.
    package var notes: [MilkPresetNote]
    /// How the bytes were decoded.
    package var encoding: MilkPresetEncoding

    /// A preset with no settings and no code (every wave and shape present and empty).
    package init(path: String) {
        self.path = path
        version = nil
        values = [:]
        perFrameInit = CodeBlock(); perFrame = CodeBlock(); perPixel = CodeBlock()
        waves = Array(repeating: CustomWaveCode(), count: MilkDropLimits.customWaves)
        shapes = Array(repeating: CustomShapeCode(), count: MilkDropLimits.customShapes)
        warpShader = nil; compositeShader = nil
        notes = []
        encoding = .utf8
    }

    /// The numeric setting `key`, in any letter case (`number("fDecay")` reads `fdecay`).
    package func number(_ key: String) -> Double? { values[key.lowercased()] }

    /// True when the preset has a warp or a composite HLSL shader (which a CPU renderer runs without).
    package var hasShaders: Bool { warpShader != nil || compositeShader != nil }
}

/// One custom wave's settings (`wavecode_N_*`, keys lower-cased: `enabled`, `samples`, `sep`, `bspectrum`,
/// `busedots`, `bdrawthick`, `badditive`, `scaling`, `smoothing`, `r`, `g`, `b`, `a` …) and code.
package struct CustomWaveCode: Sendable {
    package var values: [String: Double]
    /// `wave_N_initK`.
    package var initCode: CodeBlock
    /// `wave_N_per_frameK`.
    package var perFrame: CodeBlock
    /// `wave_N_per_pointK` (run for each point of the wave).
    package var perPoint: CodeBlock

    package init(values: [String: Double] = [:], initCode: CodeBlock = CodeBlock(),
                perFrame: CodeBlock = CodeBlock(), perPoint: CodeBlock = CodeBlock()) {
        self.values = values; self.initCode = initCode; self.perFrame = perFrame; self.perPoint = perPoint
    }

    /// The setting `key`, in any letter case.
    package func number(_ key: String) -> Double? { values[key.lowercased()] }
}

/// One custom shape's settings (`shapecode_N_*`, keys lower-cased: `enabled`, `sides`, `additive`,
/// `thickoutline`, `textured`, `num_inst`, `x`, `y`, `rad`, `ang`, `tex_ang`, `tex_zoom`, `r`…`a`,
/// `r2`…`a2`, `border_r`…`border_a` …) and code.
package struct CustomShapeCode: Sendable {
    package var values: [String: Double]
    /// `shape_N_initK`.
    package var initCode: CodeBlock
    /// `shape_N_per_frameK` (run for each instance).
    package var perFrame: CodeBlock

    package init(values: [String: Double] = [:], initCode: CodeBlock = CodeBlock(), perFrame: CodeBlock = CodeBlock()) {
        self.values = values; self.initCode = initCode; self.perFrame = perFrame
    }

    /// The setting `key`, in any letter case.
    package func number(_ key: String) -> Double? { values[key.lowercased()] }
}

/// A line the parser read but did not use as written.
package struct MilkPresetNote: Sendable, Equatable, CustomStringConvertible {
    /// 1-based line in the file.
    package var line: Int
    package var message: String
    package init(line: Int, message: String) { self.line = line; self.message = message }
    package var description: String { "line \(line): \(message)" }
}

/// The text encoding a preset file was read in.
package enum MilkPresetEncoding: Sendable, Equatable {
    /// Valid UTF-8 (plain ASCII included).
    case utf8
    /// Not valid UTF-8: each byte is one character (Latin-1), as old Windows-1252 comments need.
    case latin1
}

/// Why a preset file cannot be used at all; printed as `path:line: message` (or `path: message`).
package struct MilkPresetError: Error, CustomStringConvertible, Sendable {
    /// The kinds of failure, for grouping a corpus report.
    package enum Reason: String, Sendable, CaseIterable, Comparable {
        /// Missing, a dangling link, no permission, or an I/O error.
        case unreadable = "unreadable"
        /// A directory entry that is not a regular file (a pipe, a device).
        case notRegularFile = "not a regular file"
        /// Larger than ``MilkDropLimits/fileBytes``.
        case tooLarge = "too large"
        /// Holds NUL bytes: a binary file.
        case notText = "not a text file"
        /// Text with no preset setting and no code line.
        case noPresetContent = "no preset content"
        /// An equation that does not compile (``MilkPreset``).
        case doesNotCompile = "an equation does not compile"
        /// Its code runs past its work budget (``MilkDropLimits/workBudget``): refused when it loads,
        /// or stopped on the frame it ran out.
        case overBudget = "over the work budget"

        package static func < (a: Reason, b: Reason) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    package var path: String
    /// 1-based line of the problem, when it has one.
    package var line: Int?
    /// One line, e.g. `"NUL byte: not a text file"`.
    package var message: String
    package var reason: Reason

    package init(path: String, line: Int? = nil, message: String, reason: Reason) {
        self.path = path; self.line = line; self.message = message; self.reason = reason
    }

    package var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}
