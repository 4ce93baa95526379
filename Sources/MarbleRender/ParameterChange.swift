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

    /// The changes that turn this scene into `other` when they differ only in the values of number
    /// parameters that can change in place (``Compositor/setNumberInPlace(_:)``): the same layers, blends,
    /// opacities and bindings. Nil when anything else differs: `other` then needs a compositor of its own.
    /// A parameter set on one side and left to its default on the other counts as a change to the value.
    package func numberChanges(to other: Preset) -> [ParameterChange]? {
        guard layers.count == other.layers.count else { return nil }
        var changes: [ParameterChange] = []
        for (i, (a, b)) in zip(layers, other.layers).enumerated() {
            guard a.shader == b.shader, a.blend == b.blend, a.opacity == b.opacity, a.bindings.keys == b.bindings.keys,
                  let type = ShaderLibrary.shader(named: a.shader) else { return nil }
            for (name, binding) in a.bindings where binding != b.bindings[name] {
                // Only the base of a binding moves in place; its feature, amount and smoothing do not.
                guard binding.feature == b.bindings[name]?.feature, binding.amount == b.bindings[name]?.amount,
                      binding.smoothing == b.bindings[name]?.smoothing else { return nil }
            }
            for name in Set(a.parameters.keys).union(b.parameters.keys).sorted() where a.parameters[name] != b.parameters[name] {
                guard let index = type.descriptor.index(of: name) else { return nil }
                let value: ParameterValue
                switch (b.parameters[name], type.descriptor.parameters[index].kind) {
                case (.number(let v)?, .number), (.number(let v)?, .integer): value = .number(v)
                case (nil, .number(let d, _)): value = .number(d)
                case (nil, .integer(let d, _)): value = .number(Double(d))
                default: return nil
                }
                // A binding with a base of its own ignores the parameter's value.
                if b.bindings[name]?.base != nil { continue }
                changes.append(ParameterChange(layer: i, name: name, value: value))
            }
            for (name, binding) in b.bindings where binding.base != a.bindings[name]?.base {
                guard let base = binding.base else { return nil }
                changes.append(ParameterChange(layer: i, name: name, value: .number(base)))
            }
        }
        return changes
    }

    /// The index of the layer `reference` names: a position (`"0"`, `"2"`), or a shader's name (its
    /// lowest layer drawing that shader); nil when there is none.
    public func layerIndex(_ reference: String) -> Int? {
        if let index = Int(reference) { return layers.indices.contains(index) ? index : nil }
        return layers.firstIndex { $0.shader == reference }
    }
}
