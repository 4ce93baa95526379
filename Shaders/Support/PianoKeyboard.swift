/// The per-column pictures of `piano`'s keyboard and sonogram row, made in `prepare` (one thread) and
/// copied row by row in `render`.
///
/// Geometry: note i of the range (MIDI `low + i`) owns the slot [i·slot, (i+1)·slot). The keyboard's
/// upper part has a key per slot (black notes dark, white notes light), the lower part the white keys
/// as on a piano: C, D, E share the first 5/12 of their octave, F, G, A, B the other 7/12, so the
/// E|F and B|C joints meet the slots' edges. Keys are separated by `separator` pixels of the bed
/// colour. Each column's colour is the box filter of the keys over it (coverage-weighted), so keys a
/// pixel wide or less stay smooth instead of aliasing.
final class PianoKeyboard {
    let low: Int, count: Int
    private(set) var width = 0
    /// Slot width, pixels.
    private(set) var slot: Float = 1
    /// Packed colours per column: the upper and lower parts of the keyboard, the sonogram's new row.
    private(set) var upper: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    private(set) var lower: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    private(set) var sonogramRow: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    /// Centres of the C keys' lower parts, pixels (at most one per octave of the range).
    let cCenters: UnsafeMutablePointer<Float>
    private(set) var cCount = 0
    // Float accumulators per column (r, g, b, a), for the box filter.
    private var sum: UnsafeMutablePointer<Float> = .allocate(capacity: 4)

    private static let bed: (Float, Float, Float) = (0.03, 0.03, 0.035)
    private static let white: (Float, Float, Float) = (0.80, 0.80, 0.82)
    private static let black: (Float, Float, Float) = (0.10, 0.10, 0.11)
    /// Whether pitch class `pc` is a black key.
    static func isBlack(_ pc: Int) -> Bool { pc == 1 || pc == 3 || pc == 6 || pc == 8 || pc == 10 }

    init(low: Int, count: Int) {
        self.low = low; self.count = count
        cCenters = allocateFilled(count / 12 + 2, 0)
    }

    deinit {
        upper.deallocate(); lower.deallocate(); sonogramRow.deallocate(); sum.deallocate(); cCenters.deallocate()
    }

    func configure(width: Int) {
        guard width != self.width else { return }
        upper.deallocate(); lower.deallocate(); sonogramRow.deallocate(); sum.deallocate()
        self.width = width
        slot = Float(width) / Float(count)
        upper = allocateFilled(width, 0); lower = allocateFilled(width, 0); sonogramRow = allocateFilled(width, 0)
        sum = allocateFilled(4 * width, 0)
        cCount = 0
        for i in 0..<count where (low + i) % 12 == 0 { cCenters[cCount] = (Float(i) + 5.0 / 6) * slot; cCount += 1 }
    }

    /// Recomputes the keyboard's columns (lit by `levels`, the bars' levels) and the sonogram row (`raw`,
    /// this frame's levels) from the notes' colours.
    func prepare(levels: UnsafeMutablePointer<Float>, raw: UnsafeMutablePointer<Float>, red: UnsafeMutablePointer<Float>,
                 green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>, separator: Float, keys: Bool, sonogram: Bool) {
        guard width > 0 else { return }
        let bed = Self.bed
        if keys {
            // Upper part: a key per slot.
            clear(bed.0, bed.1, bed.2, 1)
            for i in 0..<count {
                let black = Self.isBlack((low + i) % 12)
                let key = lit(black ? Self.black : Self.white, i, levels, red, green, blue, black ? 1 : 0.85)
                add(start: Float(i) * slot + separator * 0.5, end: Float(i + 1) * slot - separator * 0.5,
                    key.0 - bed.0, key.1 - bed.1, key.2 - bed.2, 0)
            }
            pack(into: upper)
            // Lower part: the white keys of every octave the range touches.
            clear(bed.0, bed.1, bed.2, 1)
            let firstC = low - ((low % 12) + 12) % 12
            var octave = firstC
            while octave <= low + count - 1 {
                let c = Float(octave - low) * slot
                for (k, pc) in [0, 2, 4, 5, 7, 9, 11].enumerated() {
                    let (a, b): (Float, Float) = k < 3
                        ? (c + Float(k) * 5 / 3 * slot, c + Float(k + 1) * 5 / 3 * slot)
                        : (c + 5 * slot + Float(k - 3) * 7 / 4 * slot, c + 5 * slot + Float(k - 2) * 7 / 4 * slot)
                    let i = octave + pc - low
                    let key = i >= 0 && i < count ? lit(Self.white, i, levels, red, green, blue, 0.85) : Self.white
                    add(start: a + separator * 0.5, end: b - separator * 0.5, key.0 - bed.0, key.1 - bed.1, key.2 - bed.2, 0)
                }
                octave += 12
            }
            pack(into: lower)
        }
        if sonogram {
            clear(0, 0, 0, 0)
            for i in 0..<count {
                let t = raw[i]
                add(start: Float(i) * slot, end: Float(i + 1) * slot, red[i] * t, green[i] * t, blue[i] * t, t)
            }
            pack(into: sonogramRow)
        }
    }

    /// One keyboard row: the upper part's colours, the lower part's, or (on the row where they meet)
    /// both weighted by `upperShare`.
    func keyRow(_ dst: UnsafeMutablePointer<UInt32>, width w: Int, upperShare: Float) {
        if upperShare >= 1 {
            dst.update(from: upper, count: w)
        } else if upperShare <= 0 {
            dst.update(from: lower, count: w)
        } else {
            let k = weight256(upperShare)
            for x in 0..<w { dst[x] = lerpPixel(lower[x], upper[x], k) }
        }
    }

    /// Column `x` of a keyboard row (see ``keyRow(_:width:upperShare:)``).
    @inline(__always)
    func keyPixel(_ x: Int, upperShare: Float) -> UInt32 {
        upperShare >= 1 ? upper[x] : upperShare <= 0 ? lower[x] : lerpPixel(lower[x], upper[x], weight256(upperShare))
    }

    /// A key's colour: its base mixed towards its note's colour by `strength` × the note's level.
    private func lit(_ base: (Float, Float, Float), _ i: Int, _ levels: UnsafeMutablePointer<Float>,
                     _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>,
                     _ strength: Float) -> (Float, Float, Float) {
        let t = clamp01(levels[i] * 1.4) * strength
        return (mix(base.0, r[i], t), mix(base.1, g[i], t), mix(base.2, b[i], t))
    }

    private func clear(_ r: Float, _ g: Float, _ b: Float, _ a: Float) {
        for x in 0..<width { sum[4 * x] = r; sum[4 * x + 1] = g; sum[4 * x + 2] = b; sum[4 * x + 3] = a }
    }

    /// Adds a span's colour to the columns it covers, weighted by the covered fraction of each.
    private func add(start: Float, end: Float, _ r: Float, _ g: Float, _ b: Float, _ a: Float) {
        let x0 = max(0, Int(max(0, start))), x1 = min(width, Int(max(0, end).rounded(.up)))
        guard x0 < x1 else { return }
        for x in x0..<x1 {
            let o = clamp01(min(end, Float(x + 1)) - max(start, Float(x)))
            sum[4 * x] += r * o; sum[4 * x + 1] += g * o; sum[4 * x + 2] += b * o; sum[4 * x + 3] += a * o
        }
    }

    private func pack(into out: UnsafeMutablePointer<UInt32>) {
        for x in 0..<width {
            let a = clamp01(sum[4 * x + 3])
            out[x] = packPremultiplied(min(a, sum[4 * x]), min(a, sum[4 * x + 1]), min(a, sum[4 * x + 2]), a)
        }
    }
}
