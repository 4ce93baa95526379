import Foundation
import MarbleCore
import MarbleRender
import Yams

/// The page's LOOK: a preset as JSON, with the fields of the preset file (docs/PRESETS.md).
///
/// A look is read by the preset loader itself (`Preset.parse`): JSON is YAML, so a look gets the very
/// checks and messages a preset file gets (unknown fields, shaders, parameters out of range, unknown
/// features). And a look is written back as the preset file `marble render --preset` reads.
package enum StudioLook {
    /// The largest look read, in bytes (the preset loader then holds it to its own 256 KB).
    package static let maximumBytes = 1 << 20

    /// The preset a look's JSON describes. `source` names it in messages ("look").
    /// - Throws: `.preset` with the loader's message (or one naming the bound broken).
    package static func parse(json: [UInt8], source: String) throws(MarbleError) -> Preset {
        guard json.count <= maximumBytes else {
            throw MarbleError(.preset, "\(source): \(json.count) bytes, larger than the \(maximumBytes >> 20) MB a look may be")
        }
        guard let text = String(validating: json, as: UTF8.self) else {
            throw MarbleError(.preset, "\(source): not UTF-8 text")
        }
        guard json.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") else {
            throw MarbleError(.preset, "\(source): expected a JSON object with a `layers` list")
        }
        return try Preset.parse(yamlSpelling(of: text), source: source)
    }

    /// JSON text spelled so that YAML reads it the same: tabs (which separate JSON tokens but may not
    /// indent YAML) become spaces, and a character escaped as a UTF-16 surrogate pair (`\ud83d\ude00`,
    /// which YAML refuses) is escaped whole (`\U0001f600`). JSON strings hold no raw tab, so only the
    /// space between tokens changes.
    static func yamlSpelling(of text: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        func unit(at j: Int) -> UInt32? {
            guard j + 5 < scalars.count, scalars[j] == "\\", scalars[j + 1] == "u" else { return nil }
            return UInt32(String(String.UnicodeScalarView(scalars[(j + 2)..<(j + 6)])), radix: 16)
        }
        while i < scalars.count {
            let c = scalars[i]
            if c == "\t" {
                out.append(" ")
                i += 1
            } else if c == "\\", i + 1 < scalars.count {
                if let high = unit(at: i), (0xD800...0xDBFF).contains(high), let low = unit(at: i + 6), (0xDC00...0xDFFF).contains(low) {
                    let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    let hex = String(value, radix: 16)
                    out.append(contentsOf: ("\\U" + String(repeating: "0", count: 8 - hex.count) + hex).unicodeScalars)
                    i += 12
                } else {
                    out.append(c)
                    out.append(scalars[i + 1])  // an escape's second character is never the start of another
                    i += 2
                }
            } else {
                out.append(c)
                i += 1
            }
        }
        return String(out)
    }

    /// The preset a look's JSON describes (see ``parse(json:source:)``).
    package static func parse(json: Data, source: String) throws(MarbleError) -> Preset {
        try parse(json: [UInt8](json), source: source)
    }

    /// The look of a value decoded by `JSONSerialization` (the `look` field of a request's body).
    package static func parse(jsonObject: Any, source: String) throws(MarbleError) -> Preset {
        guard JSONSerialization.isValidJSONObject(jsonObject),
              let data = try? JSONSerialization.data(withJSONObject: jsonObject, options: [.withoutEscapingSlashes]) else {
            throw MarbleError(.preset, "\(source): expected a JSON object with a `layers` list")
        }
        return try parse(json: data, source: source)
    }

    /// The look of a preset, as JSON: `name`, `description`, `layers` (`shader`, `blend`, `opacity`,
    /// `parameters`, `bind`) and `analysis`, keys sorted.
    package static func json(of preset: Preset) throws(MarbleError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return [UInt8](try encoder.encode(File(preset)))
        } catch {
            throw MarbleError(.preset, "\(preset.source): cannot be written as JSON (\(error))")
        }
    }

    /// The preset file of a preset: YAML with the keys in the file's order, parameters by name, numbers
    /// as Swift prints them (the shortest text that reads back as the same number), and every text
    /// value quoted (so `"64"` or `"yes"` stay text). `PresetLibrary.load` reads it back as `preset`.
    package static func yaml(of preset: Preset) throws(MarbleError) -> String {
        var top: [(String, Node)] = [("name", word(preset.name))]
        if !preset.description.isEmpty { top.append(("description", quoted(preset.description))) }
        top.append(("layers", Node.sequence(Node.Sequence(preset.layers.map(layer)))))
        if !preset.analysis.isEmpty { top.append(("analysis", analysis(preset.analysis))) }
        do {
            return try Yams.serialize(node: mapping(top), width: -1, allowUnicode: true)
        } catch {
            throw MarbleError(.preset, "\(preset.source): cannot be written as YAML (\(error))")
        }
    }

    // MARK: YAML nodes

    private static func layer(_ layer: LayerSpec) -> Node {
        var pairs: [(String, Node)] = [("shader", word(layer.shader)), ("blend", word(layer.blend.rawValue)),
                                       ("opacity", number(layer.opacity))]
        if !layer.parameters.isEmpty {
            pairs.append(("parameters", mapping(layer.parameters.sorted { $0.key < $1.key }.map { ($0.key, value($0.value)) })))
        }
        if !layer.bindings.isEmpty {
            pairs.append(("bind", mapping(layer.bindings.sorted { $0.key < $1.key }.map { ($0.key, binding($0.value)) })))
        }
        return mapping(pairs)
    }

    private static func binding(_ binding: Binding) -> Node {
        var pairs: [(String, Node)] = [("feature", word(binding.feature)), ("amount", number(binding.amount))]
        if let base = binding.base { pairs.append(("base", number(base))) }
        pairs.append(("smoothing", number(binding.smoothing)))
        return mapping(pairs)
    }

    private static func analysis(_ a: PresetAnalysis) -> Node {
        let numbers: [(String, Double?)] = [
            ("bands", a.bands.map(Double.init)), ("min_frequency", a.minFrequency), ("max_frequency", a.maxFrequency),
            ("noise_floor", a.noiseFloor), ("sensitivity", a.sensitivity),
        ]
        let more: [(String, Double?)] = [
            ("dynamics", a.dynamics), ("tilt", a.tilt), ("gravity", a.gravity), ("attack", a.attack), ("release", a.release),
        ]
        var pairs: [(String, Node)] = a.layout.map { [("layout", word($0))] } ?? []
        pairs += numbers.compactMap { key, v in v.map { (key, number($0)) } }
        if let auto = a.autoSensitivity { pairs.append(("auto_sensitivity", flag(auto))) }
        pairs += more.compactMap { key, v in v.map { (key, number($0)) } }
        return mapping(pairs)
    }

    private static func value(_ value: ParameterValue) -> Node {
        switch value {
        case .number(let d): number(d)
        case .text(let s): quoted(s)
        case .flag(let b): flag(b)
        }
    }

    private static func mapping(_ pairs: [(String, Node)]) -> Node {
        Node.mapping(Node.Mapping(pairs.map { (word($0.0), $0.1) }))
    }

    /// A number as Swift prints it (round-trip exact), integers without `.0`.
    private static func number(_ d: Double) -> Node {
        let text = d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        return Node.scalar(Node.Scalar(text, Tag(.float), .plain))
    }

    private static func flag(_ b: Bool) -> Node { Node.scalar(Node.Scalar(b ? "true" : "false", Tag(.bool), .plain)) }

    private static func quoted(_ s: String) -> Node { Node.scalar(Node.Scalar(s, Tag(.str), .doubleQuoted)) }

    /// A name written plain when it reads back as the same text (a word that is not a YAML keyword),
    /// else quoted.
    private static func word(_ s: String) -> Node {
        let plain = s.first.map { $0.isLetter && $0.isASCII } == true
            && s.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }
            && !keywords.contains(s.lowercased())
        return Node.scalar(Node.Scalar(s, Tag(.str), plain ? .plain : .doubleQuoted))
    }

    /// Plain words YAML 1.1 reads as something other than text.
    private static let keywords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf"]

    // MARK: JSON

    /// The look's JSON shape (the preset file's fields).
    private struct File: Encodable {
        var name: String
        var description: String
        var layers: [Layer]
        var analysis: PresetAnalysis
        struct Layer: Encodable {
            var shader: String
            var blend: String
            var opacity: Double
            var parameters: [String: ParameterValue]
            var bind: [String: Binding]
        }

        init(_ preset: Preset) {
            name = preset.name
            description = preset.description
            layers = preset.layers.map {
                Layer(shader: $0.shader, blend: $0.blend.rawValue, opacity: $0.opacity, parameters: $0.parameters, bind: $0.bindings)
            }
            analysis = preset.analysis
        }
    }
}
