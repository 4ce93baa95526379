import MarbleCore

/// The compositor's blend: one layer onto the canvas, premultiplied RGBA8, integer math only.
///
/// Formulas (premultiplied, per channel c, alpha a, values in 0…255, s = layer × opacity, d = canvas):
/// - normal:   s + d·(255 − sa)/255                        (Porter-Duff source-over)
/// - add:      min(255, s + d)
/// - screen:   s + d − s·d/255                             (also on alpha: union coverage)
/// - multiply: (s·d + s·(255 − da) + d·(255 − sa))/255     (product where both cover, each alone elsewhere)
/// Every division by 255 is exact rounding: (x + 128 + ((x + 128) >> 8)) >> 8. No result can exceed 255
/// for valid premultiplied input (channels ≤ alpha), so nothing wraps.
///
/// Speed: normal and add use two 16-bit lanes per UInt32 (one multiply scales two channels); screen runs
/// over bytes and multiply over pixels; all four loops vectorise. Opacity 0 returns without touching
/// the canvas; a fully transparent layer pixel leaves the canvas pixel unchanged in every mode.
package enum Blend {
    /// Blends `layer` onto `canvas` for `rows` (clipped to both heights) over the common width.
    /// Safe to call concurrently on disjoint row ranges.
    package static func composite(layer: TextureView, onto canvas: TextureView, rows: Range<Int>,
                                 mode: BlendMode, opacity: Float) {
        let width = min(layer.width, canvas.width)
        let rowRange = rows.clamped(to: 0..<min(layer.height, canvas.height))
        let op = UInt32(byte(opacity))
        guard op > 0, width > 0, !rowRange.isEmpty else { return }
        for y in rowRange {
            let src = layer.row32(y), dst = canvas.row32(y)
            switch mode {
            case .normal: normalRow(src, dst, width, op)
            case .add: addRow(src, dst, width, op)
            case .screen: screenRow(layer.row(y), canvas.row(y), width &* 4, op)
            case .multiply: multiplyRow(src, dst, width, op)
            }
        }
    }

    /// The layer's picture in place of the canvas's, mixed by `opacity`: d + (s − d)·opacity on all four
    /// channels (each term rounded). For a filter on a transparent canvas: its picture is made from the
    /// canvas, so putting it over the canvas would count the canvas's coverage twice. (On an opaque
    /// canvas, source-over of an opaque filter picture is this same mix, so opaque renders keep
    /// ``composite(layer:onto:rows:mode:opacity:)``.) Safe to call concurrently on disjoint row ranges.
    package static func mix(layer: TextureView, onto canvas: TextureView, rows: Range<Int>, opacity: Float) {
        let width = min(layer.width, canvas.width)
        let rowRange = rows.clamped(to: 0..<min(layer.height, canvas.height))
        let op = UInt32(byte(opacity))
        guard op > 0, width > 0, !rowRange.isEmpty else { return }
        for y in rowRange {
            let src = layer.row32(y), dst = canvas.row32(y)
            if op == 255 {
                dst.update(from: src, count: width)
            } else {
                for x in 0..<width { dst[x] = scale255(src[x], op) &+ scale255(dst[x], 255 &- op) }
            }
        }
    }

    /// One premultiplied pixel onto another, for generators that draw onto the canvas themselves
    /// (`drawsOnCanvas`). `opacity` is 0…255. A transparent source leaves the destination unchanged.
    @inline(__always)
    package static func pixel(_ source: UInt32, onto d: UInt32, mode: BlendMode, opacity op: UInt32) -> UInt32 {
        let s = op == 255 ? source : scale255(source, op)
        switch mode {
        case .normal: return s &+ scale255(d, 255 &- (s >> 24))
        case .add: return saturatingAdd(s, d)
        case .screen:
            // s + d − s·d/255 per channel, two lanes at a time.
            let rb = (s & 0x00FF_00FF) &+ (d & 0x00FF_00FF)
            let ga = ((s >> 8) & 0x00FF_00FF) &+ ((d >> 8) & 0x00FF_00FF)
            let rbProduct = div255(s & 0xFF &* (d & 0xFF)) | div255((s >> 16) & 0xFF &* ((d >> 16) & 0xFF)) << 16
            let gaProduct = div255((s >> 8) & 0xFF &* ((d >> 8) & 0xFF)) | div255((s >> 24) &* (d >> 24)) << 16
            return ((rb &- rbProduct) & 0x00FF_00FF) | ((ga &- gaProduct) & 0x00FF_00FF) << 8
        case .multiply:
            let ks = 255 &- (d >> 24), kd = 255 &- (s >> 24)
            @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
                let sc = (s >> shift) & 0xFF, dc = (d >> shift) & 0xFF
                return div255(sc &* dc &+ sc &* ks &+ dc &* kd) << shift
            }
            return channel(0) | channel(8) | channel(16) | channel(24)
        }
    }

    /// All four channels × opacity/255 (0…255): folds a layer's opacity into a colour once per frame.
    @inline(__always) package static func scaled(_ p: UInt32, opacity: UInt32) -> UInt32 {
        opacity == 255 ? p : scale255(p, opacity)
    }

    /// x/255 rounded, for x ≤ 65 025 (one channel).
    @inline(__always) static func div255(_ x: UInt32) -> UInt32 {
        let t = x &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// x/255 rounded in both 16-bit lanes (each ≤ 65 025), result masked to 0x00FF00FF.
    @inline(__always) static func div255Lanes(_ x: UInt32) -> UInt32 {
        let t = x &+ 0x0080_0080
        return ((t &+ ((t >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    }

    /// All four channels × k/255, k in 0…255.
    @inline(__always) static func scale255(_ p: UInt32, _ k: UInt32) -> UInt32 {
        div255Lanes((p & 0x00FF_00FF) &* k) | div255Lanes(((p >> 8) & 0x00FF_00FF) &* k) << 8
    }

    /// 16-bit form of ``div255(_:)`` (x ≤ 65 025 keeps every step below 65 536); vectorises on SSE2.
    @inline(__always) static func div255(_ x: UInt16) -> UInt16 {
        let t = x &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    // Each row function has two loops, full opacity and scaled, so the loop body has no select.

    static func normalRow(_ src: UnsafeMutablePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>,
                          _ count: Int, _ op: UInt32) {
        if op == 255 {
            for x in 0..<count {
                let s = src[x]
                dst[x] = s &+ scale255(dst[x], 255 &- (s >> 24))
            }
        } else {
            for x in 0..<count {
                let s = scale255(src[x], op)
                dst[x] = s &+ scale255(dst[x], 255 &- (s >> 24))
            }
        }
    }

    @inline(__always) static func saturatingAdd(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let rb = (s & 0x00FF_00FF) &+ (d & 0x00FF_00FF)
        let ga = ((s >> 8) & 0x00FF_00FF) &+ ((d >> 8) & 0x00FF_00FF)
        // Lanes that reached 256 have bit 8 set: turn it into 0xFF for that lane.
        let rbSat = (rb | (((rb >> 8) & 0x0001_0001) &* 0xFF)) & 0x00FF_00FF
        let gaSat = (ga | (((ga >> 8) & 0x0001_0001) &* 0xFF)) & 0x00FF_00FF
        return rbSat | gaSat << 8
    }

    static func addRow(_ src: UnsafeMutablePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>,
                       _ count: Int, _ op: UInt32) {
        if op == 255 {
            for x in 0..<count { dst[x] = saturatingAdd(src[x], dst[x]) }
        } else {
            for x in 0..<count { dst[x] = saturatingAdd(scale255(src[x], op), dst[x]) }
        }
    }

    static func screenRow(_ src: UnsafeMutablePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>,
                          _ count: Int, _ op: UInt32) {
        @inline(__always) func screen(_ s: UInt16, _ d: UInt16) -> UInt8 {
            UInt8(truncatingIfNeeded: s &+ d &- div255(s &* d))
        }
        if op == 255 {
            for i in 0..<count { dst[i] = screen(UInt16(src[i]), UInt16(dst[i])) }
        } else {
            let op16 = UInt16(truncatingIfNeeded: op)
            for i in 0..<count { dst[i] = screen(div255(UInt16(src[i]) &* op16), UInt16(dst[i])) }
        }
    }

    static func multiplyRow(_ src: UnsafeMutablePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>,
                            _ count: Int, _ op: UInt32) {
        @inline(__always) func multiply(_ s: UInt32, _ d: UInt32) -> UInt32 {
            let ks = 255 &- UInt16(truncatingIfNeeded: d >> 24), kd = 255 &- UInt16(truncatingIfNeeded: s >> 24)
            @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
                let sc = UInt16(truncatingIfNeeded: (s >> shift) & 0xFF), dc = UInt16(truncatingIfNeeded: (d >> shift) & 0xFF)
                return UInt32(div255(sc &* dc &+ sc &* ks &+ dc &* kd)) << shift
            }
            return channel(0) | channel(8) | channel(16) | channel(24)
        }
        if op == 255 {
            for x in 0..<count { dst[x] = multiply(src[x], dst[x]) }
        } else {
            for x in 0..<count { dst[x] = multiply(scale255(src[x], op), dst[x]) }
        }
    }
}

/// A blend mode as a type, so that a kernel's inner loop is specialised for one mode instead of
/// switching per pixel (`Blend.pixel` does that switch). The source already carries the opacity.
package protocol BlendFunction {
    /// `source` (premultiplied, opacity applied) blended onto `destination`, both packed RGBA8.
    static func blend(_ source: UInt32, onto destination: UInt32) -> UInt32
}

/// Source-over (`BlendMode.normal`).
package enum NormalBlend: BlendFunction {
    /// `s` blended onto `d`; see ``Blend`` for the formula.
    @inline(__always) package static func blend(_ s: UInt32, onto d: UInt32) -> UInt32 { s &+ Blend.scale255(d, 255 &- (s >> 24)) }
}
/// Saturating addition (`BlendMode.add`).
package enum AddBlend: BlendFunction {
    /// `s` blended onto `d`; see ``Blend`` for the formula.
    @inline(__always) package static func blend(_ s: UInt32, onto d: UInt32) -> UInt32 { Blend.saturatingAdd(s, d) }
}
/// Screen (`BlendMode.screen`).
package enum ScreenBlend: BlendFunction {
    /// `s` blended onto `d`; see ``Blend`` for the formula.
    @inline(__always) package static func blend(_ s: UInt32, onto d: UInt32) -> UInt32 { Blend.pixel(s, onto: d, mode: .screen, opacity: 255) }
}
/// Multiply (`BlendMode.multiply`).
package enum MultiplyBlend: BlendFunction {
    /// `s` blended onto `d`; see ``Blend`` for the formula.
    @inline(__always) package static func blend(_ s: UInt32, onto d: UInt32) -> UInt32 { Blend.pixel(s, onto: d, mode: .multiply, opacity: 255) }
}
