import Foundation
import MarbleCore
import Shaders

/// What `marble effects --json` prints.
package struct EffectsCatalogue: Encodable, Sendable {
    package struct Parameter: Encodable, Sendable {
        var name: String, help: String, type: String, `default`: String, bindable: Bool
        var min: Double?, max: Double?, options: [String]?
    }
    package struct Shader: Encodable, Sendable {
        var name: String, kind: String, summary: String, opaque: Bool, parameters: [Parameter]
        package init(_ d: ShaderDescriptor) {
            name = d.name
            kind = d.kind.rawValue
            summary = d.summary
            opaque = d.isOpaque
            parameters = d.parameters.map { p in
                var out = Parameter(name: p.name, help: p.help, type: "", default: p.defaultDescription, bindable: p.isBindable)
                switch p.kind {
                case .number(_, let r): (out.type, out.min, out.max) = ("number", r.lowerBound, r.upperBound)
                case .integer(_, let r): (out.type, out.min, out.max) = ("integer", Double(r.lowerBound), Double(r.upperBound))
                case .color: out.type = "color"
                case .choice(_, let options): (out.type, out.options) = ("choice", options)
                case .flag: out.type = "flag"
                case .text: out.type = "text"
                }
                return out
            }
        }
    }
    package struct Layer: Encodable, Sendable { var shader: String, blend: String, opacity: Double, bound: [String] }
    package struct Preset: Encodable, Sendable {
        var name: String, description: String, layers: [Layer]
        /// The preset's `analysis:` section as written (absent when it has none).
        var analysis: PresetAnalysis?
    }
    package var shaders: [Shader], presets: [Preset], features: [String]
}

extension EffectsCatalogue {
    /// Every shader and bundled preset, or only the one called `name`; the features bindings follow.
    package init(named name: String? = nil) throws(MarbleError) {
        shaders = ShaderLibrary.all.map { $0.descriptor }.filter { name == nil || $0.name == name }.map(Shader.init)
        presets = []
        for n in PresetLibrary.names() where name == nil || n == name {
            let preset = try PresetLibrary.load(n)
            presets.append(Preset(name: n, description: preset.description, layers: preset.layers.map {
                Layer(shader: $0.shader, blend: $0.blend.rawValue, opacity: $0.opacity, bound: $0.bindings.keys.sorted())
            }, analysis: preset.analysis.isEmpty ? nil : preset.analysis))
        }
        features = AudioFeatures.scalarNames
    }

    /// The catalogue as JSON, keys sorted (what `marble effects --json` prints and the studio serves).
    package func json(pretty: Bool = false) throws(MarbleError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        guard let data = try? encoder.encode(self) else { throw MarbleError(.output, "cannot encode the catalogue") }
        return data
    }
}
