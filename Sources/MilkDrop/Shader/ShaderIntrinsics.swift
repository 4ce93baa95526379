/// HLSL's intrinsic functions as the corpus uses them, each scalarised onto ``ShaderOperation``s.
///
/// Component-wise ones take the combined type of their arguments (a scalar broadcasts, wider vectors
/// are truncated). `mul` follows HLSL: a vector on the left is a row, on the right a column, and a
/// matrix too large for its vector is truncated to it (`mul(float3, float4x3)` uses the upper 3×3).
/// Texture reads give a `float4`; `tex2Dlod`/`tex2Dbias` read at their coordinate's `xy` (there are no
/// mip levels), `tex2Dproj` at `xy / w`.
extension ShaderLowering {
    private static let unaries: [String: ShaderUnary] = [
        "sin": .sin, "cos": .cos, "tan": .tan, "asin": .asin, "acos": .acos, "atan": .atan, "sinh": .sinh, "cosh": .cosh,
        "tanh": .tanh, "sqrt": .sqrt, "rsqrt": .rsqrt, "rcp": .reciprocal, "exp": .exp, "exp2": .exp2, "log": .log,
        "log2": .log2, "log10": .log10, "abs": .abs, "sign": .sign, "floor": .floor, "ceil": .ceil, "frac": .frac,
        "round": .round, "trunc": .trunc, "saturate": .saturate,
    ]
    private static let binaries: [String: ShaderBinary] = [
        "pow": .pow, "atan2": .atan2, "fmod": .fmod, "min": .min, "max": .max, "step": .step,
    ]
    private static let ternaries: [String: ShaderTernary] = [
        "lerp": .lerp, "clamp": .clamp, "smoothstep": .smoothstep, "mad": .multiplyAdd,
    ]
    /// Intrinsics HLSL has that a CPU port cannot or need not provide.
    private static let unsupported: Set<String> = [
        "ddx", "ddy", "fwidth", "clip", "noise", "isnan", "isinf", "isfinite", "tex1D", "texCUBE", "texCUBElod",
        "frexp", "lit", "asfloat", "asint", "asuint", "D3DCOLORtoUBYTE4", "tex1Dlod", "tex1Dbias", "tex1Dproj",
    ]

    mutating func intrinsic(_ name: String, _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> ShaderValue {
        switch name {
        case "tex2D", "tex2Dlod", "tex2Dbias", "tex2Dproj", "tex2Dgrad", "tex3D", "tex3Dlod", "tex3Dbias":
            return try texture(name, arguments, line: line)
        default: break
        }
        if let value = try tabulated(name, arguments, line: line) { return value }
        if let value = try scaled(name, arguments, line: line) { return value }
        if let value = try geometric(name, arguments, line: line) { return value }
        if let value = try reflected(name, arguments, line: line) { return value }
        if let value = try matrixOrReduction(name, arguments, line: line) { return value }
        if let value = try writingOutputs(name, arguments, line: line) { return value }
        if Self.unsupported.contains(name) { throw ShaderFault(line, "\(name) is not supported", .unsupported(name)) }
        throw ShaderFault(line, "unknown function \"\(name)\"", .unknownIdentifier)
    }

    /// Throws unless `name` has `n` arguments.
    private static func arity(_ n: Int, _ name: String, _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) {
        guard arguments.count == n else { throw ShaderFault(line, "\(name) takes \(n) arguments, not \(arguments.count)", .typeMismatch) }
    }

    /// The component-wise intrinsics of the unary, binary and ternary tables; nil for another name.
    private mutating func tabulated(_ name: String, _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> ShaderValue? {
        if let f = Self.unaries[name] {
            try Self.arity(1, name, arguments, line: line)
            let a = try floats(try expression(arguments[0]), line: line)
            return ShaderValue(type: a.type, parts: try a.parts.map { (p) throws(ShaderFault) in try emitter.unary(f, p) })
        }
        if let f = Self.binaries[name] {
            try Self.arity(2, name, arguments, line: line)
            let (a, b) = try pair(arguments, line: line)
            var parts: [Int32] = []
            for k in a.parts.indices { parts.append(try emitter.binary(f, a.parts[k], b.parts[k])) }
            return ShaderValue(type: a.type, parts: parts)
        }
        if let f = Self.ternaries[name] {
            try Self.arity(3, name, arguments, line: line)
            let values = try arguments.map { (a) throws(ShaderFault) in try expression(a) }
            guard let ab = ShaderType.combined(values[0].type, values[1].type), let type = ShaderType.combined(ab, values[2].type) else {
                throw ShaderFault(line, "the arguments of \(name) do not combine", .typeMismatch)
            }
            let t = type.with(.float)
            let c = try values.map { (v) throws(ShaderFault) in try convert(v, to: t, line: line, explicit: false) }
            var parts: [Int32] = []
            for k in 0..<t.count { parts.append(try emitter.ternary(f, c[0].parts[k], c[1].parts[k], c[2].parts[k])) }
            return ShaderValue(type: t, parts: parts)
        }
        return nil
    }

    /// `degrees`, `radians` and `ldexp`: each component times a factor; nil for another name.
    private mutating func scaled(_ name: String, _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> ShaderValue? {
        switch name {
        case "degrees", "radians":
            try Self.arity(1, name, arguments, line: line)
            let a = try floats(try expression(arguments[0]), line: line)
            let factor = emitter.constant(name == "degrees" ? 57.29577951308232 : 0.017453292519943295)
            return ShaderValue(type: a.type, parts: try a.parts.map { (p) throws(ShaderFault) in try emitter.binary(.multiply, p, factor) })
        case "ldexp":
            try Self.arity(2, name, arguments, line: line)
            let (a, b) = try pair(arguments, line: line)
            var parts: [Int32] = []
            for k in a.parts.indices { parts.append(try emitter.binary(.multiply, a.parts[k], try emitter.unary(.exp2, b.parts[k]))) }
            return ShaderValue(type: a.type, parts: parts)
        default: return nil
        }
    }

    /// `dot`, `length`, `distance`, `normalize` and `cross`; nil for another name.
    private mutating func geometric(_ name: String, _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> ShaderValue? {
        switch name {
        case "dot":
            try Self.arity(2, name, arguments, line: line)
            let (a, b) = try pair(arguments, line: line)
            return ShaderValue(type: .float, parts: [try sumOfProducts(a.parts, b.parts)])
        case "length":
            try Self.arity(1, name, arguments, line: line)
            let a = try floats(try expression(arguments[0]), line: line)
            return ShaderValue(type: .float, parts: [try length(a.parts)])
        case "distance":
            try Self.arity(2, name, arguments, line: line)
            let (a, b) = try pair(arguments, line: line)
            var d: [Int32] = []
            for k in a.parts.indices { d.append(try emitter.binary(.subtract, a.parts[k], b.parts[k])) }
            return ShaderValue(type: .float, parts: [try length(d)])
        case "normalize":
            try Self.arity(1, name, arguments, line: line)
            let a = try floats(try expression(arguments[0]), line: line)
            let scale = try emitter.unary(.rsqrt, try sumOfProducts(a.parts, a.parts))
            return ShaderValue(type: a.type, parts: try a.parts.map { (p) throws(ShaderFault) in try emitter.binary(.multiply, p, scale) })
        case "cross":
            try Self.arity(2, name, arguments, line: line)
            let a = try convert(try expression(arguments[0]), to: .float(3), line: line, explicit: false).parts
            let b = try convert(try expression(arguments[1]), to: .float(3), line: line, explicit: false).parts
            func term(_ i: Int, _ j: Int) throws(ShaderFault) -> Int32 {
                try emitter.binary(.subtract, try emitter.binary(.multiply, a[i], b[j]), try emitter.binary(.multiply, a[j], b[i]))
            }
            return ShaderValue(type: .float(3), parts: [try term(1, 2), try term(2, 0), try term(0, 1)])
        default: return nil
        }
    }

    /// `reflect`, `refract` and `faceforward`; nil for another name.
    private mutating func reflected(_ name: String, _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> ShaderValue? {
        switch name {
        case "reflect":
            try Self.arity(2, name, arguments, line: line)
            let (i, n) = try pair(arguments, line: line)
            let twice = try emitter.binary(.multiply, emitter.constant(2), try sumOfProducts(n.parts, i.parts))
            var parts: [Int32] = []
            for k in i.parts.indices {
                parts.append(try emitter.binary(.subtract, i.parts[k], try emitter.binary(.multiply, twice, n.parts[k])))
            }
            return ShaderValue(type: i.type, parts: parts)
        case "refract":
            try Self.arity(3, name, arguments, line: line)
            let (i, n) = try pair(Array(arguments.prefix(2)), line: line)
            let eta = try convert(try expression(arguments[2]), to: .float, line: line, explicit: false).parts[0]
            let cosine = try sumOfProducts(n.parts, i.parts)
            let one = emitter.constant(1)
            let sine2 = try emitter.binary(.subtract, one, try emitter.binary(.multiply, cosine, cosine))
            let k = try emitter.binary(.subtract, one, try emitter.binary(.multiply, try emitter.binary(.multiply, eta, eta), sine2))
            let inside = try emitter.binary(.greaterEqual, k, emitter.constant(0))
            let along = try emitter.binary(.add, try emitter.binary(.multiply, eta, cosine), try emitter.unary(.sqrt, k))
            var parts: [Int32] = []
            for c in i.parts.indices {
                let r = try emitter.binary(.subtract, try emitter.binary(.multiply, eta, i.parts[c]), try emitter.binary(.multiply, along, n.parts[c]))
                parts.append(try emitter.ternary(.select, inside, r, emitter.constant(0)))
            }
            return ShaderValue(type: i.type, parts: parts)
        case "faceforward":
            try Self.arity(3, name, arguments, line: line)
            let n = try floats(try expression(arguments[0]), line: line)
            let (i, g) = try pair(Array(arguments.dropFirst()), line: line)
            let flip = try emitter.binary(.less, try sumOfProducts(i.parts, g.parts), emitter.constant(0))
            var parts: [Int32] = []
            for p in n.parts { parts.append(try emitter.ternary(.select, flip, p, try emitter.unary(.negate, p))) }
            return ShaderValue(type: n.type, parts: parts)
        default: return nil
        }
    }

    /// `any`, `all`, `mul`, `transpose` and `determinant`; nil for another name.
    private mutating func matrixOrReduction(_ name: String, _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> ShaderValue? {
        switch name {
        case "any", "all":
            try Self.arity(1, name, arguments, line: line)
            let a = try expression(arguments[0])
            var r = try emitter.unary(.bool, a.parts[0])
            for p in a.parts.dropFirst() { r = try emitter.binary(name == "any" ? .or : .and, r, p) }
            return ShaderValue(type: .bool, parts: [r])
        case "mul":
            try Self.arity(2, name, arguments, line: line)
            return try multiply(try expression(arguments[0]), try expression(arguments[1]), line: line)
        case "transpose":
            try Self.arity(1, name, arguments, line: line)
            let m = try expression(arguments[0])
            guard m.type.isMatrix else { return m }
            var parts: [Int32] = []
            for c in 0..<m.type.columns { for r in 0..<m.type.rows { parts.append(m.parts[r * m.type.columns + c]) } }
            return ShaderValue(type: .matrix(m.type.base, m.type.columns, m.type.rows), parts: parts)
        case "determinant":
            try Self.arity(1, name, arguments, line: line)
            let m = try expression(arguments[0])
            guard m.type.isMatrix, m.type.rows == m.type.columns else {
                throw ShaderFault(line, "determinant needs a square matrix", .typeMismatch)
            }
            return ShaderValue(type: .float, parts: [try determinant(m.parts, size: m.type.rows)])
        default: return nil
        }
    }

    /// `sincos` and `modf`, which write some of their results to their arguments; nil for another name.
    private mutating func writingOutputs(_ name: String, _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> ShaderValue? {
        switch name {
        case "sincos":
            try Self.arity(3, name, arguments, line: line)
            let x = try floats(try expression(arguments[0]), line: line)
            let sine = ShaderValue(type: x.type, parts: try x.parts.map { (p) throws(ShaderFault) in try emitter.unary(.sin, p) })
            let cosine = ShaderValue(type: x.type, parts: try x.parts.map { (p) throws(ShaderFault) in try emitter.unary(.cos, p) })
            for (target, value) in [(arguments[1], sine), (arguments[2], cosine)] {
                let place = try self.place(target)
                try write(place, try convert(value, to: place.type, line: line, explicit: false))
            }
            return ShaderValue(type: .float, parts: [emitter.constant(0)])
        case "modf":
            try Self.arity(2, name, arguments, line: line)
            let x = try floats(try expression(arguments[0]), line: line)
            let whole = try x.parts.map { (p) throws(ShaderFault) in try emitter.unary(.trunc, p) }
            let place = try self.place(arguments[1])
            try write(place, try convert(ShaderValue(type: x.type, parts: whole), to: place.type, line: line, explicit: false))
            var parts: [Int32] = []
            for k in x.parts.indices { parts.append(try emitter.binary(.subtract, x.parts[k], whole[k])) }
            return ShaderValue(type: x.type, parts: parts)
        default: return nil
        }
    }

    // MARK: helpers

    /// `value` with `float` components.
    private mutating func floats(_ value: ShaderValue, line: Int) throws(ShaderFault) -> ShaderValue {
        try convert(value, to: value.type.with(.float), line: line, explicit: false)
    }

    /// Two arguments converted to their combined `float` type.
    private mutating func pair(_ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> (ShaderValue, ShaderValue) {
        let a = try expression(arguments[0]), b = try expression(arguments[1])
        guard let type = ShaderType.combined(a.type, b.type)?.with(.float) else { throw mismatch(a.type, b.type, line: line) }
        return (try convert(a, to: type, line: line, explicit: false), try convert(b, to: type, line: line, explicit: false))
    }

    /// a₀b₀ + a₁b₁ + … over the shorter of the two.
    private mutating func sumOfProducts(_ a: [Int32], _ b: [Int32]) throws(ShaderFault) -> Int32 {
        let n = min(a.count, b.count)
        var sum = try emitter.binary(.multiply, a[0], b[0])
        for k in 1..<max(1, n) { sum = try emitter.ternary(.multiplyAdd, a[k], b[k], sum) }
        return sum
    }

    private mutating func length(_ v: [Int32]) throws(ShaderFault) -> Int32 {
        if v.count == 1 { return try emitter.unary(.abs, v[0]) }
        return try emitter.unary(.sqrt, try sumOfProducts(v, v))
    }

    /// `mul(a, b)` for every pairing of scalar, vector and matrix.
    private mutating func multiply(_ a: ShaderValue, _ b: ShaderValue, line: Int) throws(ShaderFault) -> ShaderValue {
        let a = try floats(a, line: line), b = try floats(b, line: line)
        if a.type.isScalar || b.type.isScalar { return try arithmetic("*", a, b, line: line) }
        // Rows × columns of each side, a vector on the left being a row and on the right a column.
        let (ar, ac) = a.type.isMatrix ? (a.type.rows, a.type.columns) : (1, a.type.count)
        let (br, bc) = b.type.isMatrix ? (b.type.rows, b.type.columns) : (b.type.count, 1)
        let inner = min(ac, br)
        var parts: [Int32] = []
        for r in 0..<ar {
            for c in 0..<bc {
                let row = (0..<inner).map { a.parts[r * ac + $0] }
                let column = (0..<inner).map { b.parts[$0 * bc + c] }
                parts.append(try sumOfProducts(row, column))
            }
        }
        let type: ShaderType = if !a.type.isMatrix && !b.type.isMatrix { .float }
            else if !a.type.isMatrix { .float(bc) } else if !b.type.isMatrix { .float(ar) } else { .matrix(.float, ar, bc) }
        return ShaderValue(type: type, parts: parts)
    }

    /// Laplace expansion along the first row (matrices are at most 4×4).
    private mutating func determinant(_ m: [Int32], size: Int) throws(ShaderFault) -> Int32 {
        if size == 1 { return m[0] }
        var sum: Int32?
        for c in 0..<size {
            var minor: [Int32] = []
            for r in 1..<size { for k in 0..<size where k != c { minor.append(m[r * size + k]) } }
            let term = try emitter.binary(.multiply, m[c], try determinant(minor, size: size - 1))
            if let s = sum { sum = try emitter.binary(c % 2 == 0 ? .add : .subtract, s, term) } else { sum = term }
        }
        return sum!
    }

    /// The sampler slot of a `sampler_NAME` argument (recorded at first use).
    private mutating func samplerSlot(_ e: ShaderExpression, volume: Bool, line: Int) throws(ShaderFault) -> Int32 {
        guard case .name(let name) = e.kind,
              let (texture, mode) = ShaderHeader.sampler(name.hasPrefix("sampler_") ? name
                                                          : (declaredSamplers.contains(name) ? "sampler_" + name : name)) else {
            throw ShaderFault(line, "expected a sampler, not this expression", .typeMismatch)
        }
        if let k = samplers.firstIndex(where: { $0.name == texture && $0.mode == mode }) {
            if volume { samplers[k].isVolume = true }
            return Int32(k)
        }
        samplers.append(ShaderSamplerUse(name: texture, mode: mode, isVolume: volume || ShaderHeader.volumeTextures.contains(texture)))
        return Int32(samplers.count - 1)
    }

    private mutating func texture(_ name: String, _ arguments: [ShaderExpression], line: Int) throws(ShaderFault) -> ShaderValue {
        guard arguments.count >= 2 else { throw ShaderFault(line, "\(name) takes a sampler and a coordinate", .typeMismatch) }
        let volume = name.hasPrefix("tex3D")
        let slot = try samplerSlot(arguments[0], volume: volume, line: line)
        let coordinate = try expression(arguments[1])
        var u: Int32, v: Int32, w: Int32 = -1
        if volume {
            let c = try convert(coordinate, to: .float(3), line: line, explicit: false).parts
            (u, v, w) = (c[0], c[1], c[2])
        } else if name == "tex2Dproj" {
            let c = try convert(coordinate, to: .float(4), line: line, explicit: false).parts
            u = try emitter.binary(.divide, c[0], c[3])
            v = try emitter.binary(.divide, c[1], c[3])
        } else {
            let c = try convert(coordinate, to: .float(2), line: line, explicit: false).parts
            (u, v) = (c[0], c[1])
        }
        return ShaderValue(type: .float(4), parts: try emitter.sample(slot: slot, u: u, v: v, w: w))
    }
}
