import MarbleCore
import Shaders

/// A parameter of one layer set while a session plays (an OSC `/marble/param`), over the preset's own
/// value: kept until the preset changes.
public struct ParameterChange: Equatable, Sendable, Codable {
    /// The layer's position in the preset, bottom first, from 0.
    public var layer: Int
    /// The parameter's name in the layer's shader (see `marble effects`).
    public var name: String
    /// The new value.
    public var value: ParameterValue

    /// `name` of layer `layer` set to `value`.
    public init(layer: Int, name: String, value: ParameterValue) {
        self.layer = layer
        self.name = name
        self.value = value
    }
}

extension Preset {
    /// The preset with `changes` applied in order, each checked as the preset's own values are.
    /// - Throws: `.preset` naming the change that does not fit: no such layer, no such parameter, a
    ///   value of the wrong type or out of range.
    public func applying(_ changes: [ParameterChange]) throws(MarbleError) -> Preset {
        var preset = self
        for change in changes {
            guard preset.layers.indices.contains(change.layer) else {
                throw MarbleError(.preset, "\(name) has no layer \(change.layer) (layers 0-\(preset.layers.count - 1))")
            }
            var layer = preset.layers[change.layer]
            guard let type = ShaderLibrary.shader(named: layer.shader) else {
                throw MarbleError(.preset, "\(name): layers[\(change.layer)].shader: unknown shader \"\(layer.shader)\"")
            }
            guard type.descriptor.index(of: change.name) != nil else {
                throw MarbleError(.preset, "\(layer.shader) (layer \(change.layer)) has no parameter \"\(change.name)\"")
            }
            layer.parameters[change.name] = change.value
            do throws(ParameterError) {
                _ = try ShaderParameters(descriptor: type.descriptor, values: layer.parameters)
            } catch {
                throw MarbleError(.preset, "\(layer.shader).\(change.name) (layer \(change.layer)): \(error.message)")
            }
            preset.layers[change.layer] = layer
        }
        return preset
    }

    /// The index of the layer `reference` names: a position (`"0"`, `"2"`), or a shader's name (its
    /// lowest layer drawing that shader); nil when there is none.
    public func layerIndex(_ reference: String) -> Int? {
        if let index = Int(reference) { return layers.indices.contains(index) ? index : nil }
        return layers.firstIndex { $0.shader == reference }
    }
}
