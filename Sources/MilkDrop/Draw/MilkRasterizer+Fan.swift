import MarbleCore

extension Scene {
    /// Sub-scanlines per row for the antialiased outline of fans.
    static let fanSubrows = 4

    /// A convex polygon with its centre colour fading to its edge colour, optionally textured.
    ///
    /// MilkDrop draws a shape as a triangle fan (centre, outline vertices) with Gouraud shading. For a
    /// convex polygon with the centre inside, the centre's barycentric weight at a point p is
    /// `1 − g(p)` where `g(p) = max over edges i of (1 − dᵢ(p)/hᵢ)` (dᵢ: distance to edge i, hᵢ: that of
    /// the centre), the polygon's gauge, so the colour is `centre + (edge − centre)·min(g, 1)`. Along a
    /// row the edge that maximises it moves monotonically around the polygon, so it is found by walking
    /// from the previous pixel's edge: a few operations per pixel whatever the number of sides.
    func drawFan(_ c: MilkDrawList.Command) {
        let n = c.count - 1
        let center = colors[c.first] * SIMD4(255, 255, 255, 1)
        let edge = colors[c.first + 1] * SIMD4(255, 255, 255, 1)
        let uniform = center == edge
        let flat = edges[c.edgeFirst].w <= 0
        let additive = c.blend == .additive
        let map = c.texture
        let source = c.textured ? texture : nil
        let w = target.width
        let j0 = Self.floorIndex(c.minY, lo, hi), j1 = Self.floorIndex(c.maxY, lo - 1, hi - 1)
        guard j0 <= j1 else { return }
        let eq = UnsafeBufferPointer(rebasing: edges[c.edgeFirst..<(c.edgeFirst + n)])
        var left = SIMD4<Float>(repeating: 0), right = SIMD4<Float>(repeating: 0)
        var active = 0
        let sub = Float(Self.fanSubrows)
        for row in j0...j1 {
            // The polygon's span on four sub-scanlines (empty ones as [0, 0]).
            var minL = Float.infinity, maxR = -Float.infinity, maxL = -Float.infinity, minR = Float.infinity
            var allValid = true
            for k in 0..<Self.fanSubrows {
                let y = Float(row) + (Float(k) + 0.5) / sub
                var l = -Float.infinity, r = Float.infinity
                for e in eq {
                    let rest = e.y * y + e.z
                    if e.x > 1e-7 { l = max(l, -rest / e.x) } else if e.x < -1e-7 { r = min(r, -rest / e.x) } else if rest < 0 { r = -.infinity }
                }
                if l < r {
                    minL = min(minL, l); maxL = max(maxL, l); minR = min(minR, r); maxR = max(maxR, r)
                } else {
                    l = 0; r = 0; allValid = false
                }
                left[k] = l; right[k] = r
            }
            guard minL < maxR else { continue }
            let i0 = Self.floorIndex(minL, 0, w), i1 = Self.floorIndex(maxR, -1, w - 1)
            guard i0 <= i1 else { continue }
            // Columns whose pixel lies inside every sub-span: full coverage.
            var full0 = w + 1, full1 = -1
            if allValid {
                full0 = Self.floorIndex(maxL, -1, w + 1) + 1
                full1 = Self.floorIndex(minR, -1, w + 1)   // pixels x with x + 1 ≤ minR
            }
            let line = target.row(row)
            let py = Float(row) + 0.5
            let inner0 = max(i0, min(full0, i1 + 1)), inner1 = max(inner0, min(full1, i1 + 1))
            // Fringe pixels (partly covered): the general path.
            for col in i0..<inner0 { fanPixel(col, line, py, left, right, center, edge, uniform, flat, eq, &active, map, source, additive) }
            for col in inner1..<(i1 + 1) { fanPixel(col, line, py, left, right, center, edge, uniform, flat, eq, &active, map, source, additive) }
            guard inner0 < inner1 else { continue }
            // Fully covered pixels: one loop per kind of fill.
            if let source {
                texturedSpan(line, inner0, inner1, py, source, map, center, edge, uniform, flat, eq, &active, additive)
            } else if uniform {
                blendRun(line, inner0, inner1, Self.pack(center), Self.weight(center.w), additive)
            } else {
                gradientSpan(line, inner0, inner1, py, center, edge, flat, eq, &active, additive)
            }
        }
    }

    /// One pixel on the outline: coverage from the four sub-spans, then colour and texture.
    @inline(__always)
    func fanPixel(_ col: Int, _ line: UnsafeMutablePointer<UInt8>, _ py: Float, _ left: SIMD4<Float>, _ right: SIMD4<Float>,
                  _ center: SIMD4<Float>, _ edge: SIMD4<Float>, _ uniform: Bool, _ flat: Bool,
                  _ eq: UnsafeBufferPointer<SIMD4<Float>>, _ active: inout Int, _ map: MilkTextureMap,
                  _ source: TextureView?, _ additive: Bool) {
        let x = Float(col)
        var coverage: Float = 0
        for k in 0..<Self.fanSubrows {
            let a = max(left[k], x), b = min(right[k], x + 1)
            if b > a { coverage += b - a }
        }
        coverage /= Float(Self.fanSubrows)
        guard coverage > 0 else { return }
        let px = x + 0.5
        var color = center
        if !uniform {
            let g = flat ? 1 : gauge(eq, &active, px, py)
            color = center + (edge - center) * (g < 0 ? 0 : g > 1 ? 1 : g)
        }
        if let source {
            var texel = Self.sample(source, map.ux * px + map.uy * py + map.u0, map.vx * px + map.vy * py + map.v0)
            if !(color.x >= 254.5 && color.y >= 254.5 && color.z >= 254.5) { texel = Self.tint(texel, color) }
            Self.blend(UnsafeMutableRawPointer(line + col &* 4).assumingMemoryBound(to: UInt32.self), texel,
                       Self.weight(color.w * coverage), additive)
        } else {
            Self.put(line + col &* 4, color, color.w * coverage, additive)
        }
    }

    /// `a + (b − a)·t/256` per colour channel of two pixel words (t 0…256).
    @inline(__always)
    static func mix(_ a: UInt32, _ b: UInt32, _ t: UInt32) -> UInt32 {
        let inv = 256 &- t
        let rb = ((a & 0xFF00FF) &* inv &+ (b & 0xFF00FF) &* t &+ 0x800080) >> 8 & 0xFF00FF
        let g = ((a & 0xFF00) &* inv &+ (b & 0xFF00) &* t &+ 0x8000) >> 8 & 0xFF00
        return rb | g
    }

    /// The polygon's gauge at (x, y), walking `active` to the edge that maximises it.
    @inline(__always)
    func gauge(_ eq: UnsafeBufferPointer<SIMD4<Float>>, _ active: inout Int, _ x: Float, _ y: Float) -> Float {
        let n = eq.count
        if active >= n { active = 0 }
        @inline(__always) func g(_ i: Int) -> Float {
            let e = eq[i]
            return 1 - (e.x * x + e.y * y + e.z) * e.w
        }
        var best = g(active)
        while true {
            let next = active + 1 == n ? 0 : active + 1
            let gn = g(next)
            if gn > best { active = next; best = gn; continue }
            let previous = active == 0 ? n - 1 : active - 1
            let gp = g(previous)
            if gp > best { active = previous; best = gp; continue }
            return best
        }
    }

    /// Bilinear sample of `t` at (u, v) in 0…1 (u right, v down), wrapping, as a pixel word.
    /// Fixed point (8 fractional bits), truncating conversions only (no `floorf`, no division), red and
    /// blue interpolated in one 32-bit product.
    @inline(__always)
    static func sample(_ t: TextureView, _ u: Float, _ v: Float) -> UInt32 {
        let w = t.width, h = t.height
        let uu = abs(u) < 1e6 ? u : 0, vv = abs(v) < 1e6 ? v : 0   // NaN too
        // Position in 1/256 pixels, made positive by whole turns so that >> is a floor.
        let fx = Int((uu - Float(Int(uu)) + 2) * Float(w * 256)) - 128
        let fy = Int((vv - Float(Int(vv)) + 2) * Float(h * 256)) - 128
        // fx >> 8 is in [w − 1, 3w): back to [0, w) by subtraction.
        var x0 = (fx >> 8) - w, y0 = (fy >> 8) - h
        if x0 >= w { x0 -= w } else if x0 < 0 { x0 += w }
        if y0 >= h { y0 -= h } else if y0 < 0 { y0 += h }
        let ax = UInt32(fx & 255), ay = UInt32(fy & 255)
        let x1 = x0 + 1 == w ? 0 : x0 + 1, y1 = y0 + 1 == h ? 0 : y0 + 1
        let r0 = t.row32(y0), r1 = t.row32(y1)
        return bilinear(SIMD4(r0[x0], r0[x1], r1[x0], r1[x1]), ax, ay)
    }

    /// Bilinear mix of four pixel words (top-left, top-right, bottom-left, bottom-right) with fractions
    /// ax, ay (0…255), red and blue in one 32-bit product.
    @inline(__always)
    static func bilinear(_ q: SIMD4<UInt32>, _ ax: UInt32, _ ay: UInt32) -> UInt32 {
        let p00 = q[0], p01 = q[1], p10 = q[2], p11 = q[3]
        // Weights summing to 256.
        let w00 = ((256 &- ax) &* (256 &- ay) &+ 128) >> 8, w01 = (ax &* (256 &- ay) &+ 128) >> 8
        let w10 = ((256 &- ax) &* ay &+ 128) >> 8, w11 = 256 &- w00 &- w01 &- w10
        let rb = ((p00 & 0xFF00FF) &* w00 &+ (p01 & 0xFF00FF) &* w01 &+ (p10 & 0xFF00FF) &* w10
                  &+ (p11 & 0xFF00FF) &* w11 &+ 0x800080) >> 8 & 0xFF00FF
        let g = ((p00 & 0xFF00) &* w00 &+ (p01 & 0xFF00) &* w01 &+ (p10 & 0xFF00) &* w10
                 &+ (p11 & 0xFF00) &* w11 &+ 0x8000) >> 8 & 0xFF00
        return rb | g
    }

    /// A pixel word multiplied by a colour 0…255 per channel.
    @inline(__always)
    static func tint(_ texel: UInt32, _ c: SIMD4<Float>) -> UInt32 {
        let r = UInt32(byte(c.x)), g = UInt32(byte(c.y)), b = UInt32(byte(c.z))
        let tr = ((texel & 0xFF) &* (r &+ r >> 7)) >> 8
        let tg = ((texel >> 8 & 0xFF) &* (g &+ g >> 7)) >> 8
        let tb = ((texel >> 16 & 0xFF) &* (b &+ b >> 7)) >> 8
        return tr | tg << 8 | tb << 16
    }
}
