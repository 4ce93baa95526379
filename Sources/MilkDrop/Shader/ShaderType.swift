/// The type of a shader value: a scalar, a vector of 2…4 or a matrix of 1…4 × 1…4 components of
/// `float`, `int` or `bool`. `half` and `double` are `float` (the CPU computes in 32-bit floats);
/// `float1` and `float1x1` are scalars. Scalarised, a value is `rows × columns` registers, row-major.
struct ShaderType: Hashable, Sendable, CustomStringConvertible {
    enum Base: Sendable, Hashable { case float, int, bool }

    var base: Base
    var rows: Int
    var columns: Int
    var isMatrix: Bool

    static func scalar(_ base: Base) -> ShaderType { ShaderType(base: base, rows: 1, columns: 1, isMatrix: false) }
    static func vector(_ base: Base, _ n: Int) -> ShaderType { ShaderType(base: base, rows: 1, columns: n, isMatrix: false) }
    static func matrix(_ base: Base, _ rows: Int, _ columns: Int) -> ShaderType {
        rows == 1 && columns == 1 ? .scalar(base) : ShaderType(base: base, rows: rows, columns: columns, isMatrix: true)
    }
    static let float = scalar(.float), int = scalar(.int), bool = scalar(.bool)
    static func float(_ n: Int) -> ShaderType { n == 1 ? .float : vector(.float, n) }

    var count: Int { rows * columns }
    var isScalar: Bool { count == 1 && !isMatrix }
    var isVector: Bool { !isMatrix && count > 1 }
    func with(_ base: Base) -> ShaderType { var t = self; t.base = base; return t }

    var description: String {
        let name = switch base { case .float: "float"; case .int: "int"; case .bool: "bool" }
        if isMatrix { return "\(name)\(rows)x\(columns)" }
        return count == 1 ? name : "\(name)\(count)"
    }

    /// The type a name spells (`float3`, `half4x3`, `int`, `bool2`, `double`...), nil for other names.
    static func named(_ name: String) -> ShaderType? {
        if let cached = table[name] { return cached }
        return nil
    }

    private static let table: [String: ShaderType] = {
        var t: [String: ShaderType] = [:]
        let bases: [(String, Base)] = [("float", .float), ("half", .float), ("double", .float), ("int", .int),
                                       ("uint", .int), ("dword", .int), ("bool", .bool)]
        for (name, base) in bases {
            t[name] = .scalar(base)
            for n in 1...4 {
                t["\(name)\(n)"] = n == 1 ? .scalar(base) : .vector(base, n)
                for m in 1...4 { t["\(name)\(n)x\(m)"] = .matrix(base, n, m) }
            }
        }
        return t
    }()

    /// The type of an arithmetic result of two operands (HLSL's rules: a scalar broadcasts, the
    /// wider of two vectors or matrices is truncated to the narrower, `float` wins over `int`, `int`
    /// over `bool`); nil when the shapes do not combine (a vector with a matrix).
    static func combined(_ a: ShaderType, _ b: ShaderType) -> ShaderType? {
        let base: Base = a.base == .float || b.base == .float ? .float : .int
        if a.isScalar { return b.with(base) }
        if b.isScalar { return a.with(base) }
        if a.isMatrix != b.isMatrix {
            // A vector and a matrix of as many components combine as the vector.
            guard a.count == b.count else { return nil }
            return (a.isMatrix ? b : a).with(base)
        }
        if a.isMatrix { return .matrix(base, min(a.rows, b.rows), min(a.columns, b.columns)) }
        return .vector(base, min(a.count, b.count))
    }
}
