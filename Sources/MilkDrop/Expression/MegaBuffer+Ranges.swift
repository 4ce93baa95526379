extension MegaBuffer {
    /// `memset(dest, value, count)`: `count` entries from `dest` set to `value`, the range trimmed to
    /// the buffer (projectm-eval's rule). Zeros into blocks never written allocate nothing.
    static func fill(_ blocks: UnsafeMutablePointer<UnsafeMutablePointer<Double>?>, from dest: Double, value: Double, count: Double) {
        guard var (start, n) = range(dest, count) else { return }
        while n > 0 {
            let b = start >> 16, inBlock = min(n, blockSize - (start & 0xFFFF))
            if let block = blocks[b] ?? (value == 0 ? nil : allocateBlock(blocks, b)) {
                (block + (start & 0xFFFF)).update(repeating: value, count: inBlock)
            }
            start += inBlock
            n -= inBlock
        }
    }

    /// `memcpy(dest, src, count)`: as if through a temporary copy (overlap allowed), both ranges trimmed
    /// to the buffer, copying only what fits in both.
    static func copy(_ blocks: UnsafeMutablePointer<UnsafeMutablePointer<Double>?>, to dest: Double, from source: Double, count: Double) {
        var d = Int(entryClamped(dest)), s = Int(entryClamped(source))
        var n = Int(ExpressionMath.integer(count).clamped(to: 0...Int64(MilkDropLimits.megabufEntries)))
        if d < 0 { n += d; s -= d; d = 0 }
        if s < 0 { n += s; d -= s; s = 0 }
        n = min(n, MilkDropLimits.megabufEntries - d, MilkDropLimits.megabufEntries - s)
        guard n > 0, d != s else { return }
        if d < s {
            for k in 0..<n { write(blocks, Double(d + k), read(blocks, Double(s + k))) }
        } else {
            for k in stride(from: n - 1, through: 0, by: -1) { write(blocks, Double(d + k), read(blocks, Double(s + k))) }
        }
    }

    /// A `memset`/`memcpy` count as the buffer takes it: 0 … ``MilkDropLimits/megabufEntries`` (the
    /// work a call is charged).
    static func clampedCount(_ count: Double) -> Int {
        Int(ExpressionMath.integer(count).clamped(to: 0...Int64(MilkDropLimits.megabufEntries)))
    }

    /// A start and count inside the buffer, nil when nothing of it is.
    private static func range(_ dest: Double, _ count: Double) -> (Int, Int)? {
        var start = Int(entryClamped(dest))
        var n = Int(ExpressionMath.integer(count).clamped(to: 0...Int64(MilkDropLimits.megabufEntries)))
        if start < 0 { n += start; start = 0 }
        n = min(n, MilkDropLimits.megabufEntries - start)
        return n > 0 ? (start, n) : nil
    }

    /// An index as `entry` rounds it (down, after adding 0.0001), clamped to ±2·entries to fit an Int.
    private static func entryClamped(_ index: Double) -> Int64 {
        let limit = Int64(2 * MilkDropLimits.megabufEntries)
        return ExpressionMath.integer((index + 0.0001).rounded(.down)).clamped(to: -limit...limit)
    }
}

extension Comparable {
    fileprivate func clamped(to r: ClosedRange<Self>) -> Self { min(max(self, r.lowerBound), r.upperBound) }
}
