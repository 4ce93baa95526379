import MarbleCore

extension Compositor {
    /// Sets a number parameter of a layer in place, keeping every layer's state (feedback, particles,
    /// smoothing): a bound parameter's base moves, and the binding still adds the music on top. Returns
    /// false, changing nothing, when `change` is not a number for a number parameter of its layer (the
    /// caller then builds a new compositor from the preset with the change applied). Allocates nothing.
    package func setNumberInPlace(_ change: ParameterChange) -> Bool {
        guard layers.indices.contains(change.layer), case .number(let value) = change.value else { return false }
        let layer = layers[change.layer]
        guard let index = layer.parameters.descriptor.index(of: change.name),
              layer.parameters.descriptor.parameters[index].isBindable else { return false }
        if let b = layer.bindings.firstIndex(where: { $0.index == index }) {
            layer.bindings[b].base = value
        } else {
            layer.parameters.setNumber(at: index, value)
        }
        return true
    }

    /// Asks every layer that plays a list of its own (a MilkDrop folder) to move to its next entry at
    /// the next frame. Returns whether any layer plays such a list.
    @discardableResult
    package func skipToNext() -> Bool {
        var any = false
        for layer in layers {
            if let list = layer.shader as? any SkippingShader {
                list.skipToNext()
                any = true
            }
        }
        return any
    }
}
