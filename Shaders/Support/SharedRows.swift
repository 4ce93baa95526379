/// Rows of a per-frame derived image (the picture at low resolution, its bright-pass), computed once
/// per frame by whichever strip first needs each row, then shared by every strip.
///
/// Why: a filter's `source` only exists during `render`, which runs concurrently on strips, while
/// wide blurs need the whole picture. Reading the full-resolution picture at scattered positions is
/// bound by memory latency (measured: ~6 ns a tap, 20 ms a frame for god rays); a quarter-resolution
/// copy fits in the L2 cache. Each row has an atomic state: a strip claims a stale row, fills it and
/// publishes it (release); others wait for the publication (acquire), which takes one row's work at
/// most. Contents are a pure function of the frame, so who fills a row never changes the bytes.
/// `beginFrame()` (from `prepare`, which never overlaps `render`) marks every row stale at once by
/// advancing a generation number.
import MarbleCore
import Synchronization

final class SharedRows<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked Sendable: `storage` rows are written only by the strip that claimed them through
    // `states` and read only after their release-publication; `generation` changes only in
    // `beginFrame`, which the Shader contract keeps apart from `render`.
    let width: Int, height: Int
    private let storage: UnsafeMutablePointer<Element>
    private let states: UnsafeMutablePointer<Atomic<UInt64>>
    private var generation: UInt64 = 0

    init(width: Int, height: Int, filler: Element) {
        self.width = max(1, width); self.height = max(1, height)
        storage = allocateFilled(self.width * self.height, filler)
        states = .allocate(capacity: self.height)
        for j in 0..<self.height { (states + j).initialize(to: Atomic(0)) }
    }

    deinit {
        storage.deallocate()
        states.deinitialize(count: height)
        states.deallocate()
    }

    /// Marks every row stale. Call from `prepare` only.
    func beginFrame() { generation &+= 1 }

    /// Row `j` (clamped to the rows), filled by `fill` first if no strip has done so this frame.
    @inline(__always)
    func row(_ j: Int, fill: (Int, UnsafeMutablePointer<Element>) -> Void) -> UnsafeMutablePointer<Element> {
        let j = min(max(j, 0), height - 1)
        let pointer = storage + j * width
        let done = generation &* 2, busy = done &- 1
        let state = states[j].load(ordering: .acquiring)
        if state == done { return pointer }
        if state != busy {
            let (claimed, _) = states[j].compareExchange(expected: state, desired: busy, ordering: .acquiring)
            if claimed {
                fill(j, pointer)
                states[j].store(done, ordering: .releasing)
                return pointer
            }
        }
        while states[j].load(ordering: .acquiring) != done {}
        return pointer
    }
}

/// Visits the blocks of row `j` of the picture at 1/`scale` resolution: `body(i, pixel)` gets the mean
/// of four samples placed symmetrically in block i, a quarter of the way in from each side (a cheap box
/// filter centred on the block, so mirrored pictures stay mirrored).
@inline(__always)
func forEachBlock(_ source: TextureView, row j: Int, scale: Int, count: Int, _ body: (Int, UInt32) -> Void) {
    let quarter = max(0, scale / 4), threeQuarters = max(quarter, scale - 1 - quarter)
    let y0 = min(source.height - 1, j * scale + quarter), y1 = min(source.height - 1, j * scale + threeQuarters)
    let a = source.row32(y0), b = source.row32(y1)
    let last = source.width - 1
    for i in 0..<count {
        let x0 = min(last, i * scale + quarter), x1 = min(last, i * scale + threeQuarters)
        body(i, average4(a[x0], a[x1], b[x0], b[x1]))
    }
}

/// Rounded per-channel mean of four pixels (two 16-bit lanes per word never carry: 4·255 < 2¹⁶).
@inline(__always) func average4(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
    let m: UInt32 = 0x00FF_00FF
    let rb = ((a & m) &+ (b & m) &+ (c & m) &+ (d & m) &+ 0x0002_0002) >> 2 & m
    let ga = (((a >> 8) & m) &+ ((b >> 8) & m) &+ ((c >> 8) & m) &+ ((d >> 8) & m) &+ 0x0002_0002) >> 2 & m
    return rb | ga << 8
}
