/// Expressions: names, operators, assignments, swizzles, indexing, constructors, casts and calls.
extension ShaderLowering {
    /// A place an assignment writes: components `indices` of variable `variable`.
    struct Place {
        var variable: Int
        var indices: [Int]
        var type: ShaderType
    }

    mutating func expression(_ e: ShaderExpression) throws(ShaderFault) -> ShaderValue {
        try step(e.line)
        switch e.kind {
        case .number(let v, let isInteger):
            return ShaderValue(type: isInteger ? .int : .float, parts: [emitter.constant(Float(v))])
        case .boolean(let b):
            return ShaderValue(type: .bool, parts: [emitter.constant(b ? 1 : 0)])
        case .name(let name):
            return try read(name, line: e.line)
        case .unary(let op, let a):
            return try unary(op, a, line: e.line)
        case .increment(let op, let target, let isPrefix):
            return try increment(op, target, isPrefix: isPrefix, line: e.line)
        case .binary(let op, let a, let b):
            let x = try expression(a)
            let y = try expression(b)
            return try arithmetic(op, x, y, line: e.line)
        case .assign(let op, let target, let source):
            return try assign(op, target, source, line: e.line)
        case .conditional(let c, let a, let b):
            return try conditional(c, a, b, line: e.line)
        case .call(let name, let arguments):
            return try call(name, arguments, line: e.line)
        case .cast(let type, let a):
            return try convert(try expression(a), to: type, line: e.line, explicit: true)
        case .member(let a, let name):
            let value = try expression(a)
            let indices = try components(name, of: value.type, line: e.line, forWriting: false)
            return ShaderValue(type: .matrix(value.type.base, 1, indices.count).flattened, parts: indices.map { value.parts[$0] })
        case .index(let a, let i):
            if let elements = arrayElements(a) { return try element(of: elements, at: try expression(i), line: e.line) }
            let value = try expression(a)
            let index = try expression(i)
            return try subscripted(value, index, line: e.line)
        case .comma(let a, let b):
            _ = try expression(a)
            return try expression(b)
        }
    }

    /// `+a`, `-a` (a `bool` negated is an `int`) or `!a`.
    private mutating func unary(_ op: String, _ a: ShaderExpression, line: Int) throws(ShaderFault) -> ShaderValue {
        let value = try expression(a)
        switch op {
        case "+": return value
        case "-":
            let type = value.type.base == .bool ? value.type.with(.int) : value.type
            return ShaderValue(type: type, parts: try value.parts.map { (p) throws(ShaderFault) in try emitter.unary(.negate, p) })
        case "!":
            return ShaderValue(type: value.type.with(.bool), parts: try value.parts.map { (p) throws(ShaderFault) in try emitter.unary(.not, p) })
        default:
            throw ShaderFault(line, "the bitwise operator \(op) is not supported", .unsupported("bitwise operator"))
        }
    }

    /// `++x`, `x++`, `--x` or `x--`: the new value when `isPrefix`, else the old one.
    private mutating func increment(_ op: String, _ target: ShaderExpression, isPrefix: Bool, line: Int) throws(ShaderFault) -> ShaderValue {
        let place = try self.place(target)
        let old = read(place)
        let one = ShaderValue(type: .int, parts: [emitter.constant(1)])
        let new = try convert(try arithmetic(op == "++" ? "+" : "-", old, one, line: line), to: place.type, line: line, explicit: false)
        try write(place, new)
        return isPrefix ? new : old
    }

    /// `target = source`, or `target op= source`: the value written.
    private mutating func assign(_ op: String, _ target: ShaderExpression, _ source: ShaderExpression,
                                 line: Int) throws(ShaderFault) -> ShaderValue {
        let place = try self.place(target)
        var value = try expression(source)
        if !op.isEmpty { value = try arithmetic(op, read(place), value, line: line) }
        let new = try convert(value, to: place.type, line: line, explicit: false)
        try write(place, new)
        return new
    }

    /// `c ? a : b`, component-wise on the branches' combined type (both branches are evaluated).
    private mutating func conditional(_ c: ShaderExpression, _ a: ShaderExpression, _ b: ShaderExpression,
                                      line: Int) throws(ShaderFault) -> ShaderValue {
        let condition = try expression(c)
        let x = try expression(a), y = try expression(b)
        guard let type = ShaderType.combined(x.type, y.type) else { throw mismatch(x.type, y.type, line: line) }
        let resultType = x.type.base == .bool && y.type.base == .bool ? type.with(.bool) : type
        let xs = try convert(x, to: resultType, line: line, explicit: false)
        let ys = try convert(y, to: resultType, line: line, explicit: false)
        let cs = try convert(condition, to: resultType.with(.bool), line: line, explicit: false)
        var parts: [Int32] = []
        for k in 0..<resultType.count { parts.append(try emitter.ternary(.select, cs.parts[k], xs.parts[k], ys.parts[k])) }
        return ShaderValue(type: resultType, parts: parts)
    }

    // MARK: names and places

    mutating func read(_ name: String, line: Int) throws(ShaderFault) -> ShaderValue {
        if let id = lookup(name) {
            guard variables[id].elements.isEmpty else {
                throw ShaderFault(line, "the array \(name) is read one element at a time (\(name)[i])", .unsupported("array"))
            }
            return ShaderValue(type: variables[id].type, parts: values[id])
        }
        if name.hasPrefix("texsize_") {
            let texture = String(name.dropFirst("texsize_".count))
            return ShaderValue(type: .float(4), parts: (0..<4).map { emitter.preload(.textureSize(texture, Int32($0))) })
        }
        if ShaderHeader.sampler(name) != nil {
            throw ShaderFault(line, "the sampler \(name) is not a value (read it with tex2D)", .typeMismatch)
        }
        throw ShaderFault(line, "unknown identifier \"\(name)\"", .unknownIdentifier)
    }

    mutating func place(_ e: ShaderExpression) throws(ShaderFault) -> Place {
        switch e.kind {
        case .name(let name):
            guard let id = lookup(name) else {
                if name.hasPrefix("texsize_") { throw ShaderFault(e.line, "cannot assign to \(name)", .typeMismatch) }
                throw ShaderFault(e.line, "unknown identifier \"\(name)\"", .unknownIdentifier)
            }
            guard variables[id].elements.isEmpty else {
                throw ShaderFault(e.line, "the array \(name) is written one element at a time (\(name)[i])", .unsupported("array"))
            }
            return Place(variable: id, indices: Array(0..<variables[id].type.count), type: variables[id].type)
        case .member(let a, let name):
            let base = try place(a)
            let picked = try components(name, of: base.type, line: e.line, forWriting: true)
            return Place(variable: base.variable, indices: picked.map { base.indices[$0] },
                         type: ShaderType.matrix(base.type.base, 1, picked.count).flattened)
        case .index(let a, let i):
            if let elements = arrayElements(a) { return try elementPlace(of: elements, at: i, line: e.line) }
            let base = try place(a)
            let index = try expression(i)
            guard let k = index.parts.first.flatMap({ emitter.constantValue($0) }) else {
                throw ShaderFault(e.line, "assigning through a variable index is not supported", .unsupported("dynamic index write"))
            }
            let rows = base.type.isMatrix ? base.type.rows : base.type.count
            guard k >= 0, k < Float(rows) else { throw ShaderFault(e.line, "index \(k) out of range", .typeMismatch) }
            let row = Int(k)
            if base.type.isMatrix {
                let c = base.type.columns
                return Place(variable: base.variable, indices: Array(base.indices[(row * c)..<(row * c + c)]), type: .vector(base.type.base, c).flattened)
            }
            return Place(variable: base.variable, indices: [base.indices[row]], type: .scalar(base.type.base))
        default:
            throw ShaderFault(e.line, "this expression cannot be assigned to", .syntax)
        }
    }

    func read(_ place: Place) -> ShaderValue {
        ShaderValue(type: place.type, parts: place.indices.map { values[place.variable][$0] })
    }

    mutating func write(_ place: Place, _ value: ShaderValue) throws(ShaderFault) {
        var new = values[place.variable]
        for (k, index) in place.indices.enumerated() { new[index] = value.parts[k] }
        try assign(place.variable, new)
    }

    /// The component indices a swizzle (`xyzw`, `rgba`) or matrix swizzle (`_m01_m10`, `_11_22`) picks.
    func components(_ name: String, of type: ShaderType, line: Int, forWriting: Bool) throws(ShaderFault) -> [Int] {
        var picked: [Int] = []
        if name.hasPrefix("_") {
            guard type.isMatrix else { throw ShaderFault(line, "\(type) has no member \(name)", .typeMismatch) }
            for group in name.split(separator: "_") {
                let chars = Array(group.utf8)
                let zeroBased = chars.first == UInt8(ascii: "m")
                let digits = zeroBased ? Array(chars.dropFirst()) : chars
                guard digits.count == 2 else { throw ShaderFault(line, "bad matrix member \(name)", .syntax) }
                let r = Int(digits[0]) - 48 - (zeroBased ? 0 : 1), c = Int(digits[1]) - 48 - (zeroBased ? 0 : 1)
                guard r >= 0, c >= 0, r < type.rows, c < type.columns else { throw ShaderFault(line, "\(name) is out of \(type)", .typeMismatch) }
                picked.append(r * type.columns + c)
            }
        } else {
            guard !type.isMatrix else { throw ShaderFault(line, "\(type) has no member \(name)", .typeMismatch) }
            let sets: [[UInt8]] = [Array("xyzw".utf8), Array("rgba".utf8)]
            let chars = Array(name.utf8)
            guard let set = sets.first(where: { s in chars.allSatisfy { s.contains($0) } }) else {
                throw ShaderFault(line, "\(type) has no member \"\(name)\"", .typeMismatch)
            }
            for c in chars {
                let k = set.firstIndex(of: c)!
                guard k < type.count else { throw ShaderFault(line, "\(type) has no component \(name)", .typeMismatch) }
                picked.append(k)
            }
        }
        guard !picked.isEmpty, picked.count <= 4 else { throw ShaderFault(line, "bad swizzle \(name)", .syntax) }
        if forWriting, Set(picked).count != picked.count {
            throw ShaderFault(line, "a write mask cannot repeat a component (\(name))", .typeMismatch)
        }
        return picked
    }

    /// `v[i]` (a component) or `m[i]` (a row); a variable index selects among them.
    mutating func subscripted(_ value: ShaderValue, _ index: ShaderValue, line: Int) throws(ShaderFault) -> ShaderValue {
        let type = value.type
        let rows = type.isMatrix ? type.rows : type.count
        let width = type.isMatrix ? type.columns : 1
        let elementType = type.isMatrix ? ShaderType.vector(type.base, width).flattened : .scalar(type.base)
        func element(_ r: Int) -> [Int32] { Array(value.parts[(r * width)..<(r * width + width)]) }
        guard let i = index.parts.first else { throw ShaderFault(line, "an index needs a value", .typeMismatch) }
        if let k = emitter.constantValue(i) {
            guard k >= 0, k < Float(rows) else { throw ShaderFault(line, "index \(k) out of range", .typeMismatch) }
            let r = Int(k)
            return ShaderValue(type: elementType, parts: element(r))
        }
        var parts = element(0)
        for r in 1..<max(1, rows) {
            let hit = try emitter.binary(.greaterEqual, i, emitter.constant(Float(r)))
            let other = element(r)
            for k in parts.indices { parts[k] = try emitter.ternary(.select, hit, other[k], parts[k]) }
        }
        return ShaderValue(type: elementType, parts: parts)
    }

    // MARK: operators

    mutating func arithmetic(_ op: String, _ a: ShaderValue, _ b: ShaderValue, line: Int) throws(ShaderFault) -> ShaderValue {
        guard let type = ShaderType.combined(a.type, b.type) else { throw mismatch(a.type, b.type, line: line) }
        switch op {
        case "+", "-", "*", "/", "%":
            let x = try convert(a, to: type, line: line, explicit: false), y = try convert(b, to: type, line: line, explicit: false)
            let f: ShaderBinary = switch op { case "+": .add; case "-": .subtract; case "*": .multiply; case "/": .divide; default: .fmod }
            var parts: [Int32] = []
            for k in 0..<type.count {
                var r = try emitter.binary(f, x.parts[k], y.parts[k])
                if type.base == .int && f == .divide { r = try emitter.unary(.trunc, r) }
                parts.append(r)
            }
            return ShaderValue(type: type, parts: parts)
        case "<", ">", "<=", ">=", "==", "!=":
            let x = try convert(a, to: type, line: line, explicit: false), y = try convert(b, to: type, line: line, explicit: false)
            let f: ShaderBinary = switch op {
            case "<": .less; case ">": .greater; case "<=": .lessEqual; case ">=": .greaterEqual; case "==": .equal; default: .notEqual
            }
            var parts: [Int32] = []
            for k in 0..<type.count { parts.append(try emitter.binary(f, x.parts[k], y.parts[k])) }
            return ShaderValue(type: type.with(.bool), parts: parts)
        case "&&", "||":
            let bools = type.with(.bool)
            let x = try convert(a, to: bools, line: line, explicit: false), y = try convert(b, to: bools, line: line, explicit: false)
            var parts: [Int32] = []
            for k in 0..<type.count { parts.append(try emitter.binary(op == "&&" ? .and : .or, x.parts[k], y.parts[k])) }
            return ShaderValue(type: bools, parts: parts)
        default:
            throw ShaderFault(line, "the bitwise operator \(op) is not supported", .unsupported("bitwise operator"))
        }
    }

    func mismatch(_ a: ShaderType, _ b: ShaderType, line: Int) -> ShaderFault {
        ShaderFault(line, "\(a) and \(b) do not combine", .typeMismatch)
    }

    // MARK: conversions

    /// `value` as `type`: a scalar broadcasts, a wider vector or matrix is truncated, a vector and a
    /// matrix of as many components convert into each other, `float` to `int` truncates, anything to
    /// `bool` is 0 or 1. `explicit` (a cast or constructor) also lets a single component fill a vector.
    mutating func convert(_ value: ShaderValue, to type: ShaderType, line: Int, explicit: Bool) throws(ShaderFault) -> ShaderValue {
        guard !value.parts.isEmpty else { throw ShaderFault(line, "a void value is used", .typeMismatch) }
        var parts: [Int32]
        let from = value.type
        if from.rows == type.rows && from.columns == type.columns {
            parts = value.parts
        } else if value.parts.count == 1 {
            parts = Array(repeating: value.parts[0], count: type.count)
        } else if type.isMatrix && from.isMatrix {
            guard from.rows >= type.rows, from.columns >= type.columns else {
                throw ShaderFault(line, "cannot convert \(from) to \(type)", .typeMismatch)
            }
            parts = []
            for r in 0..<type.rows { for c in 0..<type.columns { parts.append(value.parts[r * from.columns + c]) } }
        } else if value.parts.count == type.count {
            parts = value.parts
        } else if value.parts.count > type.count && (!from.isMatrix || !type.isMatrix) && (type.isScalar || !from.isMatrix) {
            parts = Array(value.parts.prefix(type.count))
        } else {
            throw ShaderFault(line, "cannot convert \(from) to \(type)", .typeMismatch)
        }
        switch (from.base, type.base) {
        case (.float, .int): parts = try parts.map { (p) throws(ShaderFault) in try emitter.unary(.trunc, p) }
        case (.float, .bool), (.int, .bool): parts = try parts.map { (p) throws(ShaderFault) in try emitter.unary(.bool, p) }
        default: break
        }
        return ShaderValue(type: type, parts: parts)
    }

    // MARK: calls

    mutating func call(_ name: String, _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> ShaderValue {
        if let type = ShaderType.named(name) { return try construct(type, arguments, line: line) }
        if let overloads = userFunctions[name] { return try inline(name, overloads, arguments, line: line) }
        return try intrinsic(name, arguments, line: line)
    }
}

extension ShaderType {
    /// A 1×n matrix as the vector (or scalar) it is.
    var flattened: ShaderType {
        if isMatrix && rows == 1 { return columns == 1 ? .scalar(base) : .vector(base, columns) }
        return self
    }
}
