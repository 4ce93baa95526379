/// The kinds of a preset's code, each with a work budget of its own per frame
/// (``MilkDropLimits/workBudget``).
package enum MilkCodeKind: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// The init code of the preset, its waves and shapes (the first frame).
    case initial
    /// The per-frame code of the preset and its waves.
    case perFrame
    /// The per-pixel (per-vertex) code: its budget is per vertex, so the frame's result never depends
    /// on how the vertices are shared out.
    case perVertex
    /// The per-point code of every custom wave.
    case wavePoint
    /// The per-frame code of every custom shape, run once per instance.
    case shapeInstance

    /// What a budget of `n` instructions of this kind means, for messages.
    package func allowance(_ n: Int) -> String {
        self == .perVertex ? "\(n) instructions per vertex a frame" : "\(n) instructions a frame for \(self) code"
    }

    package var description: String {
        switch self {
        case .initial: "init"
        case .perFrame: "per-frame"
        case .perVertex: "per-vertex"
        case .wavePoint: "per-point"
        case .shapeInstance: "per-instance"
        }
    }
}

/// Instructions per kind of code (see ``MilkCodeKind``): budgets, spent work or peaks.
package struct MilkWorkAmounts: Sendable, Equatable {
    package var values = SIMD8<Int>()

    package init() {}

    package subscript(kind: MilkCodeKind) -> Int {
        get { values[kind.rawValue] }
        set { values[kind.rawValue] = newValue }
    }

    /// No bound (for measuring, and for comparing a frame with its budgeted twin).
    package static var unlimited: MilkWorkAmounts {
        var a = MilkWorkAmounts()
        a.values = SIMD8(repeating: Int.max / 2)
        return a
    }
}

/// A block of a preset's code as a report names it: `per_pixel`, `wave 2 per_point`…, with the line
/// of the `.milk` file its code starts on (when it came from a file).
package struct MilkCodeLabel: Sendable, Equatable, CustomStringConvertible {
    package var block: String
    package var line: Int?
    package var kind: MilkCodeKind

    package var description: String { line.map { "\(block) (line \($0))" } ?? block }
}

/// A frame's work: what each kind of code may still spend, which block ran out first, and the most
/// each kind spent in one frame (per vertex: in one vertex), for measuring real presets.
///
/// Sequential kinds share one running budget per frame; per-vertex code gets its budget afresh for
/// every vertex. Once a block runs out, the preset's code is stopped for the rest of the frame.
package struct MilkWork: Sendable {
    /// The budgets (per frame; per vertex for per-vertex code).
    package let budget: MilkWorkAmounts
    private var left: MilkWorkAmounts
    private var spentPeak = MilkWorkAmounts()
    /// The block that ran out this frame (nil: none did).
    package private(set) var overrun: MilkCodeLabel?

    package init(budget: MilkWorkAmounts) {
        self.budget = budget
        left = budget
    }

    /// A new frame: every sequential budget full again, no overrun.
    package mutating func startFrame() {
        spentPeak.values = spentPeak.values.replacing(with: budget.values &- left.values,
                                                      where: budget.values &- left.values .> spentPeak.values)
        left = budget
        overrun = nil
    }

    /// The most each kind spent in one frame so far, this frame included.
    package var peak: MilkWorkAmounts {
        var p = spentPeak
        let now = budget.values &- left.values
        p.values = p.values.replacing(with: now, where: now .> p.values)
        return p
    }

    /// Runs `program` within what its kind has left; false (and the block recorded as the overrun)
    /// when the budget ran out, or when an earlier block already stopped this frame (it does not run).
    @inline(__always)
    package mutating func run(_ program: ExpressionProgram, _ label: MilkCodeLabel) -> Bool {
        guard overrun == nil else { return false }
        let k = label.kind.rawValue
        let finished: Bool
        if label.kind == .perVertex {
            var allowance = budget.values[k]
            finished = program.run(budget: &allowance)
            // Per vertex, `left` holds the spare of the frame's hungriest vertex (what peak reads).
            left.values[k] = Swift.min(left.values[k], allowance)
        } else {
            var allowance = left.values[k]
            finished = program.run(budget: &allowance)
            left.values[k] = allowance
        }
        if !finished { overrun = label }
        return finished
    }
}

extension MilkCodeLabel {
    /// The label of `code` (its first line, none for code not from a file's lines).
    init(_ block: String, _ code: CodeBlock, _ kind: MilkCodeKind) {
        self.init(block: block, line: code.isEmpty ? nil : code.line(atOffset: 0), kind: kind)
    }

    /// The refusal of a block whose code alone, run `runs` times a frame, is over its kind's budget:
    /// nil when it fits. `size` is its static length.
    static func refusal(_ label: MilkCodeLabel, size: Int, runs: Int, budget: MilkWorkAmounts) -> String? {
        let allowance = budget[label.kind], runs = max(1, runs)
        guard size > allowance / runs else { return nil }
        let times = runs > 1 ? " × \(runs) runs" : ""
        return "\(label.block): \(size) instructions\(times) are over the work budget (\(label.kind.allowance(allowance)))"
    }
}
