import MarbleCore
import Synchronization

/// MilkDrop 1.x's final composite, from the feedback buffer to the picture on screen (nothing of it
/// feeds back): the buffer scaled to the output size, mixed with its video echo (a second copy
/// zoomed by `echo_zoom` about the centre and flipped by `echo_orient`, weighted `echo_alpha`), times
/// `gamma` and a slowly drifting per-corner tint (MilkDrop's "shade", 0.75…1 per channel), then the
/// brighten / darken / solarize / invert filters in that order. Opaque output; rows independent.
final class CompositePass: StripTask, @unchecked Sendable {
    // Safety of @unchecked Sendable: fields are set by the renderer's `prepare` before `run`; strips
    // only read the buffer and write disjoint rows of `target`.
    var source = TextureView(pixels: UnsafeMutableRawPointer(bitPattern: 64)!, width: 1, height: 1, bytesPerRow: 4)
    var target = TextureView(pixels: UnsafeMutableRawPointer(bitPattern: 64)!, width: 1, height: 1, bytesPerRow: 4)
    /// The echo's weight × 256 (0: no echo), zoom and orientation (0…3: none, flip x, flip y, both;
    /// −1 and −3 flip x, −2 nothing, as MilkDrop's C remainder has it).
    var echoAlpha: UInt32 = 0
    var echoZoom: Float = 1
    var echoOrientation = 0
    /// `gamma` × the tint per corner and channel (top-left, top-right, bottom-left, bottom-right; r, g, b).
    var gain = [Float](repeating: 1, count: 12)
    /// The brighten / darken / solarize / invert switches, computed on the lanes (a table lookup per
    /// lane went through memory).
    var filters = Filters()

    /// Per output column, the buffer texels and weight the picture and its echo read (the reads of
    /// a column are the same on every row): `x0`, `x1` and the fraction 0…256, from
    /// ``prepareColumns(width:)``.
    private(set) var mainX0: [Int32] = [], mainX1: [Int32] = [], mainWeight: [UInt32] = []
    private(set) var echoX0: [Int32] = [], echoX1: [Int32] = [], echoWeight: [UInt32] = []
    /// The output width the tables are for (they are padded to whole four-pixel steps).
    private(set) var columnsWidth = 0
    /// Spare rows for strips (``FilteredRows``), four of the output's width in lanes each, by address
    /// (a pointer is not `Sendable`; the pool hands each to one strip at a time).
    private let slotPool = Mutex<[UInt]>([])

    func run(strip: Range<Int>, worker: Int) { draw(into: target, rows: strip) }

    /// Fills the column tables for an output `width` wide (after `source` and the echo are set; the
    /// arrays are allocated only when the width changes). The tables run on to a whole number of
    /// four-pixel steps, the columns past the width repeating the last, so that filtered rows are whole
    /// steps of lanes.
    func prepareColumns(width: Int) {
        let padded = (width + 3) / 4 * 4
        if columnsWidth != width {
            freeSlots()
            columnsWidth = width
            mainX0 = [Int32](repeating: 0, count: padded); mainX1 = mainX0; echoX0 = mainX0; echoX1 = mainX0
            mainWeight = [UInt32](repeating: 0, count: padded); echoWeight = mainWeight
        }
        let sw = source.width
        let axis = TexelAxis(size: sw, wraps: false)
        let stepX = Int(Float(sw) / Float(width) * 256)
        var tx = Int((0.5 * Float(sw) / Float(width) - 0.5) * 256)
        let ez = 1 / max(echoZoom, 0.001)
        let flipX = echoOrientation % 2 != 0
        let echoStepX = Int(Float(sw) / Float(width) * ez * 256) * (flipX ? -1 : 1)
        var eu = (0.5 / Float(width) - 0.5) * ez + 0.5
        if flipX { eu = 1 - eu }
        var ex = Int((eu * Float(sw) - 0.5) * 256)
        for x in 0..<width {
            let (a, b, w) = axis.split(tx)
            mainX0[x] = Int32(a); mainX1[x] = Int32(b); mainWeight[x] = w
            let (c, d, v) = axis.split(ex)
            echoX0[x] = Int32(c); echoX1[x] = Int32(d); echoWeight[x] = v
            tx &+= stepX; ex &+= echoStepX
        }
        for x in width..<padded {
            mainX0[x] = mainX0[width - 1]; mainX1[x] = mainX1[width - 1]; mainWeight[x] = mainWeight[width - 1]
            echoX0[x] = echoX0[width - 1]; echoX1[x] = echoX1[width - 1]; echoWeight[x] = echoWeight[width - 1]
        }
    }


    /// Composites `rows` of `target` (changes nothing in the pass, so strips may share it).
    ///
    /// Bilinear sampling is done in two steps with the bytes of one: a bilinear sample is the vertical
    /// mix of two horizontal ones (``PackedPixels/bilinear``), and every pixel of an output row reads
    /// the same two buffer rows. So each buffer row a strip needs is filtered horizontally once, into
    /// a ``FilteredRows`` slot (when scaling up, two or three output rows share it), and each output
    /// pixel is one vertical mix of two slots: two contiguous loads and one mix instead of four scattered
    /// reads and three mixes.
    func draw(into target: TextureView, rows strip: Range<Int>) {
        let src = source, echoAlpha = self.echoAlpha, gain = self.gain, filters = self.filters
        let width = target.width, height = target.height
        let sw = src.width, sh = src.height
        precondition(columnsWidth == width, "prepareColumns(width:) for this target's width first")
        let yAxis = TexelAxis(size: sh, wraps: false)
        let same = sw == width && sh == height
        let stepY = Float(sh) / Float(height)
        let echo = echoAlpha > 0
        let ez = 1 / max(echoZoom, 0.001)
        let flipY = echoOrientation >= 2
        let block = 32
        let identity = filters.isIdentity
        // Nothing to shade: the scaling up of a picture composited at the buffer's size (a gain of
        // exactly 1 leaves every channel as it is).
        let plain = identity && !echo && gain.allSatisfy { $0 == 1 }
        let quads = (width + 3) / 4
        let slots = same && !echo ? nil : takeSlots(quads: quads)
        defer { if let slots { returnSlots(slots) } }
        var main = FilteredRows(slots, quads: quads)
        var echoes = FilteredRows(slots?.advanced(by: 2 * quads), quads: quads)
        // Stands for filtered rows where there are none (the picture at the buffer's own size): never read.
        let unused = UnsafePointer<SIMD16<UInt16>>(bitPattern: 32)!
        let echoWeight16 = SIMD16<UInt16>(repeating: UInt16(echoAlpha))
        mainX0.withUnsafeBufferPointer { m0 in mainX1.withUnsafeBufferPointer { m1 in mainWeight.withUnsafeBufferPointer { mw in
        echoX0.withUnsafeBufferPointer { e0 in echoX1.withUnsafeBufferPointer { e1 in echoWeight.withUnsafeBufferPointer { ew in
        let mainColumns = FilteredRows.Columns(x0: m0.baseAddress!, x1: m1.baseAddress!, weight: mw.baseAddress!)
        let echoColumns = FilteredRows.Columns(x0: e0.baseAddress!, x1: e1.baseAddress!, weight: ew.baseAddress!)
        for y in strip {
            let out = target.row32(y)
            let fy = Int(((Float(y) + 0.5) * stepY - 0.5) * 256)
            let (y0, y1, ay) = yAxis.split(fy)
            // The picture's two rows filtered across, or the buffer's own row at the same size.
            let own = UnsafePointer(src.row32(y0))
            let (top, bottom) = same ? (unused, unused) : main.rows(y0, y1, of: src, mainColumns)
            // The echo's rows: v about the centre, zoomed, maybe flipped.
            var ev = ((Float(y) + 0.5) / Float(height) - 0.5) * ez + 0.5
            if flipY { ev = 1 - ev }
            let (ey0, ey1, eay) = yAxis.split(Int((ev * Float(sh) - 0.5) * 256))
            let (echoTop, echoBottom) = echo ? echoes.rows(ey0, ey1, of: src, echoColumns) : (unused, unused)
            let ay16 = SIMD16<UInt16>(repeating: UInt16(ay)), eay16 = SIMD16<UInt16>(repeating: UInt16(eay))
            let edges = Self.edgeGains(gain, down: (Float(y) + 0.5) / Float(height))
            var x = 0
            while x < width {
                let end = min(width, x + block)
                let (gr, gg, gb) = Self.blockGains(edges, across: (Float(x + end) * 0.5) / Float(width))
                // Four pixels a step (the same bytes as ``shade(_:_:_:_:table:)`` one at a time), the
                // last step of a row whose width is not a multiple of four stored in part.
                let gains = Self.laneGains(gr, gg, gb)
                while x < end {
                    let q = x &>> 2, whole = x + 4 <= width
                    var p = same ? PackedPixels4.wide(whole ? Self.load4(own + x) : Self.load(own + x, count: width - x))
                        : PackedPixels4.lerp(top[q], bottom[q], ay16)
                    if echo { p = PackedPixels4.lerp(p, PackedPixels4.lerp(echoTop[q], echoBottom[q], eay16), echoWeight16) }
                    let pixels = plain ? PackedPixels4.narrow(p) | SIMD4<UInt32>(repeating: 0xFF00_0000)
                        : Self.shade4(p, gains, filters: identity ? nil : filters)
                    if whole {
                        UnsafeMutableRawPointer(out + x).storeBytes(of: pixels, as: SIMD4<UInt32>.self)
                    } else {
                        for k in 0..<(width - x) { out[x + k] = pixels[k] }
                    }
                    x += 4
                }
            }
        }
        } } }
        } } }
    }

    @inline(__always)
    static func load4(_ p: UnsafePointer<UInt32>) -> SIMD4<UInt32> { UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt32>.self) }

    /// The first `count` (below four) pixels at `p`, the other lanes 0.
    @inline(__always)
    static func load(_ p: UnsafePointer<UInt32>, count: Int) -> SIMD4<UInt32> {
        var v = SIMD4<UInt32>()
        for k in 0..<count { v[k] = p[k] }
        return v
    }

    /// Four rows of `quads` four-pixel steps in lanes for one strip (two for the picture, two for its
    /// echo), from the pool: allocated the first time a strip finds none free, then reused (none in
    /// steady state).
    private func takeSlots(quads: Int) -> UnsafeMutablePointer<SIMD16<UInt16>> {
        if let address = slotPool.withLock({ $0.popLast() }),
           let slots = UnsafeMutablePointer<SIMD16<UInt16>>(bitPattern: address) { return slots }
        return .allocate(capacity: 4 * quads)
    }

    private func returnSlots(_ slots: UnsafeMutablePointer<SIMD16<UInt16>>) {
        let address = UInt(bitPattern: slots)
        slotPool.withLock { $0.append(address) }
    }

    /// Frees the pooled rows (none is in use: `prepareColumns` and `deinit` do not run beside strips).
    private func freeSlots() {
        slotPool.withLock { pool in
            for address in pool { UnsafeMutablePointer<SIMD16<UInt16>>(bitPattern: address)?.deallocate() }
            pool.removeAll(keepingCapacity: true)
        }
    }

    deinit { freeSlots() }
}

/// Two buffer rows filtered across to the output's columns, in two slots a strip owns, and which
/// buffer row each holds: consecutive output rows reuse what they share. A slot holds the row as the
/// composite's lanes (``PackedPixels4``: four pixels a step, a 16-bit lane per channel), so the
/// vertical mix reads them as they are, with no packing here and unpacking there.
struct FilteredRows {
    /// Where each output column reads the buffer: texels `x0`, `x1`, weight 0…256 (to a whole number
    /// of four-pixel steps: ``CompositePass/prepareColumns(width:)``).
    struct Columns {
        let x0: UnsafePointer<Int32>, x1: UnsafePointer<Int32>, weight: UnsafePointer<UInt32>
    }

    private let slots: UnsafeMutablePointer<SIMD16<UInt16>>?
    private let quads: Int
    private var held = (-1, -1)

    init(_ slots: UnsafeMutablePointer<SIMD16<UInt16>>?, quads: Int) { self.slots = slots; self.quads = quads }

    /// Buffer rows `a` and `b` of `source`, filtered across: each from its slot when it is there
    /// already, else into the slot the other does not need.
    @inline(__always)
    mutating func rows(_ a: Int, _ b: Int, of source: TextureView, _ columns: Columns)
        -> (UnsafePointer<SIMD16<UInt16>>, UnsafePointer<SIMD16<UInt16>>) {
        let slots = slots!
        let first = slot(for: a, keeping: b, source, columns), second = slot(for: b, keeping: a, source, columns)
        return (UnsafePointer(slots + first * quads), UnsafePointer(slots + second * quads))
    }

    @inline(__always)
    private mutating func slot(for row: Int, keeping other: Int, _ source: TextureView, _ columns: Columns) -> Int {
        if held.0 == row { return 0 }
        if held.1 == row { return 1 }
        let k = held.0 == other ? 1 : 0
        if k == 0 { held.0 = row } else { held.1 = row }
        Self.filter(UnsafePointer(source.row32(row)), into: slots! + k * quads, quads: quads, columns)
        return k
    }

    /// One buffer row mixed across at each output column (``PackedPixels4/lerp(_:_:_:)``), four
    /// columns a step, left in lanes.
    static func filter(_ row: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<SIMD16<UInt16>>, quads: Int, _ c: Columns) {
        for q in 0..<quads {
            let x = q &* 4
            var a = SIMD4<UInt32>(), b = a, w = a
            for k in 0..<4 { a[k] = row[Int(c.x0[x + k])]; b[k] = row[Int(c.x1[x + k])]; w[k] = c.weight[x + k] }
            out[q] = PackedPixels4.lerp(PackedPixels4.wide(a), PackedPixels4.wide(b), PackedPixels4.spread(w))
        }
    }
}

extension CompositePass {
    /// The gains (× the tint; red, green, blue) at the left and right ends of a row `down` (0…1) the
    /// picture, from the per-corner `gain`.
    @inline(__always)
    static func edgeGains(_ gain: [Float], down: Float) -> (left: SIMD3<Float>, right: SIMD3<Float>) {
        let lr = gain[0] + (gain[6] - gain[0]) * down, rr = gain[3] + (gain[9] - gain[3]) * down
        let lg = gain[1] + (gain[7] - gain[1]) * down, rg = gain[4] + (gain[10] - gain[4]) * down
        let lb = gain[2] + (gain[8] - gain[2]) * down, rb = gain[5] + (gain[11] - gain[5]) * down
        return (SIMD3(lr, lg, lb), SIMD3(rr, rg, rb))
    }

    /// A block's gains × 256 (red, green, blue; 0…2048) at its centre, `across` (0…1) the row.
    @inline(__always)
    static func blockGains(_ edges: (left: SIMD3<Float>, right: SIMD3<Float>), across: Float) -> (UInt32, UInt32, UInt32) {
        let (l, r) = edges
        let gr = UInt32(max(0, min(2048, (l.x + (r.x - l.x) * across) * 256)))
        let gg = UInt32(max(0, min(2048, (l.y + (r.y - l.y) * across) * 256)))
        let gb = UInt32(max(0, min(2048, (l.z + (r.z - l.z) * across) * 256)))
        return (gr, gg, gb)
    }

    /// A block's gains (× 256, 0…2048) on the sixteen lanes of four pixels, split for ``shade4``:
    /// the whole part (`g >> 8`, 0…8) and the fraction (`g & 255`) of red, green and blue; alpha 0.
    @inline(__always)
    static func laneGains(_ gr: UInt32, _ gg: UInt32, _ gb: UInt32) -> (whole: SIMD16<UInt16>, fraction: SIMD16<UInt16>) {
        let w = SIMD4<UInt16>(UInt16(gr >> 8), UInt16(gg >> 8), UInt16(gb >> 8), 0)
        let f = SIMD4<UInt16>(UInt16(gr & 255), UInt16(gg & 255), UInt16(gb & 255), 0)
        let w8 = SIMD8(lowHalf: w, highHalf: w), f8 = SIMD8(lowHalf: f, highHalf: f)
        return (SIMD16(lowHalf: w8, highHalf: w8), SIMD16(lowHalf: f8, highHalf: f8))
    }

    /// Four pixels (16-bit lanes) times their gains (``laneGains(_:_:_:)``), saturated, through
    /// `filters` when on; packed and opaque. All on 16-bit lanes: `c · g / 256` is `c · (g >> 8) +
    /// (c · (g & 255)) / 256` exactly, and with `c` ≤ 255, `g` ≤ 2048 every product fits (32-bit lanes
    /// would need a multiply SSE2 lacks).
    @inline(__always)
    static func shade4(_ p: SIMD16<UInt16>, _ gains: (whole: SIMD16<UInt16>, fraction: SIMD16<UInt16>), filters: Filters?) -> SIMD4<UInt32> {
        let lit = p &* gains.whole &+ ((p &* gains.fraction) &>> 8)
        // Saturated at 255 with arithmetic only (a mask select compiles to a lane loop): 255 − lit
        // wraps to a set top bit exactly when lit > 255 (lit ≤ 2294).
        let cap = SIMD16<UInt16>(repeating: 255)
        let lanes = (lit | (SIMD16<UInt16>(repeating: 0) &- ((cap &- lit) &>> 15))) & cap
        let filtered = filters.map { $0.apply(lanes) } ?? lanes
        return PackedPixels4.narrow(filtered) | SIMD4<UInt32>(repeating: 0xFF00_0000)
    }

    /// One pixel times its gains (× 256), saturated, through the filter `table` when on; opaque: the
    /// definition the four-pixel shade is held to (the tests compare them).
    @inline(__always)
    static func shade(_ p: UInt32, _ gr: UInt32, _ gg: UInt32, _ gb: UInt32, table: UnsafePointer<UInt8>?) -> UInt32 {
        var r = min(255, ((p & 0xFF) &* gr) >> 8)
        var g = min(255, (((p >> 8) & 0xFF) &* gg) >> 8)
        var b = min(255, (((p >> 16) & 0xFF) &* gb) >> 8)
        if let table {
            r = UInt32(table[Int(r)]); g = UInt32(table[Int(g)]); b = UInt32(table[Int(b)])
        }
        return r | (g << 8) | (b << 16) | 0xFF00_0000
    }
}

/// The brighten / darken / solarize / invert filters (MilkDrop's blend-mode passes, in its order) in
/// integer arithmetic rounded to nearest, on one value or on 16-bit lanes (values 0…255), with the
/// same results. Brighten: 1 − (1 − c)²; darken: c²; solarize: 2c(1 − c); invert: 1 − c.
struct Filters: Sendable, Equatable {
    var brighten = false, darken = false, solarize = false, invert = false

    init() {}
    init(brighten: Bool, darken: Bool, solarize: Bool, invert: Bool) {
        self.brighten = brighten; self.darken = darken; self.solarize = solarize; self.invert = invert
    }

    /// True when every switch is off.
    var isIdentity: Bool { !(brighten || darken || solarize || invert) }

    /// x / 255 for x ≤ 65407, exactly.
    @inline(__always) static func div255(_ x: UInt16) -> UInt16 { (x &+ 1 &+ (x &>> 8)) &>> 8 }
    @inline(__always) static func div255(_ x: SIMD16<UInt16>) -> SIMD16<UInt16> {
        (x &+ 1 &+ (x &>> 8)) &>> 8
    }

    func apply(_ c: UInt16) -> UInt16 {
        var c = c
        if brighten { let d = 255 - c; c = 255 - Self.div255(d * d + 127) }
        if darken { c = Self.div255(c * c + 127) }
        if solarize { c = Self.div255(2 * c * (255 - c) + 127) }
        if invert { c = 255 - c }
        return c
    }

    @inline(__always)
    func apply(_ lanes: SIMD16<UInt16>) -> SIMD16<UInt16> {
        let full = SIMD16<UInt16>(repeating: 255), half = SIMD16<UInt16>(repeating: 127)
        var c = lanes
        if brighten { let d = full &- c; c = full &- Self.div255(d &* d &+ half) }
        if darken { c = Self.div255(c &* c &+ half) }
        if solarize { c = Self.div255(2 &* c &* (full &- c) &+ half) }
        if invert { c = full &- c }
        return c
    }
}
