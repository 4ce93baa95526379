import Glibc
import MarbleCore

/// MilkDrop's warp mesh: a grid of `columns × rows` cells whose corners say where in the previous
/// frame each part of the new frame is read from.
///
/// Geometry follows MilkDrop 2 (and projectM 4's warp vertex shader), with y pointing DOWN as in
/// MilkDrop's texture space: a vertex at grid position (`px`, `py`) in −1…1 (−1 the top) with radius
/// and angle measured with the aspect ratio applied gets
/// zoom (raised to `zoomexp` by radius), stretch (`sx`, `sy` about `cx`, `cy`), the animated `warp`
/// wobble, rotation (`rot` about `cx`, `cy`) and translation (`dx`, `dy`), giving a texture coordinate
/// (u right, v down, 0…1 on the picture: `dy` > 0 reads from above, so the picture moves down). The per-vertex values come from the per-frame values, changed
/// per vertex by the preset's per-pixel equations when it has them (``MilkPreset/warp(_:_:_:)``).
package final class WarpMesh {
    /// Cells across and down (MilkDrop's default 48 × 36).
    package let columns: Int, rows: Int
    /// Texture coordinates per vertex, row by row from the top of the picture ((columns + 1) per row).
    package private(set) var u: [Float], v: [Float]
    /// Per vertex: its position in −1…1 (y down), radius and angle (`ang`, counter-clockwise on screen)
    /// as per-pixel equations see them.
    package private(set) var positionX: [Float], positionY: [Float], radius: [Float], angle: [Float]
    /// The aspect factors: for a wide picture `aspectY` = height / width and `aspectX` = 1 (MilkDrop's
    /// convention), so that rotations are circular on screen.
    package private(set) var aspectX: Float = 1, aspectY: Float = 1

    /// The values one vertex is warped with (MilkDrop's per-vertex variables).
    package struct Motion: Sendable, Equatable {
        package var zoom: Float = 1, zoomExponent: Float = 1, rotation: Float = 0, warp: Float = 1
        package var centerX: Float = 0.5, centerY: Float = 0.5, dx: Float = 0, dy: Float = 0
        package var stretchX: Float = 1, stretchY: Float = 1
        package init() {}
    }

    /// The warp's animation for this frame: `time × fWarpAnimSpeed` and `1 / fWarpScale`.
    package struct Wobble: Sendable {
        var time: Float, inverseScale: Float
        var f0: Float, f1: Float, f2: Float, f3: Float
        package init(time: Double, animationSpeed: Float, scale: Float) {
            let t = Float(time.truncatingRemainder(dividingBy: 10_000)) * animationSpeed
            self.time = t
            inverseScale = scale != 0 && scale.isFinite ? 1 / scale : 1
            f0 = 11.68 + 4 * cosf(t * 1.413 + 10)
            f1 = 8.77 + 3 * cosf(t * 1.113 + 7)
            f2 = 10.54 + 3 * cosf(t * 1.233 + 3)
            f3 = 11.49 + 4 * cosf(t * 0.933 + 5)
        }
    }

    /// A mesh of `columns × rows` cells (each at least 1).
    package init(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        let n = (self.columns + 1) * (self.rows + 1)
        u = [Float](repeating: 0, count: n); v = u
        positionX = u; positionY = u; radius = u; angle = u
    }

    /// Places the vertices for a picture of `width × height` (radius and angle depend on its shape).
    package func configure(width: Int, height: Int) {
        aspectX = height > width ? Float(width) / Float(height) : 1
        aspectY = width > height ? Float(height) / Float(width) : 1
        var k = 0
        for j in 0...rows {
            for i in 0...columns {
                let x = Float(i) / Float(columns) * 2 - 1, y = Float(j) / Float(rows) * 2 - 1
                positionX[k] = x; positionY[k] = y
                radius[k] = (x * aspectX * x * aspectX + y * aspectY * y * aspectY).squareRoot()
                angle[k] = (j == rows / 2 && i == columns / 2) ? 0 : -atan2f(y * aspectY, x * aspectX)
                k += 1
            }
        }
    }

    /// Vertices, `(columns + 1) × (rows + 1)`.
    package var vertexCount: Int { (columns + 1) * (rows + 1) }

    /// Sets vertex `k`'s texture coordinate from its motion values. Non-finite results (a preset
    /// dividing by zero) become the vertex's own position, so one bad vertex cannot poison the picture.
    @inline(__always)
    package func warp(vertex k: Int, _ m: Motion, _ wobble: Wobble) {
        let x = positionX[k], y = positionY[k]
        let zoom2 = powf(m.zoom, powf(m.zoomExponent, radius[k] * 2 - 1))
        let inverse = 1 / zoom2
        var uu = x * aspectX * 0.5 * inverse + 0.5
        var vv = y * aspectY * 0.5 * inverse + 0.5
        uu = (uu - m.centerX) / m.stretchX + m.centerX
        vv = (vv - m.centerY) / m.stretchY + m.centerY
        if m.warp != 0 {
            let w = m.warp * 0.0035, s = wobble.inverseScale, t = wobble.time
            uu += w * sinf(t * 0.333 + s * (x * wobble.f0 - y * wobble.f3))
            vv += w * cosf(t * 0.375 - s * (x * wobble.f2 + y * wobble.f1))
            uu += w * cosf(t * 0.753 - s * (x * wobble.f1 - y * wobble.f2))
            vv += w * sinf(t * 0.825 + s * (x * wobble.f0 + y * wobble.f3))
        }
        let u2 = uu - m.centerX, v2 = vv - m.centerY
        let c = cosf(m.rotation), sn = sinf(m.rotation)
        uu = u2 * c - v2 * sn + m.centerX - m.dx
        vv = u2 * sn + v2 * c + m.centerY - m.dy
        uu = (uu - 0.5) / aspectX + 0.5
        vv = (vv - 0.5) / aspectY + 0.5
        if uu.isFinite && vv.isFinite && abs(uu) < 1e6 && abs(vv) < 1e6 {
            u[k] = uu; v[k] = vv
        } else {
            u[k] = x * 0.5 + 0.5; v[k] = y * 0.5 + 0.5
        }
    }

    /// Where the warp reads the previous frame for texture point `p` (u right, v down, 0…1): the
    /// mesh's coordinates interpolated at `p` (what motion vectors show).
    package func sample(_ p: SIMD2<Float>) -> SIMD2<Float> {
        let gx = max(0, min(Float(columns) - 0.0001, p.x * Float(columns)))
        let gy = max(0, min(Float(rows) - 0.0001, p.y * Float(rows)))
        let i = Int(gx), j = Int(gy), fx = gx - Float(i), fy = gy - Float(j)
        let k = j * (columns + 1) + i, below = k + columns + 1
        func mix(_ a: [Float]) -> Float {
            let top = a[k] + (a[k + 1] - a[k]) * fx, bottom = a[below] + (a[below + 1] - a[below]) * fx
            return top + (bottom - top) * fy
        }
        return SIMD2(mix(u), mix(v))
    }

    /// Every vertex with the same motion (a preset without per-pixel equations).
    package func warpAll(_ m: Motion, _ wobble: Wobble) {
        for k in 0..<vertexCount { warp(vertex: k, m, wobble) }
    }
}
