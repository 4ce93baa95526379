import MarbleCore

/// The warp: each pixel of the new feedback buffer reads the previous one where the mesh says
/// (bilinear, wrapped or clamped at the edges as `wrap` asks), times `decay`.
///
/// Within a mesh cell the texture coordinate is interpolated bilinearly from the cell's corners
/// (MilkDrop draws two triangles per cell; the difference is invisible at 48 × 36). Rows are
/// independent, so strips may run concurrently; the previous buffer is only read.
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

    func run(strip: Range<Int>, worker: Int) {
        let columns = mesh.columns, rows = mesh.rows
        let width = target.width, height = target.height
        let xAxis = TexelAxis(size: source.width, wraps: wraps), yAxis = TexelAxis(size: source.height, wraps: wraps)
        let sw = Float(source.width) * 256, sh = Float(source.height) * 256
        mesh.u.withUnsafeBufferPointer { meshU in
        mesh.v.withUnsafeBufferPointer { meshV in
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * (columns + 1)) { line in
            let lineU = line.baseAddress!, lineV = line.baseAddress! + (columns + 1)
            for y in strip {
                // The row's place in the mesh.
                let down = (Float(y) + 0.5) / Float(height) * Float(rows)
                let j = min(rows - 1, max(0, Int(down)))
                let t = down - Float(j)
                let lower = j * (columns + 1), upper = lower + columns + 1
                for i in 0...columns {
                    lineU[i] = meshU[lower + i] + (meshU[upper + i] - meshU[lower + i]) * t
                    lineV[i] = meshV[lower + i] + (meshV[upper + i] - meshV[lower + i]) * t
                }
                let out = target.row32(y)
                var x = 0
                for cell in 0..<columns {
                    // Pixels whose centres fall in this cell.
                    let end = cell == columns - 1 ? width : min(width, Int((Float(cell + 1) * Float(width) / Float(columns) - 0.5).rounded(.up)))
                    guard x < end else { continue }
                    let cellWidth = Float(width) / Float(columns)
                    let u0 = lineU[cell], du = (lineU[cell + 1] - u0) / cellWidth
                    let v0 = lineV[cell], dv = (lineV[cell + 1] - v0) / cellWidth
                    let start = Float(x) + 0.5 - Float(cell) * cellWidth
                    // Texel coordinates in 1/65536 texel; an arithmetic shift by 8 gives the 1/256
                    // steps `split` takes, also below zero.
                    var tx = Int(((u0 + du * start) * sw - 128) * 256), ty = Int(((v0 + dv * start) * sh - 128) * 256)
                    let stepX = Int(du * sw * 256), stepY = Int(dv * sh * 256)
                    while x < end {
                        let fx = (tx &+ 128) >> 8, fy = (ty &+ 128) >> 8   // to the nearest 1/256
                        let (x0, x1, ax) = xAxis.split(fx)
                        let (y0, y1, ay) = yAxis.split(fy)
                        let p = PackedPixels.bilinear(UnsafePointer(source.row32(y0)), UnsafePointer(source.row32(y1)), x0, x1, ax, ay)
                        out[x] = PackedPixels.scale(p, decay)
                        tx += stepX; ty += stepY
                        x += 1
                    }
                }
            }
        }
        }
        }
    }
}
