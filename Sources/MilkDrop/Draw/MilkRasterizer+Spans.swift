import MarbleCore

/// The inner loops of fans: runs of fully covered pixels, four pixels per step in 16-bit lanes (the
/// per-pixel parts, gauge and texture addresses, stay scalar). Blending is the same arithmetic as
/// ``Scene/blend(_:_:_:_:)``: `(dst·(256 − k) + src·k + 128) >> 8`, or a saturating `dst + (src·k + 128) >> 8`.
extension Scene {
    /// Four pixels' values, each repeated in the R, G, B lanes (alpha lane 0).
    @inline(__always)
    static func lanes(_ a: UInt16, _ b: UInt16, _ c: UInt16, _ d: UInt16) -> SIMD16<UInt16> {
        SIMD16(a, a, a, 0, b, b, b, 0, c, c, c, 0, d, d, d, 0)
    }
    /// Blends four source pixels (0…255 per lane) with per-pixel weights (0…256 lanes) at `p`.
    @inline(__always)
    static func blend4(_ p: UnsafeMutableRawPointer, _ src: SIMD16<UInt16>, _ k: SIMD16<UInt16>, _ additive: Bool) {
        let d = PackedPixels4.wide(p.loadUnaligned(as: SIMD4<UInt32>.self))
        let out: SIMD16<UInt16>
        if additive {
            let sum = d &+ ((src &* k &+ 128) &>> 8)
            out = sum | (SIMD16<UInt16>() &- (sum &>> 8))
        } else {
            out = (d &* (SIMD16<UInt16>(repeating: 256) &- k) &+ src &* k &+ 128) &>> 8
        }
        p.storeBytes(of: PackedPixels4.narrow(out), as: SIMD4<UInt32>.self)
    }

    /// A pixel word's channels in lanes 0…3 of four.
    @inline(__always)
    static func widen(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> SIMD16<UInt16> {
        PackedPixels4.wide(SIMD4<UInt32>(a, b, c, d))
    }

    /// For pixels x…x+3 of a row: the gauge (clamped 0…1) as 0…256 and the alpha weight 0…256 from
    /// the centre's (a0 = alpha·256) to the edge's (a0 + da). The gauge is evaluated at x and x + 4
    /// (`start` carries the value at x in and the one at x + 4 out) and interpolated between (in steps
    /// of 1/256) when both lie in the same wedge of the fan, where it is linear; otherwise at each pixel.
    @inline(__always)
    func weights(_ x: Int, _ py: Float, _ a0: Float, _ da: Float, _ flat: Bool, _ start: inout Float,
                 _ eq: UnsafeBufferPointer<SIMD4<Float>>, _ active: inout Int) -> (SIMD16<UInt16>, SIMD16<UInt16>) {
        let g0 = start, before = active
        let g4 = flat ? 1 : gauge(eq, &active, Float(x + 4) + 0.5, py)
        start = g4
        @inline(__always) func t(_ g: Float) -> Float { g > 0 ? (g < 1 ? g : 1) : 0 }
        @inline(__always) func q(_ v: Float) -> UInt16 { let a = v + 0.5; return a >= 256 ? 256 : a > 0 ? UInt16(a) : 0 }
        if active == before {
            // One wedge: both values are linear across the four pixels.
            let t0 = t(g0), t4 = t(g4)
            // a + ⌊(b − a)·i/4⌋ at pixel i = ⌊(a·(4 − i) + b·i)/4⌋: unsigned lanes only (at most
            // 1024), no conversion between lane types (the standard library's is a call per lane
            // here); the alpha lanes get 0.
            let fromA = SIMD16<UInt16>(4, 4, 4, 0, 3, 3, 3, 0, 2, 2, 2, 0, 1, 1, 1, 0)
            let fromB = SIMD16<UInt16>(0, 0, 0, 0, 1, 1, 1, 0, 2, 2, 2, 0, 3, 3, 3, 0)
            @inline(__always) func lerp(_ a: UInt16, _ b: UInt16) -> SIMD16<UInt16> {
                (SIMD16(repeating: a) &* fromA &+ SIMD16(repeating: b) &* fromB) &>> 2
            }
            return (lerp(q(t0 * 256), q(t4 * 256)), lerp(q(a0 + da * t0), q(a0 + da * t4)))
        }
        let g1 = gauge(eq, &active, Float(x + 1) + 0.5, py)
        let g2 = gauge(eq, &active, Float(x + 2) + 0.5, py)
        let g3 = gauge(eq, &active, Float(x + 3) + 0.5, py)
        let t0 = t(g0), t1 = t(g1), t2 = t(g2), t3 = t(g3)
        return (Self.lanes(q(t0 * 256), q(t1 * 256), q(t2 * 256), q(t3 * 256)),
                Self.lanes(q(a0 + da * t0), q(a0 + da * t1), q(a0 + da * t2), q(a0 + da * t3)))
    }

    /// Gradient fill of fully covered pixels `from..<to` of a row: colour and alpha from the gauge.
    func gradientSpan(_ line: UnsafeMutablePointer<UInt8>, _ from: Int, _ to: Int, _ py: Float,
                      _ center: SIMD4<Float>, _ edge: SIMD4<Float>, _ flat: Bool,
                      _ eq: UnsafeBufferPointer<SIMD4<Float>>, _ active: inout Int, _ additive: Bool) {
        let c0 = Self.widen(Self.pack(center), Self.pack(center), Self.pack(center), Self.pack(center))
        let c1 = Self.widen(Self.pack(edge), Self.pack(edge), Self.pack(edge), Self.pack(edge))
        let a0 = center.w * 256, da = (edge.w - center.w) * 256
        var x = from
        var g = flat ? 1 : gauge(eq, &active, Float(x) + 0.5, py)
        while x + 4 <= to {
            let (tl, k) = weights(x, py, a0, da, flat, &g, eq, &active)
            let color = (c0 &* (SIMD16<UInt16>(repeating: 256) &- tl) &+ c1 &* tl &+ 128) &>> 8
            Self.blend4(UnsafeMutableRawPointer(line + x &* 4), color, k, additive)
            x += 4
        }
        let w0 = Self.pack(center), w1 = Self.pack(edge)
        let line32 = UnsafeMutableRawPointer(line).assumingMemoryBound(to: UInt32.self)
        while x < to {
            let g = flat ? 1 : gauge(eq, &active, Float(x) + 0.5, py)
            let t = g < 0 ? 0 : g > 1 ? 1 : g
            Self.blend(line32 + x, Self.mix(w0, w1, UInt32(t * 256 + 0.5)), Self.weight(center.w + (edge.w - center.w) * t), additive)
            x += 1
        }
    }

    /// A texture coordinate (0…1, wrapping) as a position in 1/65536 texels in [0, size·65536), texel
    /// centres at +0.5; and a per-pixel step reduced to less than one turn.
    @inline(__always)
    static func fixedPosition(_ u: Float, _ step: Float, size: Int) -> (position: Int, step: Int) {
        let turn = size << 16
        let uu = abs(u) < 1e6 ? u : 0
        var p = Int(((uu - Float(Int(uu))) * Float(size) - 0.5) * 65536)
        p %= turn
        if p < 0 { p += turn }
        let ds = abs(step) < 1e6 ? step : 0
        let d = Int(ds * Float(size) * 65536) % turn
        return (p, d)
    }

    /// Textured fill of fully covered pixels `from..<to` of a row. Texture positions advance in fixed
    /// point (16 fractional bits: under 0.02 texel of drift across a 1920-pixel span).
    // Long on purpose: the inner loop of textured fills, its setup and per-pixel paths kept together in registers.
    func texturedSpan(_ line: UnsafeMutablePointer<UInt8>, _ from: Int, _ to: Int, _ py: Float, _ source: TextureView,
                      _ map: MilkTextureMap, _ center: SIMD4<Float>, _ edge: SIMD4<Float>, _ uniform: Bool, _ flat: Bool,
                      _ eq: UnsafeBufferPointer<SIMD4<Float>>, _ active: inout Int, _ additive: Bool) {
        let u = map.ux * (Float(from) + 0.5) + map.uy * py + map.u0
        let v = map.vx * (Float(from) + 0.5) + map.vy * py + map.v0
        let w = source.width, h = source.height
        let turnX = w << 16, turnY = h << 16
        var (fx, dx) = Self.fixedPosition(u, map.ux, size: w)
        var (fy, dy) = Self.fixedPosition(v, map.vx, size: h)
        @inline(__always) func tap() -> (SIMD4<UInt32>, UInt16, UInt16) {
            let x0 = fx >> 16, y0 = fy >> 16
            let x1 = x0 + 1 == w ? 0 : x0 + 1, y1 = y0 + 1 == h ? 0 : y0 + 1
            let r0 = source.row32(y0), r1 = source.row32(y1)
            let result = (SIMD4(r0[x0], r0[x1], r1[x0], r1[x1]), UInt16(fx >> 8 & 255), UInt16(fy >> 8 & 255))
            fx += dx; if fx >= turnX { fx -= turnX } else if fx < 0 { fx += turnX }
            fy += dy; if fy >= turnY { fy -= turnY } else if fy < 0 { fy += turnY }
            return result
        }
        // Tint (0…256 per channel) and weight at the centre and the edge; interpolated by the gauge.
        @inline(__always) func tint256(_ c: SIMD4<Float>) -> SIMD16<UInt16> {
            let r = UInt16(Self.byte(c.x)), g = UInt16(Self.byte(c.y)), b = UInt16(Self.byte(c.z))
            let r1 = r + r >> 7, g1 = g + g >> 7, b1 = b + b >> 7
            return SIMD16(r1, g1, b1, 0, r1, g1, b1, 0, r1, g1, b1, 0, r1, g1, b1, 0)
        }
        let tint0 = tint256(center), tint1 = tint256(edge)
        let a0 = center.w * 256, da = (edge.w - center.w) * 256
        let k0 = UInt16(Self.weight(center.w))
        let kUniform = Self.lanes(k0, k0, k0, k0)
        var x = from
        var g = flat || uniform ? 1 : gauge(eq, &active, Float(x) + 0.5, py)
        while x + 4 <= to {
            let (q0, ax0, ay0) = tap()
            let (q1, ax1, ay1) = tap()
            let (q2, ax2, ay2) = tap()
            let (q3, ax3, ay3) = tap()
            let ax = Self.lanes(ax0, ax1, ax2, ax3), ay = Self.lanes(ay0, ay1, ay2, ay3)
            let one = SIMD16<UInt16>(repeating: 256)
            let top = (Self.widen(q0[0], q1[0], q2[0], q3[0]) &* (one &- ax) &+ Self.widen(q0[1], q1[1], q2[1], q3[1]) &* ax &+ 128) &>> 8
            let bottom = (Self.widen(q0[2], q1[2], q2[2], q3[2]) &* (one &- ax) &+ Self.widen(q0[3], q1[3], q2[3], q3[3]) &* ax &+ 128) &>> 8
            var texel = (top &* (one &- ay) &+ bottom &* ay &+ 128) &>> 8
            var k = kUniform
            if uniform {
                texel = (texel &* tint0) &>> 8
            } else {
                let (tl, kk) = weights(x, py, a0, da, flat, &g, eq, &active)
                let tint = (tint0 &* (one &- tl) &+ tint1 &* tl &+ 128) &>> 8
                texel = (texel &* tint) &>> 8
                k = kk
            }
            Self.blend4(UnsafeMutableRawPointer(line + x &* 4), texel, k, additive)
            x += 4
        }
        let line32 = UnsafeMutableRawPointer(line).assumingMemoryBound(to: UInt32.self)
        while x < to {
            var color = center
            if !uniform {
                let g = flat ? 1 : gauge(eq, &active, Float(x) + 0.5, py)
                color = center + (edge - center) * (g < 0 ? 0 : g > 1 ? 1 : g)
            }
            let (q, ax, ay) = tap()
            Self.blend(line32 + x, Self.tint(Self.bilinear(q, UInt32(ax), UInt32(ay)), color), Self.weight(color.w), additive)
            x += 1
        }
    }
}
