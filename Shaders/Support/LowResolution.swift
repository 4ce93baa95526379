/// Evaluates a picture at 1/`scale` of the output resolution, row by row, and stretches it bilinearly
/// to full size: the way smooth fields (fbm, plasma) and wide blurs stay cheap at 1080p.
///
/// Strip safety: a strip starting at output row lo uses only rows 5·lo…5·lo+4 of the scratch (two
/// stretched low-resolution rows, one output row, one raw low-resolution row, one row of right-hand
/// neighbours for the horizontal stretch) and slot lo of the
/// workspace (room for the kernel's per-pixel accumulators: ``workspace(forStripAt:)``), so
/// concurrent strips never share memory. Low-resolution rows on strip borders are evaluated by both strips; evaluation
/// is a pure function of the row index, so any strip split gives identical bytes.
///
/// Sampling: low-resolution pixel i covers output pixels i·scale…(i+1)·scale−1 and is evaluated at
/// their centre, output x = (i + 0.5)·scale (``center(_:)``); outside the first and last centres the
/// edge value is held.
import MarbleCore

final class LowResolution: @unchecked Sendable {
    // @unchecked Sendable: immutable after init except the scratch, partitioned by strip as above.
    let scale: Int
    let width: Int, height: Int
    let lowWidth: Int, lowHeight: Int
    private let scratch: UnsafeMutablePointer<UInt32>
    private let workspaces: UnsafeMutablePointer<UInt32>
    private let x0: UnsafeMutablePointer<Int>       // left low pixel for each output x
    private let x1: UnsafeMutablePointer<Int>       // right low pixel
    private let wx: UnsafeMutablePointer<UInt16>    // weight of x1, 0…256
    private let byteWeights: UnsafeMutablePointer<UInt16>  // wx repeated for the 4 bytes of each pixel

    init(width: Int, height: Int, scale: Int) {
        self.scale = max(1, scale)
        self.width = max(1, width); self.height = max(1, height)
        lowWidth = (self.width + self.scale - 1) / self.scale
        lowHeight = (self.height + self.scale - 1) / self.scale
        // Not initialised: every row is written before it is read; untouched strip slots cost nothing.
        scratch = .allocate(capacity: 5 * self.height * self.width)
        workspaces = .allocate(capacity: Self.workspaceArrays * lowWidth * self.height)
        x0 = allocateFilled(self.width, 0); x1 = allocateFilled(self.width, 0); wx = allocateFilled(self.width, 0)
        for x in 0..<self.width {
            let (i, j, w) = Self.tap(x, scale: self.scale, count: lowWidth)
            x0[x] = i; x1[x] = j; wx[x] = UInt16(w)
        }
        byteWeights = allocateFilled(4 * self.width, 0)
        for i in 0..<(4 * self.width) { byteWeights[i] = wx[i / 4] }
    }

    deinit {
        scratch.deallocate(); workspaces.deallocate(); x0.deallocate(); x1.deallocate(); wx.deallocate()
        byteWeights.deallocate()
    }

    static let workspaceArrays = 8

    /// Private memory of the strip whose first row is `lo`: room for eight arrays of `lowWidth` 32-bit
    /// values (per-pixel accumulators of tap loops). Not initialised.
    func workspace(forStripAt lo: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(workspaces + Self.workspaceArrays * lowWidth * min(max(lo, 0), height - 1))
    }

    /// Output x (or y) of the centre of low-resolution pixel `i`, in output pixel units.
    @inline(__always) func center(_ i: Int) -> Float { (Float(i) + 0.5) * Float(scale) }

    /// The two low-resolution pixels around output pixel `p` and the weight (0…256) of the second.
    static func tap(_ p: Int, scale: Int, count: Int) -> (Int, Int, Int) {
        let position = (Double(p) + 0.5) / Double(scale) - 0.5
        guard position > 0 else { return (0, 0, 0) }
        let i = min(Int(position), count - 1)
        let j = min(i + 1, count - 1)
        let w = j == i ? 0 : Int(((position - Double(i)) * 256).rounded())
        return (i, j, w)
    }

    /// Produces output rows `rows` (clipped to the height): `evaluate(j, row)` writes the `lowWidth`
    /// pixels of low-resolution row j; `emit(y, row)` receives each stretched output row (`width` pixels,
    /// valid until the next call).
    @inline(__always)
    func render(rows: Range<Int>, evaluate: (Int, UnsafeMutablePointer<UInt32>) -> Void,
                emit: (Int, UnsafeMutablePointer<UInt32>) -> Void) {
        let output = scratch + 5 * min(max(rows.lowerBound, 0), height - 1) * width + 2 * width
        render(rows: rows, evaluate: evaluate, destination: { _ in output }, emit: emit)
    }

    /// Stretched rows written straight into `target` (generators): no extra copy.
    func render(_ target: TextureView, rows: Range<Int>, evaluate: (Int, UnsafeMutablePointer<UInt32>) -> Void) {
        guard target.width >= width else { return }
        render(rows: rows.clamped(to: 0..<min(height, target.height)), evaluate: evaluate,
               destination: { target.row32($0) }, emit: { _, _ in })
    }

    /// The loop: `destination(y)` says where output row y goes, then `emit(y, thatRow)` runs.
    @inline(__always)
    private func render(rows: Range<Int>, evaluate: (Int, UnsafeMutablePointer<UInt32>) -> Void,
                        destination: (Int) -> UnsafeMutablePointer<UInt32>,
                        emit: (Int, UnsafeMutablePointer<UInt32>) -> Void) {
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        let base = scratch + 5 * rows.lowerBound * width
        var slotA = base, slotB = base + width
        let raw = base + 3 * width
        // Left and right neighbours of every output pixel; the left ones borrow the output row, which
        // is only written after both stretches of an iteration.
        let lefts = base + 2 * width, rights = base + 4 * width
        var rowInA = -1, rowInB = -1
        func stretch(_ j: Int, into slot: UnsafeMutablePointer<UInt32>) {
            evaluate(j, raw)
            for x in 0..<width { lefts[x] = raw[x0[x]]; rights[x] = raw[x1[x]] }
            lerpBytes(lefts, rights, slot, count: width, weights: byteWeights)
        }
        for y in rows {
            let (j0, j1, w) = Self.tap(y, scale: scale, count: lowHeight)
            // Keep whichever of the two cached rows is still needed (swap pointers, not pixels).
            if rowInA != j0 && rowInB == j0 { swap(&rowInA, &rowInB); swap(&slotA, &slotB) }
            if rowInA != j0 { stretch(j0, into: slotA); rowInA = j0 }
            if w > 0 && rowInB != j1 { stretch(j1, into: slotB); rowInB = j1 }
            let out = destination(y)
            if w == 0 {
                out.update(from: slotA, count: width)
            } else {
                lerpRows(slotA, slotB, out, count: width, weight: UInt16(w))
            }
            emit(y, out)
        }
    }
}

/// Per-byte lerp with a weight per byte (0…256 of `b`), rounded; 16-bit lanes, so it vectorises.
@inline(__always) func lerpBytes(_ a: UnsafeMutablePointer<UInt32>, _ b: UnsafeMutablePointer<UInt32>,
                                 _ out: UnsafeMutablePointer<UInt32>, count: Int, weights: UnsafeMutablePointer<UInt16>) {
    let pa = UnsafeMutableRawPointer(a).assumingMemoryBound(to: UInt8.self)
    let pb = UnsafeMutableRawPointer(b).assumingMemoryBound(to: UInt8.self)
    let po = UnsafeMutableRawPointer(out).assumingMemoryBound(to: UInt8.self)
    for i in 0..<(count &* 4) {
        let w = weights[i]
        po[i] = UInt8(truncatingIfNeeded: (UInt16(pa[i]) &* (256 &- w) &+ UInt16(pb[i]) &* w &+ 128) >> 8)
    }
}

/// out = a·(256 − w)/256 + b·w/256 per byte, rounded; 16-bit lanes, so SSE2 does eight bytes at once.
@inline(__always) func lerpRows(_ a: UnsafeMutablePointer<UInt32>, _ b: UnsafeMutablePointer<UInt32>,
                                _ out: UnsafeMutablePointer<UInt32>, count: Int, weight w: UInt16) {
    let pa = UnsafeMutableRawPointer(a).assumingMemoryBound(to: UInt8.self)
    let pb = UnsafeMutableRawPointer(b).assumingMemoryBound(to: UInt8.self)
    let po = UnsafeMutableRawPointer(out).assumingMemoryBound(to: UInt8.self)
    let iw = 256 &- w
    for i in 0..<(count &* 4) {
        po[i] = UInt8(truncatingIfNeeded: (UInt16(pa[i]) &* iw &+ UInt16(pb[i]) &* w &+ 128) >> 8)
    }
}

extension LowResolution {
    /// True when the grid was made for `target`'s size and `source` covers the target (what a filter's
    /// `render` needs before touching the grid; otherwise ``clearRows(_:_:)``).
    @inline(__always) func fits(_ target: TextureView, source: TextureView) -> Bool {
        width == target.width && height == target.height
            && source.width >= target.width && source.height >= target.height
    }

    /// For a filter's `configure`: remakes `grid` for `width`×`height` at `scale` (evaluated only when
    /// the size changed) with `shared` rows at its resolution, each element `filler`; keeps both when
    /// the grid already has that size.
    static func configure<Element>(_ grid: inout LowResolution?, shared: inout SharedRows<Element>?,
                                   width: Int, height: Int, scale: @autoclosure () -> Int, filler: Element) {
        guard grid?.width != width || grid?.height != height else { return }
        let made = LowResolution(width: width, height: height, scale: scale())
        grid = made
        shared = SharedRows(width: made.lowWidth, height: made.lowHeight, filler: filler)
    }
}

/// Fills `rows` of `target` with transparent black: what a kernel draws without a fitting
/// ``LowResolution`` grid (no `configure` for this size) instead of crashing.
@inline(__always) func clearRows(_ target: TextureView, _ rows: Range<Int>) {
    for y in rows { fillPixels(target.row32(y), target.width, 0) }
}
