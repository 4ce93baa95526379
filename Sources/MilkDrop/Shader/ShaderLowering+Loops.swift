/// Loops: unrolled when their condition folds to a constant on every iteration, masked otherwise.
extension ShaderLowering {
    /// A `for` (its initialiser already lowered), `while` (`testFirst`) or `do … while` loop.
    mutating func lowerLoop(condition: ShaderExpression?, body: ShaderStatement, step: ShaderExpression?,
                            testFirst: Bool) throws(ShaderFault) {
        if try unrolled(condition: condition, body: body, step: step, testFirst: testFirst) { return }
        try masked(condition: condition, body: body, step: step, testFirst: testFirst)
    }

    /// Lowers the loop iteration by iteration while its condition is a constant; false (with nothing
    /// emitted) when it is not, or when the loop runs longer than ``ShaderLimits/unrolledIterations``.
    private mutating func unrolled(condition: ShaderExpression?, body: ShaderStatement, step: ShaderExpression?,
                                   testFirst: Bool) throws(ShaderFault) -> Bool {
        let mark = emitter.mark()
        let saved = values, savedAlive = alive, savedLanes = lanes
        let startOperations = emitter.code.count
        func giveUp(_ self: inout ShaderLowering) -> Bool {
            self.emitter.rollBack(to: mark)
            self.restore(saved)
            self.alive = savedAlive
            self.lanes = savedLanes
            return false
        }
        var iterations = 0
        var test = testFirst
        while true {
            if test, let condition {
                let c = try self.condition(condition)
                guard let value = emitter.constantValue(c) else { return giveUp(&self) }
                if value == 0 { break }
            }
            test = true
            iterations += 1
            guard iterations <= ShaderLimits.unrolledIterations,
                  emitter.code.count - startOperations <= ShaderLimits.operations / 8 else { return giveUp(&self) }
            let frame = LoopFrame(broke: newFlag("$broke"), continued: newFlag("$continued"))
            loops.append(frame)
            try lowerBlock([body])
            loops.removeLast()
            // Lanes that reached the end or continued run the step; broken and returned lanes stop.
            var next: Int32? = alive
            if let end = alive { next = try emitter.binary(.or, end, values[frame.continued][0]) }
            if let n = next, emitter.constantValue(n) == 0 { alive = next; break }
            // The step runs for every lane so that the condition can fold; lanes that stopped keep
            // their values through the merge below.
            let before = values, firstRebound = rebound.count
            alive = nil
            if let step { _ = try expression(step) }
            alive = next
            if let next {
                for id in Set(rebound[firstRebound...]).filter({ $0 < before.count }).sorted() where values[id] != before[id] {
                    var merged = before[id]
                    for k in merged.indices where values[id][k] != before[id][k] {
                        merged[k] = try emitter.ternary(.select, next, values[id][k], before[id][k])
                    }
                    bind(id, merged)
                }
            }
        }
        try finishLoop(entryAlive: savedAlive, entryLanes: savedLanes)
        return true
    }

    /// After a loop every lane that entered it runs on, but those that returned inside it.
    private mutating func finishLoop(entryAlive: Int32?, entryLanes: Int32?) throws(ShaderFault) {
        lanes = entryLanes
        alive = entryAlive
        if let frame = functions.last, let returned = values[frame.returned].first, emitter.constantValue(returned) != 0 {
            alive = try both(entryAlive, try emitter.unary(.not, returned))
        }
    }

    /// The loop with its lanes under a mask: carried variables in fixed registers, `loopBack` while a
    /// lane is active (at most ``ShaderProgram/maxLoopIterations`` times).
    /// The variables a masked loop carries from one iteration to the next: every one the loop's
    /// `statements` and `expressions` may assign, shadowed ones too (a function the loop calls may
    /// change a global that a local of the same name hides here), an array as its elements, and the
    /// function's return flag and result when the loop may return. In id order.
    private mutating func carried(by statements: [ShaderStatement], _ expressions: [ShaderExpression]) -> [Int] {
        var names = Set<String>()
        for s in statements { ShaderAssignments.collect(s, functions: userFunctions, into: &names, cache: &assignedByFunction) }
        for e in expressions { ShaderAssignments.collect(e, functions: userFunctions, into: &names, cache: &assignedByFunction) }
        var carried = Set(names.flatMap { name in scopes.compactMap { $0[name] } })
        carried.formUnion(carried.flatMap { variables[$0].elements })
        if let frame = functions.last, names.contains(ShaderAssignments.returnMarker) {
            carried.insert(frame.returned)
            if let result = frame.result { carried.insert(result) }
        }
        return carried.sorted()
    }

    private mutating func masked(condition: ShaderExpression?, body: ShaderStatement, step: ShaderExpression?,
                                 testFirst: Bool) throws(ShaderFault) {
        let entryAlive = alive, entryLanes = lanes
        let ordered = carried(by: [body], [step, condition].compactMap { $0 })
        emitter.forgetReuse()
        var fixed: [Int: [Int32]] = [:]
        for id in ordered {
            var registers: [Int32] = []
            for part in values[id] {
                let r = try emitter.fresh()
                try emitter.emit(.move(dst: r, a: part))
                registers.append(r)
            }
            fixed[id] = registers
            bind(id, registers)
        }
        let running = try both(entryLanes, entryAlive)
        var start = running
        if testFirst, let condition { start = try both(running, try self.condition(condition)) }
        let mask = try emitter.fresh()
        try emitter.emit(.move(dst: mask, a: start ?? emitter.constant(1)))
        let entry = emitter.code.count
        try emitter.emit(.jumpIfNone(mask: mask, to: -1))
        let top = Int32(emitter.code.count)
        emitter.forgetReuse()

        let frame = LoopFrame(broke: newFlag("$broke"), continued: newFlag("$continued"))
        loops.append(frame)
        lanes = mask
        alive = nil
        try lowerBlock([body])
        loops.removeLast()
        var next: Int32? = alive
        if let end = alive { next = try emitter.binary(.or, end, values[frame.continued][0]) }
        alive = next
        if let step { _ = try expression(step) }
        var stay = try both(mask, next)
        if let condition { stay = try both(stay, try self.condition(condition)) }
        for id in ordered {
            let registers = fixed[id]!
            for (k, r) in registers.enumerated() { try emitter.update(r, mask: mask, value: values[id][k]) }
            bind(id, registers)
        }
        try emitter.emit(.move(dst: mask, a: stay ?? mask))
        try emitter.emit(.loopBack(mask: mask, to: top))
        emitter.patchJump(at: entry, to: Int32(emitter.code.count))
        emitter.forgetReuse()
        try finishLoop(entryAlive: entryAlive, entryLanes: entryLanes)
    }
}

/// The names a piece of code may assign (the roots of assignment targets, `++`/`--` operands and
/// the arguments of calls to functions with `out` parameters, and what the functions it calls assign).
enum ShaderAssignments {
    /// Collected for a `return` (no variable can have this name).
    static let returnMarker = "$return"

    static func collect(_ statement: ShaderStatement, functions: [String: [ShaderFunction]], into names: inout Set<String>,
                        cache: inout [String: Set<String>]) {
        switch statement.kind {
        case .declaration(let d): for n in d.names { if let e = n.initializer { collect(e, functions: functions, into: &names, cache: &cache) } }
        case .expression(let e): collect(e, functions: functions, into: &names, cache: &cache)
        case .block(let list): for s in list { collect(s, functions: functions, into: &names, cache: &cache) }
        case .ifElse(let c, let t, let e):
            collect(c, functions: functions, into: &names, cache: &cache)
            collect(t, functions: functions, into: &names, cache: &cache)
            if let e { collect(e, functions: functions, into: &names, cache: &cache) }
        case .forLoop(let i, let c, let s, let b):
            if let i { collect(i, functions: functions, into: &names, cache: &cache) }
            if let c { collect(c, functions: functions, into: &names, cache: &cache) }
            if let s { collect(s, functions: functions, into: &names, cache: &cache) }
            collect(b, functions: functions, into: &names, cache: &cache)
        case .whileLoop(let c, let b), .doWhile(let b, let c):
            collect(c, functions: functions, into: &names, cache: &cache)
            collect(b, functions: functions, into: &names, cache: &cache)
        case .returnValue(let e):
            names.insert(returnMarker)
            if let e { collect(e, functions: functions, into: &names, cache: &cache) }
        case .breakLoop, .continueLoop, .empty: break
        }
    }

    static func collect(_ e: ShaderExpression, functions: [String: [ShaderFunction]], into names: inout Set<String>,
                        cache: inout [String: Set<String>]) {
        switch e.kind {
        case .number, .boolean, .name: break
        case .unary(_, let a), .cast(_, let a), .member(let a, _): collect(a, functions: functions, into: &names, cache: &cache)
        case .increment(_, let a, _):
            if let root = root(a) { names.insert(root) }
            collect(a, functions: functions, into: &names, cache: &cache)
        case .assign(_, let a, let b):
            if let root = root(a) { names.insert(root) }
            collect(a, functions: functions, into: &names, cache: &cache)
            collect(b, functions: functions, into: &names, cache: &cache)
        case .binary(_, let a, let b), .index(let a, let b), .comma(let a, let b):
            collect(a, functions: functions, into: &names, cache: &cache)
            collect(b, functions: functions, into: &names, cache: &cache)
        case .conditional(let a, let b, let c):
            collect(a, functions: functions, into: &names, cache: &cache)
            collect(b, functions: functions, into: &names, cache: &cache)
            collect(c, functions: functions, into: &names, cache: &cache)
        case .call(let name, let arguments):
            for a in arguments { collect(a, functions: functions, into: &names, cache: &cache) }
            if ["sincos", "modf", "frexp"].contains(name) { for a in arguments.dropFirst() { if let r = root(a) { names.insert(r) } } }
            if let overloads = functions[name] {
                for a in arguments { if let r = root(a) { names.insert(r) } }
                names.formUnion(assigned(by: name, overloads: overloads, functions: functions, cache: &cache))
            }
        }
    }

    /// What a function's body assigns (cached; a recursive call finds the empty entry and stops).
    private static func assigned(by name: String, overloads: [ShaderFunction], functions: [String: [ShaderFunction]],
                                 cache: inout [String: Set<String>]) -> Set<String> {
        if let known = cache[name] { return known }
        cache[name] = []
        var names = Set<String>()
        for f in overloads { for s in f.body { collect(s, functions: functions, into: &names, cache: &cache) } }
        cache[name] = names
        return names
    }

    /// The variable an assignment target starts from (`a` in `a.xy[1]`).
    static func root(_ e: ShaderExpression) -> String? {
        switch e.kind {
        case .name(let n): return n
        case .member(let a, _), .index(let a, _): return root(a)
        default: return nil
        }
    }
}
