/// What one lower-cased `.milk` key names: a setting, a numbered code line, or a custom wave/shape setting.
///
/// Spellings (those found in Debian's projectm-data, MilkDrop 1.x and 2.x, and projectM's reader):
/// `per_frame_init_N`, `per_frame_N`, `per_pixel_N`, `warp_N`, `comp_N`; `wave_W_initN`,
/// `wave_W_per_frameN`, `wave_W_per_pointN`, `shape_S_initN`, `shape_S_per_frameN` (an underscore before
/// `N` is accepted too); `wavecode_W_name`, `shapecode_S_name`. Anything else is a plain setting
/// (`zoom`, `wave_x`, `fdecay`, `b1n`, `milkdrop_preset_version` …).
enum MilkPresetKey: Equatable {
    case setting(String)
    case code(CodeTarget, line: Int)
    case waveSetting(wave: Int, name: String)
    case shapeSetting(shape: Int, name: String)

    /// The block a numbered code line belongs to.
    enum CodeTarget: Hashable {
        case perFrameInit, perFrame, perPixel, warpShader, compositeShader
        case waveInit(Int), wavePerFrame(Int), wavePerPoint(Int)
        case shapeInit(Int), shapePerFrame(Int)
    }

    /// For a custom wave or shape line: "wave" or "shape", its index, and how many there are.
    var customElement: (kind: String, index: Int, limit: Int)? {
        let waves = MilkDropLimits.customWaves, shapes = MilkDropLimits.customShapes
        switch self {
        case .setting: return nil
        case .waveSetting(let w, _): return ("wave", w, waves)
        case .shapeSetting(let s, _): return ("shape", s, shapes)
        case .code(let target, _):
            switch target {
            case .perFrameInit, .perFrame, .perPixel, .warpShader, .compositeShader: return nil
            case .waveInit(let w), .wavePerFrame(let w), .wavePerPoint(let w): return ("wave", w, waves)
            case .shapeInit(let s), .shapePerFrame(let s): return ("shape", s, shapes)
            }
        }
    }

    /// Classifies a key already lower-cased.
    init(_ key: String) {
        let k = Substring(key)
        let simple: [(String, CodeTarget)] = [
            ("per_frame_init_", .perFrameInit), ("per_frame_", .perFrame), ("per_pixel_", .perPixel),
            ("warp_", .warpShader), ("comp_", .compositeShader),
        ]
        for (prefix, target) in simple {
            if let rest = k.dropPrefix(prefix), let n = rest.smallNumber {
                self = .code(target, line: n); return
            }
        }
        if let rest = k.dropPrefix("wavecode_"), let (w, name) = rest.indexAndName {
            self = .waveSetting(wave: w, name: name); return
        }
        if let rest = k.dropPrefix("shapecode_"), let (s, name) = rest.indexAndName {
            self = .shapeSetting(shape: s, name: name); return
        }
        if let rest = k.dropPrefix("wave_"), let (w, name) = rest.indexAndName {
            let parts: [(String, (Int) -> CodeTarget)] = [
                ("init", CodeTarget.waveInit), ("per_frame", CodeTarget.wavePerFrame), ("per_point", CodeTarget.wavePerPoint),
            ]
            for (word, target) in parts {
                if let n = Substring(name).numberAfter(word) { self = .code(target(w), line: n); return }
            }
        }
        if let rest = k.dropPrefix("shape_"), let (s, name) = rest.indexAndName {
            let parts: [(String, (Int) -> CodeTarget)] = [("init", CodeTarget.shapeInit), ("per_frame", CodeTarget.shapePerFrame)]
            for (word, target) in parts {
                if let n = Substring(name).numberAfter(word) { self = .code(target(s), line: n); return }
            }
        }
        self = .setting(key)
    }
}

extension Substring {
    /// Without the ASCII `prefix` (compared byte by byte), or nil when it does not start with it.
    func dropPrefix(_ prefix: String) -> Substring? {
        utf8.starts(with: prefix.utf8) ? Substring(utf8.dropFirst(prefix.utf8.count)) : nil
    }

    /// The whole substring as a non-negative decimal of 1…9 digits (no sign, no spaces).
    var smallNumber: Int? {
        guard !isEmpty, utf8.count <= 9, utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(self)
    }

    /// `"2_name"` → (2, "name").
    var indexAndName: (Int, String)? {
        guard let underscore = firstIndex(of: "_"), let n = self[startIndex..<underscore].smallNumber else { return nil }
        let name = self[index(after: underscore)...]
        return name.isEmpty ? nil : (n, String(name))
    }

    /// `"per_point12"` or `"per_point_12"` after `word` = `"per_point"` → 12.
    func numberAfter(_ word: String) -> Int? {
        guard var rest = dropPrefix(word) else { return nil }
        if rest.first == "_" { rest = rest.dropFirst() }
        return rest.smallNumber
    }
}
