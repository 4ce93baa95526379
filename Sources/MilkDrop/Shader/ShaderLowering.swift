/// A scalarised value: its type and one virtual register per component (row-major for matrices).
struct ShaderValue {
    var type: ShaderType
    var parts: [Int32]
}

/// Turns a parsed shader into straight-line operations over virtual registers (``ShaderEmitter``):
/// user functions are inlined, vectors and matrices scalarised, branches predicated.
///
/// Variables are not registers but *bindings*: each holds the registers of its current value, so an
/// assignment only rebinds and straight code needs no moves. Control flow is predicated:
/// - `if`: both branches are lowered from the same bindings, then each variable they changed is merged
///   with a `select` on the condition (a constant condition lowers only its branch).
/// - `return`, `break`, `continue` set a flag variable and make the rest of their block *dead* for the
///   lanes that took them: ``alive`` is the condition (a register, nil for "every lane") under which
///   the current statement runs, and an assignment where it is not nil keeps the old value elsewhere.
/// - Loops whose condition folds to a constant on every iteration are unrolled (up to
///   ``ShaderLimits/unrolledIterations``); others run masked: the variables the loop changes live in
///   fixed registers updated by `select(mask, new, old)`, and `loopBack` repeats while a lane is active.
struct ShaderLowering {
    var emitter = ShaderEmitter()
    let kind: MilkShaderKind

    struct Variable {
        var name: String
        /// An array's element type.
        var type: ShaderType
        /// An array's element variables (empty for every other variable; an array has no value itself).
        var elements: [Int] = []
    }
    /// Every variable ever declared (ids are indices; a variable's id is never reused).
    var variables: [Variable] = []
    /// The current value of each variable (`values[id]`), the bindings.
    var values: [[Int32]] = []
    /// Every variable rebound, in order: an `if` merges only the variables its branches rebound.
    var rebound: [Int] = []
    /// Name → variable id, innermost scope last. Index 0 holds the globals.
    var scopes: [[String: Int]] = [[:]]

    /// The condition under which the current statement runs, relative to ``lanes`` (nil: always).
    var alive: Int32?
    /// The lanes active where the current region (a branch, a loop's body, a function) started (nil:
    /// all); only loops need it, to start their masks from the lanes that really run.
    var lanes: Int32?

    struct FunctionFrame {
        var name: String
        var returnType: ShaderType?
        /// The variable holding the value returned so far, and the flag of lanes that returned.
        var result: Int?
        var returned: Int
    }
    var functions: [FunctionFrame] = []
    struct LoopFrame { var broke: Int; var continued: Int }
    var loops: [LoopFrame] = []

    var userFunctions: [String: [ShaderFunction]] = [:]
    /// Sampler slots as the lowering met them (renumbered by the optimiser to those really read).
    var samplers: [ShaderSamplerUse] = []
    /// Names declared with `sampler`/`sampler2D`/`sampler3D`.
    var declaredSamplers: Set<String> = []
    /// Names assigned by each user function's body (globals it may change), for loops' carried sets.
    var assignedByFunction: [String: Set<String>] = [:]

    /// Statements and expressions walked so far (see ``ShaderLimits/loweringSteps``).
    var steps = 0

    init(kind: MilkShaderKind) { self.kind = kind }

    /// Counts one more statement or expression walked, and `cost` more for work that grows with the
    /// number of variables (a branch copies their bindings).
    mutating func step(_ line: Int, cost: Int = 0) throws(ShaderFault) {
        steps += 1 + cost
        guard steps <= ShaderLimits.loweringSteps else {
            throw ShaderFault(line, "the shader unrolls or inlines into too much code", .tooLarge)
        }
    }

    // MARK: the whole shader

    /// Lowers `source`; gives `ret`'s red, green and blue registers.
    mutating func lower(_ source: ShaderSource) throws(ShaderFault) -> [Int32] {
        for name in ShaderHeaderUniformNames.all {
            if let (type, offset) = ShaderHeader.uniform(name) {
                let parts = (0..<type.count).map { emitter.preload(.uniform(offset + Int32($0))) }
                _ = declare(name, type, parts)
            }
        }
        for item in source.items {
            switch item {
            case .global(let declaration):
                try declare(declaration, isGlobal: true)
            case .sampler(let name, _):
                declaredSamplers.insert(name)
            case .function(let function):
                userFunctions[function.name, default: []].append(function)
            }
        }
        scopes.append([:])
        for input in ShaderHeader.inputs(kind) {
            _ = declare(input.name, input.type, input.parts.map { emitter.preload(.input($0)) })
        }
        if kind == .composite, let uv = scopes.last?["uv"] { scopes[scopes.count - 1]["uv_orig"] = uv }
        let ret = declare("ret", .float(3), Array(repeating: emitter.constant(0), count: 3))
        let returned = newFlag("$returned")
        functions.append(FunctionFrame(name: "shader_body", returnType: nil, result: nil, returned: returned))
        try lowerBlock(source.body)
        return values[ret]
    }

    // MARK: variables

    /// A new variable named `name` in the innermost scope, bound to `parts`.
    mutating func declare(_ name: String, _ type: ShaderType, _ parts: [Int32]) -> Int {
        variables.append(Variable(name: name, type: type))
        values.append(parts)
        scopes[scopes.count - 1][name] = variables.count - 1
        return variables.count - 1
    }

    /// A boolean flag outside every scope, starting at 0.
    mutating func newFlag(_ name: String) -> Int {
        variables.append(Variable(name: name, type: .bool))
        values.append([emitter.constant(0)])
        return variables.count - 1
    }

    func lookup(_ name: String) -> Int? {
        for scope in scopes.reversed() { if let id = scope[name] { return id } }
        return nil
    }

    /// Rebinds variable `id` to `parts` (everywhere: see ``assign(_:_:)`` for the guarded form).
    mutating func bind(_ id: Int, _ parts: [Int32]) {
        values[id] = parts
        rebound.append(id)
    }

    /// Binds variable `id` to `parts` where the current statement runs (keeping the old value elsewhere).
    mutating func assign(_ id: Int, _ parts: [Int32]) throws(ShaderFault) {
        let old = values[id]
        guard let alive else { bind(id, parts); return }
        if emitter.constantValue(alive) == 0 { return }
        var merged = old
        for k in parts.indices where parts[k] != old[k] { merged[k] = try emitter.ternary(.select, alive, parts[k], old[k]) }
        bind(id, merged)
    }

    /// Declares each name of `declaration`, bound to its initialiser or to 0. A global that is neither
    /// `static` nor `const` is, in HLSL, a uniform the host sets; MilkDrop sets none, and here it holds
    /// its initialiser, what the preset's author wrote. `float4 texsize_NAME;` and re-declared header
    /// uniforms declare nothing (the names already mean the texture's size and the uniform).
    mutating func declare(_ declaration: ShaderDeclaration, isGlobal: Bool) throws(ShaderFault) {
        for (name, initializer, line) in declaration.names {
            if let length = declaration.arrayLengths[name] {
                try declareArray(name, of: declaration.type, length: length, initializer: initializer, line: line)
                continue
            }
            var parts: [Int32]
            if let initializer {
                parts = try convert(try expression(initializer), to: declaration.type, line: line, explicit: false).parts
            } else {
                parts = Array(repeating: emitter.constant(0), count: declaration.type.count)
            }
            if isGlobal, name.hasPrefix("texsize_") || ShaderHeader.uniform(name) != nil { continue }
            _ = declare(name, declaration.type, parts)
        }
    }

    // MARK: statements

    mutating func lowerBlock(_ statements: [ShaderStatement]) throws(ShaderFault) {
        scopes.append([:])
        defer { scopes.removeLast() }
        for statement in statements {
            if let alive, emitter.constantValue(alive) == 0 { return }
            try lower(statement)
        }
    }

    mutating func lower(_ statement: ShaderStatement) throws(ShaderFault) {
        try step(statement.line)
        switch statement.kind {
        case .empty: break
        case .declaration(let declaration): try declare(declaration, isGlobal: false)
        case .expression(let e): _ = try expression(e)
        case .block(let statements): try lowerBlock(statements)
        case .ifElse(let condition, let then, let otherwise):
            try lowerIf(condition, then, otherwise)
        case .forLoop(let initial, let condition, let step, let body):
            scopes.append([:])
            defer { scopes.removeLast() }
            if let initial { try lower(initial) }
            try lowerLoop(condition: condition, body: body, step: step, testFirst: true)
        case .whileLoop(let condition, let body):
            try lowerLoop(condition: condition, body: body, step: nil, testFirst: true)
        case .doWhile(let body, let condition):
            try lowerLoop(condition: condition, body: body, step: nil, testFirst: false)
        case .breakLoop, .continueLoop:
            guard let loop = loops.last else {
                throw ShaderFault(statement.line, "\(statement.kind.isBreak ? "break" : "continue") outside a loop")
            }
            let flag = statement.kind.isBreak ? loop.broke : loop.continued
            try assign(flag, [emitter.constant(1)])
            alive = emitter.constant(0)
        case .returnValue(let value):
            guard let frame = functions.last else { throw ShaderFault(statement.line, "return outside a function") }
            if let result = frame.result, let type = frame.returnType {
                guard let value else { throw ShaderFault(statement.line, "\(frame.name) must return a value", .typeMismatch) }
                try assign(result, try convert(try expression(value), to: type, line: statement.line, explicit: false).parts)
            } else if let value {
                _ = try expression(value)
            }
            try assign(frame.returned, [emitter.constant(1)])
            alive = emitter.constant(0)
        }
    }

    /// A scalar condition as 0 or 1.
    mutating func condition(_ e: ShaderExpression) throws(ShaderFault) -> Int32 {
        let value = try expression(e)
        guard let first = value.parts.first else { throw ShaderFault(e.line, "a condition needs a value", .typeMismatch) }
        return try emitter.unary(.bool, first)
    }

    /// `a && b` for optional masks (nil is "every lane").
    mutating func both(_ a: Int32?, _ b: Int32?) throws(ShaderFault) -> Int32? {
        guard let a else { return b }
        guard let b else { return a }
        return try emitter.binary(.and, a, b)
    }

    /// Values restored after lowering one branch: the bindings (new variables stay declared).
    mutating func restore(_ saved: [[Int32]]) {
        var v = saved
        while v.count < variables.count { v.append(values[v.count]) }
        values = v
    }

    mutating func lowerIf(_ conditionExpression: ShaderExpression, _ then: ShaderStatement, _ otherwise: ShaderStatement?) throws(ShaderFault) {
        let c = try condition(conditionExpression)
        try step(conditionExpression.line, cost: variables.count / 32)
        if let constant = emitter.constantValue(c) {
            if constant != 0 { try lowerBlock([then]) } else if let otherwise { try lowerBlock([otherwise]) }
            return
        }
        let base = values, baseAlive = alive, baseLanes = lanes
        let count = variables.count, firstRebound = rebound.count
        lanes = try both(try both(baseLanes, baseAlive), c)
        alive = nil
        try lowerBlock([then])
        let thenValues = values, thenAlive = alive
        restore(base)
        let notC = try emitter.unary(.not, c)
        lanes = try both(try both(baseLanes, baseAlive), notC)
        alive = nil
        if let otherwise { try lowerBlock([otherwise]) }
        let elseValues = values, elseAlive = alive
        restore(base)
        alive = baseAlive
        lanes = baseLanes
        let takeThen = try both(baseAlive, c), takeElse = try both(baseAlive, notC)
        let touched = Set(rebound[firstRebound...]).filter { $0 < count }.sorted()
        for id in touched where thenValues[id] != elseValues[id] || thenValues[id] != base[id] {
            var merged = base[id]
            for k in merged.indices {
                let t = thenValues[id][k], e = elseValues[id][k], old = base[id][k]
                if t == old && e == old { continue }
                if e == old { merged[k] = try emitter.ternary(.select, takeThen!, t, old); continue }
                if t == old { merged[k] = try emitter.ternary(.select, takeElse!, e, old); continue }
                let chosen = try emitter.ternary(.select, c, t, e)
                merged[k] = baseAlive == nil ? chosen : try emitter.ternary(.select, baseAlive!, chosen, old)
            }
            bind(id, merged)
        }
        if thenAlive != nil || elseAlive != nil {
            let branch = try emitter.ternary(.select, c, thenAlive ?? emitter.constant(1), elseAlive ?? emitter.constant(1))
            alive = try both(baseAlive, branch)
        }
    }
}

private extension ShaderStatement.Kind {
    var isBreak: Bool { if case .breakLoop = self { return true } else { return false } }
}

/// The header's uniforms in a fixed order (declared as globals before the preset's own).
enum ShaderHeaderUniformNames {
    static let all: [String] = (0..<14).map { "_c\($0)" } + ["a", "b", "c", "d", "e", "f", "g", "h"].map { "_q\($0)" }
        + ["rand_frame", "rand_preset"] + ShaderUniforms.rotationNames
}
