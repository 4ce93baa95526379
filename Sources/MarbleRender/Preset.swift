import Foundation
import Shaders
import Yams
import MarbleCore

/// A scene as a person writes it: a YAML file of layers, bottom first.
///
/// ```yaml
/// name: spectrum
/// description: Gradient, mirrored bars that follow the bass, and a waveform.
/// layers:
///   - shader: gradient
///     parameters: { from: "#10002b", to: "#240046" }
///   - shader: bars
///     blend: add            # normal | add | screen | multiply
///     opacity: 0.9          # 0…1
///     parameters: { count: 64, mirror: true }
///     bind:                 # parameter: base + amount × feature, smoothed
///       height: { feature: bass, amount: 0.25, smoothing: 0.5 }
/// analysis:                 # optional: how the sound is measured (see `PresetAnalysis`)
///   noise_floor: -60
///   dynamics: 0.7
/// ```
/// Every field is checked before the first frame; errors name the file, the field and the problem.
public struct Preset: Sendable, Equatable {
    /// The preset's name (a bundled preset's is its file name without `.yaml`).
    public var name: String
    /// One sentence for `marble effects`.
    public var description: String
    /// The layers, bottom first.
    public var layers: [LayerSpec]
    /// Where it was read from ("built-in" names resolve to Samples/Presets/NAME.yaml).
    public var source: String
    /// How the sound is measured for these layers (frequency layout, noise floor, sensitivity,
    /// dynamics); empty: the engine's defaults.
    public var analysis: PresetAnalysis

    /// A preset made in code; `source` names it in error messages.
    public init(name: String, description: String = "", layers: [LayerSpec], source: String = "(inline)",
                analysis: PresetAnalysis = PresetAnalysis()) {
        self.name = name
        self.description = description
        self.layers = layers
        self.source = source
        self.analysis = analysis
    }
}

/// One layer of a preset.
public struct LayerSpec: Sendable, Equatable {
    /// The shader's name (see `marble effects`).
    public var shader: String
    /// How the layer combines with what is under it.
    public var blend: BlendMode
    /// The layer's opacity, 0…1.
    public var opacity: Double
    /// Parameter values by name, validated against the shader's table; missing ones take their defaults.
    public var parameters: [String: ParameterValue]
    /// Numeric parameters that follow the music, by parameter name.
    public var bindings: [String: Binding]

    /// A layer drawing `shader`; by default normal blending, fully opaque, default parameters and no bindings.
    public init(shader: String, blend: BlendMode = .normal, opacity: Double = 1,
                parameters: [String: ParameterValue] = [:], bindings: [String: Binding] = [:]) {
        self.shader = shader
        self.blend = blend
        self.opacity = opacity
        self.parameters = parameters
        self.bindings = bindings
    }
}

/// A numeric parameter following an audio feature: value = base + amount × feature, smoothed.
public struct Binding: Sendable, Equatable, Codable {
    /// A scalar feature name (see `AudioFeatures.scalarNames`).
    public var feature: String
    /// How much the feature moves the value: value = base + amount × feature (may be negative).
    public var amount: Double
    /// The value at feature 0; defaults to the parameter's own value.
    public var base: Double?
    /// 0 = follow instantly … 0.99 = very slow.
    public var smoothing: Double

    /// A binding to `feature`; see the properties for the other values.
    public init(feature: String, amount: Double, base: Double? = nil, smoothing: Double = 0) {
        self.feature = feature
        self.amount = amount
        self.base = base
        self.smoothing = smoothing
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case feature, amount, base, smoothing }
    /// Decodes a binding from a preset; `amount` defaults to 1 and `smoothing` to 0 when omitted.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        feature = try c.decode(String.self, forKey: .feature)
        amount = try c.decodeIfPresent(Double.self, forKey: .amount) ?? 1
        base = try c.decodeIfPresent(Double.self, forKey: .base)
        smoothing = try c.decodeIfPresent(Double.self, forKey: .smoothing) ?? 0
    }
}

extension Preset {
    /// The file format, decoded strictly (unknown keys are errors, so typos do not pass silently).
    private struct File: Decodable {
        var name: String?
        var description: String?
        var layers: [Layer]
        var analysis: PresetAnalysis?
        struct Layer: Decodable {
            var shader: String
            var blend: String?
            var opacity: Double?
            var parameters: [String: ParameterValue]?
            var bind: [String: Binding]?
            enum CodingKeys: String, CodingKey, CaseIterable { case shader, blend, opacity, parameters, bind }
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case name, description, layers, analysis }
    }

    /// Parses and validates preset text. `source` names the file in error messages.
    public static func parse(_ text: String, source: String) throws(MarbleError) -> Preset {
        func fail(_ field: String, _ problem: String) -> MarbleError {
            MarbleError(.preset, "\(source): \(field.isEmpty ? "" : field + ": ")\(problem)")
        }
        try PresetTextShape.check(text, source: source)
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            throw fail("", "not valid YAML (\(String(describing: error).split(separator: "\n").first ?? ""))")
        }
        guard let node, let mapping = node.mapping else { throw fail("", "expected a mapping with a `layers` list") }
        for key in mapping.keys.compactMap(\.string) where File.CodingKeys(rawValue: key) == nil {
            throw fail(key, "unknown field (expected one of: name, description, layers, analysis)")
        }
        for key in mapping["analysis"]?.mapping?.keys.compactMap(\.string) ?? [] where PresetAnalysis.CodingKeys(rawValue: key) == nil {
            throw fail("analysis.\(key)", "unknown field (expected one of: \(PresetAnalysis.CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        if let layers = mapping["layers"]?.sequence {
            for (i, layer) in layers.enumerated() {
                for key in layer.mapping?.keys.compactMap(\.string) ?? [] where File.Layer.CodingKeys(rawValue: key) == nil {
                    throw fail("layers[\(i)].\(key)", "unknown field (expected one of: shader, blend, opacity, parameters, bind)")
                }
                // Every level is checked: a typo inside a binding (`amout`, `smothing`) would otherwise
                // be dropped silently and the binding take its default.
                for (parameter, binding) in layer.mapping?["bind"]?.mapping ?? [:] {
                    let known = Binding.CodingKeys.allCases.map(\.rawValue)
                    for key in binding.mapping?.keys.compactMap(\.string) ?? [] where !known.contains(key) {
                        throw fail("layers[\(i)].bind.\(parameter.string ?? "?").\(key)",
                                   "unknown field (expected one of: \(known.joined(separator: ", ")))")
                    }
                }
            }
        }
        let file: File
        do { file = try YAMLDecoder().decode(File.self, from: node) } catch let error as DecodingError {
            throw fail(Preset.path(of: error), Preset.problem(of: error))
        } catch {
            throw fail("", "\(error)")
        }
        guard !file.layers.isEmpty else { throw fail("layers", "needs at least one layer") }
        var layers: [LayerSpec] = []
        for (i, l) in file.layers.enumerated() {
            let field = "layers[\(i)]"
            var blend = BlendMode.normal
            if let b = l.blend {
                guard let mode = BlendMode(rawValue: b) else {
                    throw fail("\(field).blend", "unknown blend mode \"\(b)\" (expected one of: \(BlendMode.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                blend = mode
            }
            let opacity = l.opacity ?? 1
            guard (0...1).contains(opacity) else { throw fail("\(field).opacity", "\(opacity) is out of range 0…1") }
            layers.append(LayerSpec(shader: l.shader, blend: blend, opacity: opacity,
                                    parameters: l.parameters ?? [:], bindings: l.bind ?? [:]))
        }
        let preset = Preset(name: file.name ?? URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent,
                            description: file.description ?? "", layers: layers, source: source,
                            analysis: file.analysis ?? PresetAnalysis())
        try preset.validate()
        return preset
    }

    /// Checks shader names, parameters and bindings against the shader tables, and the analysis section's ranges.
    public func validate() throws(MarbleError) {
        try analysis.validate(source: source)
        for (i, layer) in layers.enumerated() {
            let field = "layers[\(i)]"
            guard let type = ShaderLibrary.shader(named: layer.shader) else {
                throw MarbleError(.preset, "\(source): \(field).shader: unknown shader \"\(layer.shader)\" (see `marble effects`)")
            }
            do {
                _ = try ShaderParameters(descriptor: type.descriptor, values: layer.parameters)
            } catch {
                throw MarbleError(.preset, "\(source): \(field).parameters.\(error.parameter): \(error.message)")
            }
            for (name, binding) in layer.bindings.sorted(by: { $0.key < $1.key }) {
                let at = "\(field).bind.\(name)"
                guard let p = type.descriptor.parameters.first(where: { $0.name == name }) else {
                    throw MarbleError(.preset, "\(source): \(at): \(layer.shader) has no parameter \"\(name)\"")
                }
                guard p.isBindable else {
                    throw MarbleError(.preset, "\(source): \(at): only number parameters can follow audio (\(name) is \(p.rangeDescription))")
                }
                guard AudioFeatures.scalarNames.contains(binding.feature) else {
                    throw MarbleError(.preset, "\(source): \(at).feature: unknown feature \"\(binding.feature)\" (expected one of: \(AudioFeatures.scalarNames.joined(separator: ", ")))")
                }
                guard binding.amount.isFinite else {
                    throw MarbleError(.preset, "\(source): \(at).amount: \(binding.amount) is not a finite number")
                }
                if let base = binding.base, !base.isFinite {
                    throw MarbleError(.preset, "\(source): \(at).base: \(base) is not a finite number")
                }
                guard (0...0.999).contains(binding.smoothing) else {
                    throw MarbleError(.preset, "\(source): \(at).smoothing: \(binding.smoothing) is out of range 0…0.999")
                }
            }
        }
    }

    private static func path(of error: DecodingError) -> String {
        let path: [CodingKey]
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): path = c.codingPath
        case .keyNotFound(let key, let c): path = c.codingPath + [key]
        @unknown default: path = []
        }
        return path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            .replacingOccurrences(of: ".[", with: "[").trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    private static func problem(of error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, _): "expected \(type == Double.self ? "a number" : type == String.self ? "text" : "\(type)")"
        case .valueNotFound: "missing value"
        case .keyNotFound: "required field is missing"
        case .dataCorrupted(let c): c.debugDescription
        @unknown default: "invalid"
        }
    }
}
