/// A persistent square intensity image for scope traces: antialiased strokes and dots are deposited into
/// it, and it decays by a factor per frame, like the phosphor of an analogue oscilloscope screen.
///
/// Coordinates are in buffer pixels (texel i covers i…i+1). Values are 0…`ceiling`; anything that decays
/// below 1/512 becomes exactly 0, so an idle trace leaves nothing behind, and `rows` tracks the band of
/// rows that hold anything (decay and drawing visit only those). Decay goes from one buffer into
/// another, so a shader can keep the previous frame's picture and redo the current frame from it.
/// Allocates only in `init`.
final class PhosphorBuffer {
    let side: Int
    let values: UnsafeMutablePointer<Float>
    /// Rows holding a non-zero value (empty when the buffer is clear).
    private(set) var rows = 0..<0
    /// Per row, the columns that may hold a non-zero value: spanFrom[y] ..< spanTo[y] (empty: from ≥ to).
    let spanFrom: UnsafeMutablePointer<Int>, spanTo: UnsafeMutablePointer<Int>
    /// Values never exceed this (additive dots would otherwise grow without bound).
    let ceiling: Float = 4

    init(side: Int) {
        self.side = max(1, side)
        values = allocateFilled(self.side * self.side, 0)
        spanFrom = allocateFilled(self.side, self.side); spanTo = allocateFilled(self.side, 0)
    }

    deinit { values.deallocate(); spanFrom.deallocate(); spanTo.deallocate() }

    func clear() {
        guard !rows.isEmpty else { return }
        for y in rows where spanFrom[y] < spanTo[y] {
            (values + y * side + spanFrom[y]).update(repeating: 0, count: spanTo[y] - spanFrom[y])
            spanFrom[y] = side; spanTo[y] = 0
        }
        rows = 0..<0
    }

    /// Becomes `other` (of the same side) with every value multiplied by `factor` (0…1), tiny values
    /// flushed to 0 and `rows` shrunk to what is left.
    func decayed(from other: PhosphorBuffer, by factor: Float) {
        clear()
        guard factor > 0, other.side == side else { return }
        var first = Int.max, last = -1
        for y in other.rows where other.spanFrom[y] < other.spanTo[y] {
            let row = values + y * side, from = other.values + y * side
            var left = side, right = 0
            for x in other.spanFrom[y]..<other.spanTo[y] {
                let v = from[x] * factor
                let kept = v >= 1.0 / 512 ? v : 0
                row[x] = kept
                if kept > 0 { left = min(left, x); right = x + 1 }
            }
            // Zeros outside the new span are fine: `clear` only needs to reach the non-zero values.
            spanFrom[y] = left; spanTo[y] = right
            if left < right { first = min(first, y); last = y }
        }
        rows = last < 0 ? 0..<0 : first..<(last + 1)   // rows that faded out entirely hold zeros
    }

    /// Raises the texels under a line of half width `halfWidth` from a to b to `value` × coverage (max,
    /// not sum: a stroke has the same brightness where its segments join). Coverage is 0.5 + halfWidth −
    /// distance to the segment, clamped: a one-pixel antialiasing ramp at any slope.
    func stroke(_ ax: Float, _ ay: Float, _ bx: Float, _ by: Float, halfWidth: Float, value: Float) {
        deposit(ax, ay, bx, by, halfWidth: halfWidth, value: value, additive: false)
    }

    /// Adds `value` × coverage of a disc of radius `radius` around (x, y) (dots sum up where samples crowd).
    func dot(_ x: Float, _ y: Float, radius: Float, value: Float) {
        deposit(x, y, x, y, halfWidth: radius, value: value, additive: true)
    }

    private func deposit(_ ax: Float, _ ay: Float, _ bx: Float, _ by: Float, halfWidth: Float, value: Float,
                         additive: Bool) {
        guard ax.isFinite, ay.isFinite, bx.isFinite, by.isFinite, value > 0 else { return }
        let reach = halfWidth + 0.5
        let reach2 = reach * reach, solid2 = halfWidth > 0.5 ? (halfWidth - 0.5) * (halfWidth - 0.5) : -1
        let size = Float(side)
        let top = max(0, min(ay, by) - reach), bottom = min(size, max(ay, by) + reach)
        guard top < bottom, max(ax, bx) + reach > 0, min(ax, bx) - reach < size else { return }
        let dx = bx - ax, dy = by - ay
        let length2 = dx * dx + dy * dy
        let inverse: Float = length2 > 1e-12 ? 1 / length2 : 0
        let firstRow = Int(top), endRow = min(side, Int(bottom.rounded(.up)))
        for y in firstRow..<endRow {
            let py = Float(y) + 0.5
            // The part of the segment within reach of this row, widened by the reach: the only columns
            // the stroke can touch here.
            var t0: Float = 0, t1: Float = 1
            if dy != 0 {
                let ta = (py - reach - ay) / dy, tb = (py + reach - ay) / dy
                t0 = max(0, min(ta, tb)); t1 = min(1, max(ta, tb))
                guard t0 <= t1 else { continue }
            }
            let xa = ax + dx * t0, xb = ax + dx * t1
            let from = Int(max(0, min(xa, xb) - reach)), to = min(side, Int((max(xa, xb) + reach).rounded(.up)))
            guard from < to else { continue }
            let row = values + y * side
            // Eight columns at a time, then the rest one by one (the same operations: the same bits).
            var x0 = from
            let pyLanes = Lanes(repeating: py), ramp = Lanes(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5)
            while x0 + 8 <= to {
                let px = Lanes(repeating: Float(x0)) + ramp
                let t = clamp01(((px - ax) * dx + (pyLanes - ay) * dy) * inverse)
                let ex = px - (ax + dx * t), ey = pyLanes - (ay + dy * t)
                let coverage = clamp01(reach - (ex * ex + ey * ey).squareRoot())
                let old = loadLanes(row + x0)
                let new = additive ? old + coverage * value : lanesMax(old, coverage * value)
                storeLanes(new.replacing(with: ceiling, where: new .> ceiling), row + x0)
                x0 += 8
            }
            for x in x0..<to {
                let px = Float(x) + 0.5
                let t = clamp01(((px - ax) * dx + (py - ay) * dy) * inverse)
                let ex = px - (ax + dx * t), ey = py - (ay + dy * t)
                let d2 = ex * ex + ey * ey
                guard d2 < reach2 else { continue }   // no coverage: skip the square root
                let coverage = d2 <= solid2 ? 1 : clamp01(reach - d2.squareRoot())
                let new = additive ? row[x] + coverage * value : max(row[x], coverage * value)
                row[x] = min(new, ceiling)
            }
            rows = rows.isEmpty ? y..<(y + 1) : min(rows.lowerBound, y)..<max(rows.upperBound, y + 1)
            spanFrom[y] = min(spanFrom[y], from); spanTo[y] = max(spanTo[y], to)
        }
    }

    /// The value at a point in buffer pixels, bilinearly interpolated between texel centres (0 outside).
    @inline(__always)
    func sample(_ x: Float, _ y: Float) -> Float {
        let fx = x - 0.5, fy = y - 0.5
        let x0 = Int(floorFast(fx)), y0 = Int(floorFast(fy))
        let wx = fx - Float(x0), wy = fy - Float(y0)
        @inline(__always) func at(_ i: Int, _ j: Int) -> Float {
            i >= 0 && j >= 0 && i < side && j < side ? values[j * side + i] : 0
        }
        let top = mix(at(x0, y0), at(x0 + 1, y0), wx)
        let bottom = mix(at(x0, y0 + 1), at(x0 + 1, y0 + 1), wx)
        return mix(top, bottom, wy)
    }
}
