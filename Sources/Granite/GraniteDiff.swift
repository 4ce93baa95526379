/// Readable differences between two values, for test failure messages.
enum GraniteDiff {
    /// Lists the stored properties whose descriptions differ, as `- expected` / `+ actual` lines;
    /// falls back to the two whole descriptions.
    static func describe<T>(expected: T, actual: T) -> String {
        let left = Mirror(reflecting: expected).children
        let right = Mirror(reflecting: actual).children
        var lines: [String] = []
        if left.count == right.count && !left.isEmpty {
            for (l, r) in zip(left, right) {
                let a = String(describing: l.value)
                let b = String(describing: r.value)
                if a != b {
                    let name = l.label ?? "?"
                    lines.append("  - \(name): \(a)")
                    lines.append("  + \(name): \(b)")
                }
            }
        }
        if lines.isEmpty {
            lines = ["  - \(expected)", "  + \(actual)"]
        }
        return "(expected: -, actual: +)\n" + lines.joined(separator: "\n")
    }
}
