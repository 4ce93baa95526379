import MarbleCore

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
    /// The echo's weight × 256 (0: no echo), zoom and orientation (0…3: none, flip x, flip y, both).
    var echoAlpha: UInt32 = 0
    var echoZoom: Float = 1
    var echoOrientation = 0
    /// `gamma` × the tint per corner and channel (top-left, top-right, bottom-left, bottom-right; r, g, b).
    var gain = [Float](repeating: 1, count: 12)
    /// The filters as one table per channel value, or nil when none is on.
    var filter: [UInt8]?

    func run(strip: Range<Int>, worker: Int) { draw(into: target, rows: strip) }


    /// Composites `rows` of `target` (changes nothing in the pass, so strips may share it).
    func draw(into target: TextureView, rows strip: Range<Int>) {
        let src = source, echoAlpha = self.echoAlpha, gain = self.gain, filter = self.filter
        let width = target.width, height = target.height
        let sw = src.width, sh = src.height
        let xAxis = TexelAxis(size: sw, wraps: false), yAxis = TexelAxis(size: sh, wraps: false)
        let same = sw == width && sh == height
        // Output pixel → buffer texel, in 1/256 texel.
        let stepX = Int(Float(sw) / Float(width) * 256), stepY = Float(sh) / Float(height)
        let startX = Int((0.5 * Float(sw) / Float(width) - 0.5) * 256)
        let echo = echoAlpha > 0
        let ez = 1 / max(echoZoom, 0.001)
        let flipX = echoOrientation % 2 == 1, flipY = echoOrientation >= 2
        let echoStepX = Int(Float(sw) / Float(width) * ez * 256) * (flipX ? -1 : 1)
        let block = 32
        let identity = filter == nil
        let table = filter ?? []
        table.withUnsafeBufferPointer { table in
        for y in strip {
            let out = target.row32(y)
            let fy = Int(((Float(y) + 0.5) * stepY - 0.5) * 256)
            let (y0, y1, ay) = yAxis.split(fy)
            let row0 = UnsafePointer(src.row32(y0)), row1 = UnsafePointer(src.row32(y1))
            // The echo's row: v about the centre, zoomed, maybe flipped.
            var ev = ((Float(y) + 0.5) / Float(height) - 0.5) * ez + 0.5
            if flipY { ev = 1 - ev }
            let (ey0, ey1, eay) = yAxis.split(Int((ev * Float(sh) - 0.5) * 256))
            let echo0 = UnsafePointer(src.row32(ey0)), echo1 = UnsafePointer(src.row32(ey1))
            var eu = (0.5 / Float(width) - 0.5) * ez + 0.5
            if flipX { eu = 1 - eu }
            var ex = Int((eu * Float(sw) - 0.5) * 256)
            // Gains down this row at the left and right edges.
            let down = (Float(y) + 0.5) / Float(height)
            let lr = gain[0] + (gain[6] - gain[0]) * down, rr = gain[3] + (gain[9] - gain[3]) * down
            let lg = gain[1] + (gain[7] - gain[1]) * down, rg = gain[4] + (gain[10] - gain[4]) * down
            let lb = gain[2] + (gain[8] - gain[2]) * down, rb = gain[5] + (gain[11] - gain[5]) * down
            var tx = startX
            var x = 0
            while x < width {
                let end = min(width, x + block)
                let across = (Float(x + end) * 0.5) / Float(width)
                let gr = UInt32(max(0, min(2048, (lr + (rr - lr) * across) * 256)))
                let gg = UInt32(max(0, min(2048, (lg + (rg - lg) * across) * 256)))
                let gb = UInt32(max(0, min(2048, (lb + (rb - lb) * across) * 256)))
                if identity {
                    // Four pixels a step (the same bytes as one at a time, below).
                    let gains = SIMD16<UInt32>(gr, gg, gb, 0, gr, gg, gb, 0, gr, gg, gb, 0, gr, gg, gb, 0)
                    while x + 4 <= end {
                        var p: SIMD16<UInt16>
                        if same {
                            p = PackedPixels4.wide(UnsafeRawPointer(row0 + x).loadUnaligned(as: SIMD4<UInt32>.self))
                        } else {
                            var a = SIMD4<UInt32>(), b = a, c = a, d = a, wx = a
                            for k in 0..<4 {
                                let (x0, x1, ax) = xAxis.split(tx)
                                a[k] = row0[x0]; b[k] = row0[x1]; c[k] = row1[x0]; d[k] = row1[x1]; wx[k] = ax
                                tx &+= stepX
                            }
                            p = PackedPixels4.bilinear(a, b, c, d, wx, SIMD4(repeating: ay))
                        }
                        if echo {
                            var a = SIMD4<UInt32>(), b = a, c = a, d = a, wx = a
                            for k in 0..<4 {
                                let (x0, x1, ax) = xAxis.split(ex)
                                a[k] = echo0[x0]; b[k] = echo0[x1]; c[k] = echo1[x0]; d[k] = echo1[x1]; wx[k] = ax
                                ex &+= echoStepX
                            }
                            let q = PackedPixels4.bilinear(a, b, c, d, wx, SIMD4(repeating: eay))
                            p = PackedPixels4.lerp(p, q, SIMD16(repeating: UInt16(echoAlpha)))
                        }
                        let lit = (SIMD16<UInt32>(truncatingIfNeeded: p) &* gains) &>> 8
                        let clamped = SIMD16<UInt16>(truncatingIfNeeded: lit.replacing(with: 255, where: lit .> 255))
                        let pixels = PackedPixels4.narrow(clamped) | SIMD4<UInt32>(repeating: 0xFF00_0000)
                        UnsafeMutableRawPointer(out + x).storeBytes(of: pixels, as: SIMD4<UInt32>.self)
                        x += 4
                    }
                }
                while x < end {
                    var p: UInt32
                    if same {
                        p = row0[x]
                    } else {
                        let (x0, x1, ax) = xAxis.split(tx)
                        p = PackedPixels.bilinear(row0, row1, x0, x1, ax, ay)
                        tx &+= stepX
                    }
                    if echo {
                        let (ex0, ex1, eax) = xAxis.split(ex)
                        p = PackedPixels.lerp(p, PackedPixels.bilinear(echo0, echo1, ex0, ex1, eax, eay), echoAlpha)
                        ex &+= echoStepX
                    }
                    var r = min(255, ((p & 0xFF) &* gr) >> 8)
                    var g = min(255, (((p >> 8) & 0xFF) &* gg) >> 8)
                    var b = min(255, (((p >> 16) & 0xFF) &* gb) >> 8)
                    if !identity {
                        r = UInt32(table[Int(r)]); g = UInt32(table[Int(g)]); b = UInt32(table[Int(b)])
                    }
                    out[x] = r | (g << 8) | (b << 16) | 0xFF00_0000
                    x += 1
                }
            }
        }
        }
    }

    /// The filter table for these switches (nil when all are off): MilkDrop's blend-mode passes, in
    /// its order. Brighten: 1 − (1 − c)²; darken: c²; solarize: 2c(1 − c); invert: 1 − c.
    static func filterTable(brighten: Bool, darken: Bool, solarize: Bool, invert: Bool) -> [UInt8]? {
        guard brighten || darken || solarize || invert else { return nil }
        return (0..<256).map { i in
            var c = Float(i) / 255
            if brighten { c = 1 - (1 - c) * (1 - c) }
            if darken { c = c * c }
            if solarize { c = 2 * c * (1 - c) }
            if invert { c = 1 - c }
            return UInt8(max(0, min(255, (c * 255).rounded())))
        }
    }
}
