/// One entry of a shader's parameter table: declared once, it drives validation, `--help`,
/// `marble effects` and the docs (libavfilter's AVOption idea).
public struct ParameterDescriptor: Sendable {
    /// The parameter's type, its default value and, for numbers, its allowed range.
    public enum Kind: Sendable {
        /// A real number in a closed range. Can be bound to an audio feature in a preset.
        case number(default: Double, range: ClosedRange<Double>)
        /// A whole number in a closed range. Can be bound to an audio feature (rounded).
        case integer(default: Int, range: ClosedRange<Int>)
        /// A colour (`#rrggbb`, `#rrggbbaa`, or a CSS name).
        case color(default: Color)
        /// One of a fixed list of words.
        case choice(default: String, options: [String])
        /// true / false.
        case flag(default: Bool)
        /// Free text, e.g. a file path ("" means unset).
        case text(default: String)
    }

    /// The name presets and the command line use (`count`, `color`).
    public let name: String
    /// One sentence for `marble effects` and error messages.
    public let help: String
    /// Type, default and range.
    public let kind: Kind

    /// A table entry: `name`, one sentence of `help`, and its `kind` with the default.
    public init(_ name: String, _ help: String, _ kind: Kind) {
        self.name = name
        self.help = help
        self.kind = kind
    }

    /// Numbers and integers can follow audio features.
    public var isBindable: Bool {
        switch kind {
        case .number, .integer: true
        default: false
        }
    }

    /// The default, as a user would write it.
    public var defaultDescription: String {
        switch kind {
        case .number(let d, _): ParameterDescriptor.format(d)
        case .integer(let d, _): "\(d)"
        case .color(let c): c.description
        case .choice(let d, _): d
        case .flag(let d): d ? "true" : "false"
        case .text(let d): d.isEmpty ? "(none)" : d
        }
    }

    /// The accepted values, as a user would read them.
    public var rangeDescription: String {
        switch kind {
        case .number(_, let r): "\(ParameterDescriptor.format(r.lowerBound))…\(ParameterDescriptor.format(r.upperBound))"
        case .integer(_, let r): "\(r.lowerBound)…\(r.upperBound)"
        case .color: "colour"
        case .choice(_, let options): options.joined(separator: "|")
        case .flag: "true|false"
        case .text: "text"
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? "\(Int(value))" : "\(value)"
    }
}

/// A parameter value as written in a preset file or on the command line, before validation.
public enum ParameterValue: Sendable, Equatable, Codable, CustomStringConvertible {
    /// A number (integers are numbers too until validation).
    case number(Double)
    /// A word or a string: a colour, a choice, a path.
    case text(String)
    /// true or false.
    case flag(Bool)

    /// Decodes a YAML or JSON scalar: a boolean as a flag, a number as a number, anything else as text.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { self = .flag(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else { self = .text(try c.decode(String.self)) }
    }

    /// Encodes the plain scalar (a boolean, a number or a string).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let d): try c.encode(d)
        case .text(let s): try c.encode(s)
        case .flag(let b): try c.encode(b)
        }
    }

    /// Parses command-line text: a number, true/false, or anything else as text.
    public init(parsing text: String) {
        if let d = Double(text) { self = .number(d) }
        else if text == "true" || text == "false" { self = .flag(text == "true") }
        else { self = .text(text) }
    }

    /// The value as a preset writes it; text in double quotes.
    public var description: String {
        switch self {
        case .number(let d): ParameterDescriptor.format(d)
        case .text(let s): "\"\(s)\""
        case .flag(let b): b ? "true" : "false"
        }
    }
}

/// A parameter that failed validation. `parameter` names the field; the message is one sentence.
public struct ParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The shader's name.
    public let shader: String
    /// The parameter's name (`name` when the shader itself is unknown).
    public let parameter: String
    /// What is wrong, e.g. `1000 is out of range 8…256`.
    public let message: String
    /// An error about `parameter` of `shader`.
    public init(shader: String, parameter: String, message: String) {
        self.shader = shader
        self.parameter = parameter
        self.message = message
    }
    /// `shader.parameter: message`.
    public var description: String { "\(shader).\(parameter): \(message)" }
}

/// Validated parameter values for one shader instance, in descriptor order.
///
/// Built once from user values (``init(descriptor:values:)`` checks names, types and ranges); numeric
/// values may then be updated once per frame by audio bindings (``setNumber(at:_:)``) without allocating.
/// Kernels read them by name in `prepare`.
public struct ShaderParameters: Sendable {
    /// The table the values were validated against.
    public let descriptor: ShaderDescriptor
    private var numbers: [Double]
    private var colors: [Color]
    private var texts: [String]
    private var flags: [Bool]

    /// Validates `values` against the table: unknown names, wrong types and out-of-range numbers throw.
    public init(descriptor: ShaderDescriptor, values: [String: ParameterValue] = [:]) throws(ParameterError) {
        self.descriptor = descriptor
        let count = descriptor.parameters.count
        numbers = [Double](repeating: 0, count: count)
        colors = [Color](repeating: .black, count: count)
        texts = [String](repeating: "", count: count)
        flags = [Bool](repeating: false, count: count)
        for name in values.keys where descriptor.index(of: name) == nil {
            let known = descriptor.parameters.map(\.name).joined(separator: ", ")
            throw ParameterError(shader: descriptor.name, parameter: name,
                                 message: "unknown parameter (known: \(known.isEmpty ? "none" : known))")
        }
        for (i, p) in descriptor.parameters.enumerated() {
            let value = values[p.name]
            func fail(_ message: String) -> ParameterError {
                ParameterError(shader: descriptor.name, parameter: p.name, message: message)
            }
            switch p.kind {
            case .number(let d, let range):
                guard let v = value else { numbers[i] = d; continue }
                guard case .number(let x) = v, x.isFinite else { throw fail("expected a number, got \(v)") }
                guard range.contains(x) else { throw fail("\(ParameterDescriptor.format(x)) is out of range \(p.rangeDescription)") }
                numbers[i] = x
            case .integer(let d, let range):
                guard let v = value else { numbers[i] = Double(d); continue }
                guard case .number(let x) = v, x.isFinite, x == x.rounded() else { throw fail("expected a whole number, got \(v)") }
                // Compared as doubles: converting 1e20 to Int first would trap.
                guard x >= Double(range.lowerBound), x <= Double(range.upperBound) else {
                    throw fail("\(ParameterDescriptor.format(x)) is out of range \(p.rangeDescription)")
                }
                numbers[i] = x
            case .color(let d):
                guard let v = value else { colors[i] = d; continue }
                guard case .text(let s) = v, let c = Color(parsing: s) else {
                    throw fail("expected a colour like \"#ff8800\" or \"#ff880080\", got \(v)")
                }
                colors[i] = c
            case .choice(let d, let options):
                guard let v = value else { texts[i] = d; continue }
                guard case .text(let s) = v, options.contains(s) else {
                    throw fail("expected one of \(options.joined(separator: ", ")), got \(v)")
                }
                texts[i] = s
            case .flag(let d):
                guard let v = value else { flags[i] = d; continue }
                guard case .flag(let b) = v else { throw fail("expected true or false, got \(v)") }
                flags[i] = b
            case .text(let d):
                guard let v = value else { texts[i] = d; continue }
                switch v {
                case .text(let s): texts[i] = s
                case .number, .flag: texts[i] = v.description
                }
            }
        }
    }

    private func index(_ name: String) -> Int {
        guard let i = descriptor.index(of: name) else {
            preconditionFailure("shader \(descriptor.name) reads undeclared parameter \(name)")
        }
        return i
    }

    /// Current value of a `.number` parameter (after bindings).
    public func number(_ name: String) -> Float { Float(numbers[index(name)]) }
    /// Current value of an `.integer` parameter (after bindings, rounded and clamped to its range).
    public func integer(_ name: String) -> Int {
        let i = index(name)
        let range: ClosedRange<Int>
        if case .integer(_, let r) = descriptor.parameters[i].kind { range = r } else { range = -1_000_000_000...1_000_000_000 }
        let clamped = min(Double(range.upperBound), max(Double(range.lowerBound), numbers[i].rounded()))
        return clamped.isFinite ? Int(clamped) : range.lowerBound
    }
    /// Value of a `.color` parameter. `name` must be in the table (a programming error otherwise).
    public func color(_ name: String) -> Color { colors[index(name)] }
    /// Value of a `.choice` parameter: one of its options.
    public func choice(_ name: String) -> String { texts[index(name)] }
    /// Value of a `.flag` parameter.
    public func flag(_ name: String) -> Bool { flags[index(name)] }
    /// Value of a `.text` parameter ("" when unset).
    public func text(_ name: String) -> String { texts[index(name)] }

    /// The validated base value of a numeric parameter.
    public func numberValue(at index: Int) -> Double { numbers[index] }

    /// Sets a numeric parameter for this frame, clamped to its declared range. Allocation-free.
    public mutating func setNumber(at index: Int, _ value: Double) {
        let v = value.isFinite ? value : 0
        switch descriptor.parameters[index].kind {
        case .number(_, let r): numbers[index] = min(r.upperBound, max(r.lowerBound, v))
        case .integer(_, let r): numbers[index] = min(Double(r.upperBound), max(Double(r.lowerBound), v))
        default: break
        }
    }
}
