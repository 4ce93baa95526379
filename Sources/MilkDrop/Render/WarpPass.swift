import MarbleCore

/// The warp: each pixel of the new feedback buffer reads the previous one where the mesh says
/// (bilinear, wrapped or clamped at the edges as `wrap` asks), times `decay`.
///
/// Within a mesh cell the texture coordinate is interpolated bilinearly from the cell's corners
/// (MilkDrop draws two triangles per cell; the difference is invisible at 48 × 36), so along a row of
/// a cell it moves in equal steps: a run of pixels whose reads all fall inside the picture takes a
/// fast path with no edge tests. Rows are independent, so strips may run concurrently; the previous
/// buffer is only read.
final class WarpPass: StripTask, @unchecked Sendable {
    // Safety of @unchecked Sendable: fields are set before `run` by the renderer's `prepare` and only
    // read by strips, which write disjoint rows of `target`.
    var mesh: WarpMesh
    var source = TextureView(pixels: UnsafeMutableRawPointer(bitPattern: 64)!, width: 1, height: 1, bytesPerRow: 4)
    var target = TextureView(pixels: UnsafeMutableRawPointer(bitPattern: 64)!, width: 1, height: 1, bytesPerRow: 4)
    var wraps = true
    /// `decay` × 256, 0…256.
    var decay: UInt32 = 251

    init(mesh: WarpMesh) { self.mesh = mesh }

    /// Four bilinear samples at once, times `decay` (``PackedPixels4``: the bytes of ``PackedPixels``).
    @inline(__always)
    static func bilinear4(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>,
                          _ wx: SIMD4<UInt32>, _ wy: SIMD4<UInt32>, _ decay: UInt32) -> SIMD4<UInt32> {
        let mixed = PackedPixels4.bilinear(a, b, c, d, wx, wy)
        let scaled = (mixed &* SIMD16<UInt16>(repeating: UInt16(decay)) &+ SIMD16<UInt16>(repeating: 128)) &>> 8
        return PackedPixels4.narrow(scaled) | SIMD4<UInt32>(repeating: 0xFF00_0000)
    }

    func run(strip: Range<Int>, worker: Int) {
        let src = source, dst = target, decay = self.decay, wraps = self.wraps, mesh = self.mesh
        let columns = mesh.columns, rows = mesh.rows
        let width = dst.width, height = dst.height
        let sw = src.width, sh = src.height
        let xAxis = TexelAxis(size: sw, wraps: wraps), yAxis = TexelAxis(size: sh, wraps: wraps)
        let base = UnsafePointer<UInt32>(src.pixels.assumingMemoryBound(to: UInt32.self))
        let stride = src.bytesPerRow / 4
        let scaleX = Float(sw) * 256, scaleY = Float(sh) * 256
        let cellWidth = Float(width) / Float(columns)
        mesh.u.withUnsafeBufferPointer { meshU in
        mesh.v.withUnsafeBufferPointer { meshV in
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * (columns + 1)) { line in
            let lineU = line.baseAddress!, lineV = line.baseAddress! + (columns + 1)
            for y in strip {
                // The row's place in the mesh, and the texture coordinates along it at each column of vertices.
                let down = (Float(y) + 0.5) / Float(height) * Float(rows)
                let j = min(rows - 1, max(0, Int(down)))
                let t = down - Float(j)
                let upper = j * (columns + 1), lower = upper + columns + 1
                for i in 0...columns {
                    lineU[i] = meshU[upper + i] + (meshU[lower + i] - meshU[upper + i]) * t
                    lineV[i] = meshV[upper + i] + (meshV[lower + i] - meshV[upper + i]) * t
                }
                let out = dst.row32(y)
                var x = 0
                for cell in 0..<columns {
                    // Pixels whose centres fall in this cell.
                    let end = cell == columns - 1 ? width : min(width, Int((Float(cell + 1) * cellWidth - 0.5).rounded(.up)))
                    guard x < end else { continue }
                    let u0 = lineU[cell], du = (lineU[cell + 1] - u0) / cellWidth
                    let v0 = lineV[cell], dv = (lineV[cell + 1] - v0) / cellWidth
                    let start = Float(x) + 0.5 - Float(cell) * cellWidth
                    // Texel coordinates in 1/65536 texel; `(c + 128) >> 8` rounds to the 1/256 steps
                    // the sampler uses (an arithmetic shift: also below zero).
                    let tx = Int(((u0 + du * start) * scaleX - 128) * 256), ty = Int(((v0 + dv * start) * scaleY - 128) * 256)
                    let stepX = Int(du * scaleX * 256), stepY = Int(dv * scaleY * 256)
                    let last = end - 1 - x
                    let x0 = (tx &+ 128) >> 16, x1 = (tx &+ stepX &* last &+ 128) >> 16
                    let y0 = (ty &+ 128) >> 16, y1 = (ty &+ stepY &* last &+ 128) >> 16
                    if min(x0, x1) >= 0 && max(x0, x1) < sw - 1 && min(y0, y1) >= 0 && max(y0, y1) < sh - 1 {
                        Self.insideRun(out, x, end, tx: tx, ty: ty, stepX: stepX, stepY: stepY, base: base, stride: stride, decay: decay)
                    } else {
                        Self.edgeRun(out, x, end, tx: tx, ty: ty, stepX: stepX, stepY: stepY, base: base, stride: stride,
                                     xAxis: xAxis, yAxis: yAxis, decay: decay)
                    }
                    x = end
                }
            }
        }
        }
        }
    }

    /// Pixels `start..<end` of a row (`out`) whose reads, from texel coordinate `tx`, `ty` (1/65536
    /// texel) in steps of `stepX`, `stepY`, all fall inside the picture: no edge handling, four a step.
    @inline(__always)
    private static func insideRun(_ out: UnsafeMutablePointer<UInt32>, _ start: Int, _ end: Int, tx: Int, ty: Int,
                                  stepX: Int, stepY: Int, base: UnsafePointer<UInt32>, stride: Int, decay: UInt32) {
        var x = start, tx = tx, ty = ty
        while x + 4 <= end {
            var a = SIMD4<UInt32>(), b = a, c = a, d = a, wx = a, wy = a
            for k in 0..<4 {
                let fx = (tx &+ 128) >> 8, fy = (ty &+ 128) >> 8
                let p0 = base + ((fy >> 8) &* stride &+ (fx >> 8))
                a[k] = p0[0]; b[k] = p0[1]; c[k] = p0[stride]; d[k] = p0[stride + 1]
                wx[k] = UInt32(truncatingIfNeeded: fx & 255); wy[k] = UInt32(truncatingIfNeeded: fy & 255)
                tx &+= stepX; ty &+= stepY
            }
            let pixels = WarpPass.bilinear4(a, b, c, d, wx, wy, decay)
            (UnsafeMutableRawPointer(out + x)).storeBytes(of: pixels, as: SIMD4<UInt32>.self)
            x += 4
        }
        while x < end {
            let fx = (tx &+ 128) >> 8, fy = (ty &+ 128) >> 8
            let p0 = base + ((fy >> 8) &* stride &+ (fx >> 8))
            let ax = UInt32(truncatingIfNeeded: fx & 255), ay = UInt32(truncatingIfNeeded: fy & 255)
            let top = PackedPixels.lerp(p0[0], p0[1], ax)
            let bottom = PackedPixels.lerp(p0[stride], p0[stride + 1], ax)
            out[x] = PackedPixels.scale(PackedPixels.lerp(top, bottom, ay), decay)
            tx &+= stepX; ty &+= stepY
            x += 1
        }
    }

    /// Pixels `start..<end` of a row as in `insideRun`, but some reads fall outside: each is wrapped or
    /// clamped by the axes, one pixel at a time.
    @inline(__always)
    private static func edgeRun(_ out: UnsafeMutablePointer<UInt32>, _ start: Int, _ end: Int, tx: Int, ty: Int,
                                stepX: Int, stepY: Int, base: UnsafePointer<UInt32>, stride: Int,
                                xAxis: TexelAxis, yAxis: TexelAxis, decay: UInt32) {
        var x = start, tx = tx, ty = ty
        while x < end {
            let (xa, xb, ax) = xAxis.split((tx &+ 128) >> 8)
            let (ya, yb, ay) = yAxis.split((ty &+ 128) >> 8)
            let ra = base + ya &* stride, rb = base + yb &* stride
            let p = PackedPixels.lerp(PackedPixels.lerp(ra[xa], ra[xb], ax), PackedPixels.lerp(rb[xa], rb[xb], ax), ay)
            out[x] = PackedPixels.scale(p, decay)
            tx &+= stepX; ty &+= stepY
            x += 1
        }
    }
}
