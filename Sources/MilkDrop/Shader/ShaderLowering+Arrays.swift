/// Arrays (`static const float4 taps[5] = { … };`): each element is a variable of its own, named
/// `taps[0]` … `taps[4]` (names no identifier can spell), and the array's variable holds their ids and
/// no value. An element read with a constant index (a literal, or a loop counter once the loop is
/// unrolled) is that variable; with a variable index it is a chain of selects over the elements, as
/// `v[i]` is for a vector's components. Writes need a constant index.
extension ShaderLowering {
    /// Declares the array `name` of `length` elements of `element`, bound to `initializer`'s values (a
    /// list, parsed as a call of the element type with every item: their components fill the elements
    /// in order) or to 0.
    mutating func declareArray(_ name: String, of element: ShaderType, length: Int, initializer: ShaderExpression?,
                               line: Int) throws(ShaderFault) {
        var parts: [Int32]
        if let initializer {
            guard case .call(_, let items) = initializer.kind else {
                throw ShaderFault(line, "the array \(name) is initialised with a list in braces", .unsupported("array"))
            }
            parts = []
            for item in items {
                let value = try expression(item)
                parts += try convert(value, to: value.type.with(element.base), line: line, explicit: true).parts
            }
            guard parts.count == length * element.count else {
                throw ShaderFault(line, "\(element) \(name)[\(length)] needs \(length * element.count) values, not \(parts.count)", .typeMismatch)
            }
        } else {
            parts = Array(repeating: emitter.constant(0), count: length * element.count)
        }
        var ids: [Int] = []
        for k in 0..<length {
            let start = k * element.count
            ids.append(declare("\(name)[\(k)]", element, Array(parts[start..<(start + element.count)])))
        }
        let array = declare(name, element, [])
        variables[array].elements = ids
    }

    /// The element variables of `e` when it names an array, nil for anything else.
    func arrayElements(_ e: ShaderExpression) -> [Int]? {
        guard case .name(let name) = e.kind, let id = lookup(name), !variables[id].elements.isEmpty else { return nil }
        return variables[id].elements
    }

    /// `array[index]`: the element, or for a variable index the one it selects (clamped into range,
    /// as a shader's out-of-range constant read gives an edge register rather than failing).
    mutating func element(of elements: [Int], at index: ShaderValue, line: Int) throws(ShaderFault) -> ShaderValue {
        let type = variables[elements[0]].type
        guard let i = index.parts.first, index.type.isScalar else { throw ShaderFault(line, "an array index is one number", .typeMismatch) }
        if let k = emitter.constantValue(i) {
            guard k >= 0, k < Float(elements.count) else { throw ShaderFault(line, "index \(k) out of range", .typeMismatch) }
            return ShaderValue(type: type, parts: values[elements[Int(k)]])
        }
        var parts = values[elements[0]]
        for r in 1..<elements.count {
            let hit = try emitter.binary(.greaterEqual, i, emitter.constant(Float(r)))
            let other = values[elements[r]]
            for c in parts.indices { parts[c] = try emitter.ternary(.select, hit, other[c], parts[c]) }
        }
        return ShaderValue(type: type, parts: parts)
    }

    /// The place `array[index]` names, for a write: the index must be a constant.
    mutating func elementPlace(of elements: [Int], at index: ShaderExpression, line: Int) throws(ShaderFault) -> Place {
        let value = try expression(index)
        guard let i = value.parts.first, value.type.isScalar, let k = emitter.constantValue(i) else {
            throw ShaderFault(line, "assigning through a variable index is not supported", .unsupported("dynamic index write"))
        }
        guard k >= 0, k < Float(elements.count) else { throw ShaderFault(line, "index \(k) out of range", .typeMismatch) }
        let id = elements[Int(k)]
        return Place(variable: id, indices: Array(0..<variables[id].type.count), type: variables[id].type)
    }
}
