import MarbleCore

/// Draws a ``MilkDrawList`` into the feedback buffer, one row range at a time.
///
/// Every pixel's value depends only on the list and on the pixel (never on the strip bounds), and each
/// strip draws the commands in list order, so strips drawn concurrently in any split give the same bytes
/// as one pass. Work scales with the strip: each command is skipped unless its row bounds meet the strip,
/// and segments, dots and polygon rows are clipped to it.
///
/// Edges are antialiased by coverage (MilkDrop drew aliased 1-pixel GL lines; on a CPU at 1080p a
/// coverage-weighted line of the same width looks like MilkDrop without the stair steps):
/// - lines: coverage `min(1, w/2 + ½ − distance)` from the pixel centre to the segment, for t in [0, 1)
///   along it (the last segment of a strip includes its end), colour interpolated along the segment;
/// - dots: the exact area of the pixel inside the dot's square;
/// - fans: four sub-scanlines per row, each with the exact horizontal overlap of the polygon's span;
/// - frames: the exact area inside the outer rectangle minus the area inside the inner one.
/// The buffer is opaque RGB: alpha bytes are left as they are.
package enum MilkRasterizer {
    /// Draws `list` into rows `rows` of `target` (clipped to the target). `texture` is the picture
    /// textured fans sample (MilkDrop's previous frame); it must not be `target` itself, since other
    /// strips write `target` concurrently. Without a texture, textured fans are drawn in their colours.
    package static func draw(_ list: MilkDrawList, into target: TextureView, rows: Range<Int>,
                            texture: TextureView? = nil) {
        precondition(texture?.pixels != target.pixels, "textured fans cannot sample the buffer being drawn")
        let lo = max(0, rows.lowerBound), hi = min(target.height, rows.upperBound)
        guard lo < hi, target.width > 0 else { return }
        list.positions.withUnsafeBufferPointer { positions in
            list.colors.withUnsafeBufferPointer { colors in
                list.edges.withUnsafeBufferPointer { edges in
                    let scene = Scene(positions: positions, colors: colors, edges: edges, target: target,
                                      lo: lo, hi: hi, texture: texture)
                    for command in list.commands where command.maxY >= Float(lo) - 1 && command.minY <= Float(hi) + 1 {
                        switch command.kind {
                        case .lineStrip: scene.drawLines(command, closed: false)
                        case .lineLoop: scene.drawLines(command, closed: true)
                        case .segments: scene.drawSegments(command)
                        case .dots: scene.drawDots(command)
                        case .fan: scene.drawFan(command)
                        case .frame: scene.drawFrame(command)
                        }
                    }
                }
            }
        }
    }
}

/// What the drawing of one strip reads: the list's arrays and the target rows.
struct Scene {
    let positions: UnsafeBufferPointer<SIMD2<Float>>
    let colors: UnsafeBufferPointer<MilkColor>
    let edges: UnsafeBufferPointer<SIMD4<Float>>
    let target: TextureView
    /// Rows drawn: lo..<hi.
    let lo: Int, hi: Int
    let texture: TextureView?

    /// `f` rounded down and clamped to lo…hi before conversion (no trap on huge or NaN values).
    @inline(__always) static func floorIndex(_ f: Float, _ lo: Int, _ hi: Int) -> Int {
        guard f >= Float(lo) else { return lo }   // NaN lands here too
        guard f < Float(hi) else { return hi }
        let i = Int(f)   // truncation: f ≥ lo, and rounding down differs only below 0
        return Float(i) > f ? i - 1 : i
    }

    /// Blends a colour (0…255 per channel) with weight `k` (alpha × coverage, 0…1) into the pixel at `p`.
    @inline(__always) static func put(_ p: UnsafeMutablePointer<UInt8>, _ c: SIMD4<Float>, _ k: Float, _ additive: Bool) {
        blend(UnsafeMutableRawPointer(p).assumingMemoryBound(to: UInt32.self), pack(c), weight(k), additive)
    }

    /// A colour 0…255 per channel as a pixel word (R in the low byte).
    @inline(__always) static func pack(_ c: SIMD4<Float>) -> UInt32 {
        UInt32(byte(c.x)) | UInt32(byte(c.y)) << 8 | UInt32(byte(c.z)) << 16
    }

    /// A weight 0…1 in 1/256 steps (0…256).
    @inline(__always) static func weight(_ k: Float) -> UInt32 {
        let v = k * 256 + 0.5
        return v >= 256 ? 256 : v > 0 ? UInt32(v) : 0
    }

    /// Blends `src` (a pixel word) with weight `k` (0…256) into the pixel word at `p`, two channels per
    /// multiply (red and blue share one 32-bit product, 8 bits apart from overflowing), alpha kept.
    @inline(__always) static func blend(_ p: UnsafeMutablePointer<UInt32>, _ src: UInt32, _ k: UInt32, _ additive: Bool) {
        let d = p.pointee
        if additive {
            let rb = ((src & 0xFF00FF) &* k &+ 0x800080) >> 8 & 0xFF00FF
            let g = ((src & 0xFF00) &* k &+ 0x8000) >> 8 & 0xFF00
            // Per-channel saturating add: sums up to 510 fit in 9 bits; the carries say which overflowed.
            let sumRB = (d & 0xFF00FF) &+ rb, sumG = (d & 0xFF00) &+ g
            let overRB = (sumRB & 0x1000100) >> 8, overG = (sumG & 0x10000) >> 8
            let rbOut = (sumRB | (overRB &* 0xFF)) & 0xFF00FF
            let gOut = (sumG | (overG &* 0xFF)) & 0xFF00
            p.pointee = (d & 0xFF00_0000) | rbOut | gOut
        } else {
            let inv = 256 &- k
            let rb = ((d & 0xFF00FF) &* inv &+ (src & 0xFF00FF) &* k &+ 0x800080) >> 8 & 0xFF00FF
            let g = ((d & 0xFF00) &* inv &+ (src & 0xFF00) &* k &+ 0x8000) >> 8 & 0xFF00
            p.pointee = (d & 0xFF00_0000) | rb | g
        }
    }

    /// `x` rounded to the nearest byte value, clamped to 0…255.
    @inline(__always) static func byte(_ x: Float) -> UInt8 {
        let v = x + 0.5
        return v >= 255 ? 255 : v > 0 ? UInt8(v) : 0
    }

    /// Length of the overlap of [a, a+1] with [lo, hi].
    @inline(__always) static func overlap(_ a: Float, _ lo: Float, _ hi: Float) -> Float {
        max(0, min(a + 1, hi) - max(a, lo))
    }

    // MARK: lines

    /// The reach of a line of `width` pixels and the factor on its opacity: a line under one pixel wide
    /// is drawn one pixel wide with its opacity times its width (the same light per length).
    @inline(__always) static func lineShape(_ width: Float) -> (reach: Float, fade: Float) {
        width >= 1 ? (width * 0.5 + 0.5, 1) : (1, max(0, width))
    }

    func drawLines(_ c: MilkDrawList.Command, closed: Bool) {
        let n = c.count
        let segments = closed ? n : n - 1
        let (reach, fade) = Self.lineShape(c.size)
        let f = SIMD4<Float>(1, 1, 1, fade)
        for s in 0..<segments {
            let i = c.first + s, j = c.first + (s + 1) % n
            segment(positions[i], positions[j], colors[i] * f, colors[j] * f, reach: reach,
                    includeEnd: !closed && s == segments - 1, additive: c.blend == .additive)
        }
    }

    func drawSegments(_ c: MilkDrawList.Command) {
        let (reach, fade) = Self.lineShape(c.size)
        let f = SIMD4<Float>(1, 1, 1, fade)
        var i = c.first
        while i + 1 < c.first + c.count {
            segment(positions[i], positions[i + 1], colors[i] * f, colors[i + 1] * f, reach: reach, includeEnd: true,
                    additive: c.blend == .additive)
            i += 2
        }
    }

    /// One segment a→b: pixels whose centre is within `reach` of it and projects to t in [0, 1)
    /// (or [0, 1] with `includeEnd`).
    @inline(__always)
    func segment(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ ca: MilkColor, _ cb: MilkColor, reach: Float,
                 includeEnd: Bool, additive: Bool) {
        let yMin = min(a.y, b.y) - reach, yMax = max(a.y, b.y) + reach
        guard yMax >= Float(lo) - 1, yMin <= Float(hi) + 1, ca.w > 0 || cb.w > 0 else { return }
        let d = b - a
        let length2 = d.x * d.x + d.y * d.y
        guard length2 > 1e-12, length2.isFinite, a.x.isFinite, a.y.isFinite else { return }
        let invLength = 1 / length2.squareRoot(), invLength2 = 1 / length2
        let j0 = Self.floorIndex(yMin - 0.5 + 1, lo, hi), j1 = Self.floorIndex(yMax - 0.5, lo - 1, hi - 1)
        guard j0 <= j1 else { return }
        let w = target.width
        let xBoxMin = min(a.x, b.x) - reach, xBoxMax = max(a.x, b.x) + reach
        let slope = abs(d.y) > 1e-6 ? d.x / d.y : 0
        let halfBand = abs(d.y) > 1e-6 ? reach / (abs(d.y) * invLength) : .infinity
        let c0 = ca * SIMD4(255, 255, 255, 1), dc = (cb - ca) * SIMD4(255, 255, 255, 1)
        for row in j0...j1 {
            let py = Float(row) + 0.5
            var xMin = xBoxMin, xMax = xBoxMax
            if halfBand.isFinite {
                let xc = a.x + (py - a.y) * slope
                xMin = max(xMin, xc - halfBand); xMax = min(xMax, xc + halfBand)
            }
            let i0 = Self.floorIndex(xMin - 0.5 + 1, 0, w), i1 = Self.floorIndex(xMax - 0.5, -1, w - 1)
            guard i0 <= i1 else { continue }
            let line = target.row(row)
            let vy = py - a.y
            for col in i0...i1 {
                let vx = Float(col) + 0.5 - a.x
                let t = (vx * d.x + vy * d.y) * invLength2
                guard t >= 0, t < 1 || (includeEnd && t <= 1) else { continue }
                let distance = abs(vx * d.y - vy * d.x) * invLength
                let coverage = min(1, reach - distance)
                guard coverage > 0 else { continue }
                let color = c0 + dc * t
                Self.put(line + col &* 4, color, color.w * coverage, additive)
            }
        }
    }

    // MARK: dots and frames

    func drawDots(_ c: MilkDrawList.Command) {
        let half = max(c.size, 0.05) * 0.5
        let additive = c.blend == .additive
        for i in c.first..<(c.first + c.count) {
            let p = positions[i]
            guard p.x.isFinite, p.y.isFinite, colors[i].w > 0 else { continue }
            let y0 = p.y - half, y1 = p.y + half, x0 = p.x - half, x1 = p.x + half
            let j0 = Self.floorIndex(y0, lo, hi), j1 = Self.floorIndex(y1, lo - 1, hi - 1)
            let i0 = Self.floorIndex(x0, 0, target.width), i1 = Self.floorIndex(x1, -1, target.width - 1)
            guard j0 <= j1, i0 <= i1 else { continue }
            let color = colors[i] * SIMD4(255, 255, 255, 1)
            for row in j0...j1 {
                let cy = Self.overlap(Float(row), y0, y1)
                let line = target.row(row)
                for col in i0...i1 {
                    let coverage = cy * Self.overlap(Float(col), x0, x1)
                    if coverage > 0 { Self.put(line + col &* 4, color, color.w * coverage, additive) }
                }
            }
        }
    }

    func drawFrame(_ c: MilkDrawList.Command) {
        let o0 = positions[c.first], o1 = positions[c.first + 1]
        let n0 = positions[c.first + 2], n1 = positions[c.first + 3]
        let color = colors[c.first] * SIMD4(255, 255, 255, 1)
        let src = Self.pack(color)
        let additive = c.blend == .additive
        let innerEmpty = !(n1.x > n0.x && n1.y > n0.y)
        let w = target.width
        let j0 = Self.floorIndex(o0.y, lo, hi), j1 = Self.floorIndex(o1.y, lo - 1, hi - 1)
        let i0 = Self.floorIndex(o0.x, 0, w), i1 = Self.floorIndex(o1.x, -1, w - 1)
        guard j0 <= j1, i0 <= i1, o1.x > o0.x, o1.y > o0.y else { return }
        // Between these columns the horizontal overlaps with both rectangles are constant, so each
        // interval is one run of equal coverage.
        var breaks = SIMD8<Int>(repeating: i1 + 1)
        let xs = SIMD4<Float>(o0.x, o1.x, innerEmpty ? o0.x : n0.x, innerEmpty ? o0.x : n1.x)
        for k in 0..<4 {
            let f = Self.floorIndex(xs[k], i0, i1 + 1)
            breaks[2 * k] = f; breaks[2 * k + 1] = min(f + 1, i1 + 1)
        }
        for a in 1..<8 {   // insertion sort of 8 values
            var b = a
            while b > 0 && breaks[b - 1] > breaks[b] { let t = breaks[b]; breaks[b] = breaks[b - 1]; breaks[b - 1] = t; b -= 1 }
        }
        for row in j0...j1 {
            let outerY = Self.overlap(Float(row), o0.y, o1.y)
            let innerY = innerEmpty ? 0 : Self.overlap(Float(row), n0.y, n1.y)
            let line = target.row(row)
            var start = i0
            for k in 0..<9 {
                let end = k < 8 ? breaks[k] : i1 + 1
                guard end > start else { continue }
                let x = Float(start)
                let innerX = innerEmpty ? 0 : Self.overlap(x, n0.x, n1.x)
                let coverage = Self.overlap(x, o0.x, o1.x) * outerY - innerX * innerY
                if coverage > 0 { blendRun(line, start, end, src, Self.weight(color.w * coverage), additive) }
                start = end
            }
        }
    }

    /// Blends one colour word with one weight (0…256) into pixels `from..<to` of a row, four pixels
    /// per step in 16-bit lanes (alpha bytes kept).
    @inline(__always)
    func blendRun(_ line: UnsafeMutablePointer<UInt8>, _ from: Int, _ to: Int, _ src: UInt32, _ k: UInt32, _ additive: Bool) {
        guard k > 0, from < to else { return }
        let raw = UnsafeMutableRawPointer(line)
        let kk = UInt16(k)
        let r = UInt16(src & 0xFF), g = UInt16(src >> 8 & 0xFF), b = UInt16(src >> 16 & 0xFF)
        let kv = SIMD16<UInt16>(kk, kk, kk, 0, kk, kk, kk, 0, kk, kk, kk, 0, kk, kk, kk, 0)
        let sv = SIMD16<UInt16>(r, g, b, 0, r, g, b, 0, r, g, b, 0, r, g, b, 0)
        var x = from
        if additive {
            let add = (sv &* kv &+ 128) &>> 8
            while x + 4 <= to {
                let sum = PackedPixels4.wide(raw.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self)) &+ add
                let saturated = sum | (SIMD16<UInt16>() &- (sum &>> 8))   // ≥ 256 → all ones → 255
                raw.storeBytes(of: PackedPixels4.narrow(saturated), toByteOffset: x &* 4, as: SIMD4<UInt32>.self)
                x += 4
            }
        } else {
            let inv = SIMD16<UInt16>(repeating: 256) &- kv
            let sk = sv &* kv &+ 128
            while x + 4 <= to {
                let d = PackedPixels4.wide(raw.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self))
                let o = (d &* inv &+ sk) &>> 8
                raw.storeBytes(of: PackedPixels4.narrow(o), toByteOffset: x &* 4, as: SIMD4<UInt32>.self)
                x += 4
            }
        }
        let p = raw.assumingMemoryBound(to: UInt32.self)
        while x < to { Self.blend(p + x, src, k, additive); x += 1 }
    }
}
