/// Constructors and user functions (inlined at every call).
extension ShaderLowering {
    /// `float3(a, b)`: the arguments' components in order (one scalar fills every component).
    mutating func construct(_ type: ShaderType, _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> ShaderValue {
        var parts: [Int32] = []
        for a in arguments {
            let value = try expression(a)
            parts += try convert(value, to: value.type.with(type.base), line: line, explicit: true).parts
        }
        if parts.count == 1 { parts = Array(repeating: parts[0], count: type.count) }
        if arguments.count == 1 && parts.count > type.count { parts = Array(parts.prefix(type.count)) }
        guard parts.count == type.count else {
            throw ShaderFault(line, "\(type) needs \(type.count) components, not \(parts.count)", .typeMismatch)
        }
        return ShaderValue(type: type, parts: parts)
    }

    /// A user function's body, inlined with its parameters bound to the arguments.
    mutating func inline(_ name: String, _ overloads: [ShaderFunction], _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> ShaderValue {
        guard let function = overloads.first(where: { $0.parameters.count == arguments.count }) else {
            throw ShaderFault(line, "\(name) takes \(overloads[0].parameters.count) arguments, not \(arguments.count)", .typeMismatch)
        }
        if functions.contains(where: { $0.name == name }) {
            throw ShaderFault(line, "\(name) calls itself (recursion is not supported)", .unsupported("recursion"))
        }
        guard functions.count <= ShaderLimits.callDepth else {
            throw ShaderFault(line, "calls nested more than \(ShaderLimits.callDepth) deep", .tooLarge)
        }
        try step(line, cost: scopes[0].count / 32)
        let (bound, places) = try bindArguments(function, arguments, line: line)
        let (outputs, result) = try lowerBody(of: function, named: name, bound: bound)
        for (k, place) in places.enumerated() {
            guard let place else { continue }
            let value = ShaderValue(type: function.parameters[k].type, parts: outputs[k])
            try write(place, try convert(value, to: place.type, line: line, explicit: false))
        }
        guard let result, let type = function.returnType else {
            return ShaderValue(type: .float, parts: [emitter.constant(0)])
        }
        return ShaderValue(type: type, parts: values[result])
    }

    /// Each parameter's initial value (an `in` argument's value, an `inout` one's current value, zero for
    /// `out`), and the place an `out` or `inout` argument is written back to (nil for `in`).
    private mutating func bindArguments(_ function: ShaderFunction, _ arguments: [ShaderExpression],
                                        line: Int) throws(ShaderFault) -> ([ShaderValue], [Place?]) {
        var bound: [ShaderValue] = []
        var places: [Place?] = []
        for (parameter, argument) in zip(function.parameters, arguments) {
            if parameter.direction == .in {
                bound.append(try convert(try expression(argument), to: parameter.type, line: line, explicit: false))
                places.append(nil)
            } else {
                let place = try self.place(argument)
                places.append(place)
                let initial = parameter.direction == .inout ? read(place)
                    : ShaderValue(type: parameter.type, parts: Array(repeating: emitter.constant(0), count: parameter.type.count))
                bound.append(try convert(initial, to: parameter.type, line: line, explicit: false))
            }
        }
        return (bound, places)
    }

    /// Lowers `function`'s body in a scope of its own (the globals and its parameters, bound to `bound`),
    /// the caller's state restored after; the parameters' final values and the result variable, if any.
    private mutating func lowerBody(of function: ShaderFunction, named name: String,
                                    bound: [ShaderValue]) throws(ShaderFault) -> ([[Int32]], Int?) {
        let savedScopes = scopes, savedAlive = alive, savedLanes = lanes, savedLoops = loops, savedFunctions = functions
        // Restored however the body ends (an error unwinds through the caller's blocks too).
        defer { scopes = savedScopes; loops = savedLoops; lanes = savedLanes; alive = savedAlive; functions = savedFunctions }
        let globals = Array(scopes[0].values)
        let before = globals.map { values[$0] }
        lanes = try both(lanes, alive)
        alive = nil
        loops = []
        scopes = [scopes[0], [:]]
        var parameterIDs: [Int] = []
        for (parameter, value) in zip(function.parameters, bound) { parameterIDs.append(declare(parameter.name, parameter.type, value.parts)) }
        var result: Int?
        if let type = function.returnType {
            result = newFlag("$result")
            variables[result!].type = type
            bind(result!, Array(repeating: emitter.constant(0), count: type.count))
        }
        functions.append(FunctionFrame(name: name, returnType: function.returnType, result: result, returned: newFlag("$returned")))
        try lowerBlock(function.body)
        functions.removeLast()
        let outputs = parameterIDs.map { values[$0] }
        scopes = savedScopes
        loops = savedLoops
        lanes = savedLanes
        alive = savedAlive
        if let savedAlive { try keepGlobals(globals, as: before, whereNot: savedAlive) }
        return (outputs, result)
    }

    /// The `globals` the body changed, kept at their values from `before` the call in the lanes where
    /// `alive` (the caller's live-lane mask) is off.
    private mutating func keepGlobals(_ globals: [Int], as before: [[Int32]], whereNot alive: Int32) throws(ShaderFault) {
        for (k, id) in globals.enumerated() where values[id] != before[k] {
            var merged = before[k]
            for c in merged.indices where values[id][c] != before[k][c] {
                merged[c] = try emitter.ternary(.select, alive, values[id][c], before[k][c])
            }
            bind(id, merged)
        }
    }
}
