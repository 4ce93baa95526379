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
        for row in j0...j1 {
            // The polygon's span on four sub-scanlines.
            var anyRow = false
            for k in 0..<Self.fanSubrows {
                let y = Float(row) + (Float(k) + 0.5) / Float(Self.fanSubrows)
                var l = -Float.infinity, r = Float.infinity
                for e in eq {
                    let rest = e.y * y + e.z
                    if e.x > 1e-7 { l = max(l, -rest / e.x) } else if e.x < -1e-7 { r = min(r, -rest / e.x) } else if rest < 0 { r = -.infinity }
                }
                if l < r { anyRow = true } else { l = 0; r = 0 }
                left[k] = l; right[k] = r
            }
            guard anyRow else { continue }
            let valid = left .< right
            let minL = left.replacing(with: .infinity, where: .!valid).min()
            let maxR = right.replacing(with: -.infinity, where: .!valid).max()
            let maxL = left.replacing(with: .infinity, where: .!valid).max()
            let minR = right.replacing(with: -.infinity, where: .!valid).min()
            let allValid = all(valid)
            let i0 = Self.floorIndex(minL, 0, w), i1 = Self.floorIndex(maxR, -1, w - 1)
            guard i0 <= i1 else { continue }
            // Columns whose pixel lies inside every sub-span: full coverage.
            let full0 = allValid ? maxL.rounded(.up) : .infinity, full1 = allValid ? minR.rounded(.down) : -.infinity
            let line = target.row(row)
            let py = Float(row) + 0.5
            for col in i0...i1 {
                let x = Float(col)
                var coverage: Float = 1
                if !(x >= full0 && x + 1 <= full1) {
                    let lo4 = left.replacing(with: x, where: left .< x)
                    let hi4 = right.replacing(with: x + 1, where: right .> x + 1)
                    coverage = (hi4 - lo4).replacing(with: 0, where: hi4 .< lo4 .| .!valid).sum() / Float(Self.fanSubrows)
                    if coverage <= 0 { continue }
                }
                let px = x + 0.5
                var color = center
                if !uniform {
                    var s: Float = 1
                    if !flat { s = gauge(eq, &active, px, py) }
                    color = center + (edge - center) * min(max(s, 0), 1)
                }
                if let source {
                    let u = map.ux * px + map.uy * py + map.u0, v = map.vx * px + map.vy * py + map.v0
                    let texel = Self.sample(source, u, v)
                    color = SIMD4(texel.x * color.x, texel.y * color.y, texel.z * color.z, color.w * 255) / 255
                }
                Self.put(line + col &* 4, color, color.w * coverage, additive)
            }
        }
    }

    /// The polygon's gauge at (x, y), walking `active` to the edge that maximises it.
    @inline(__always)
    func gauge(_ eq: UnsafeBufferPointer<SIMD4<Float>>, _ active: inout Int, _ x: Float, _ y: Float) -> Float {
        let n = eq.count
        if active >= n { active = 0 }
        @inline(__always) func g(_ i: Int) -> Float {
            let e = eq[i]
            return 1 - (e.x * x + e.y * y + e.z) / e.w
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

    /// Bilinear sample of `t` at (u, v) in 0…1 (u right, v down), wrapping: channels 0…255.
    @inline(__always)
    static func sample(_ t: TextureView, _ u: Float, _ v: Float) -> SIMD4<Float> {
        let uu = u.isFinite ? u - u.rounded(.down) : 0, vv = v.isFinite ? v - v.rounded(.down) : 0
        let fx = uu * Float(t.width) - 0.5, fy = vv * Float(t.height) - 0.5
        let x0f = fx.rounded(.down), y0f = fy.rounded(.down)
        let ax = fx - x0f, ay = fy - y0f
        var x0 = Int(x0f), y0 = Int(y0f)
        if x0 < 0 { x0 += t.width } else if x0 >= t.width { x0 -= t.width }
        if y0 < 0 { y0 += t.height } else if y0 >= t.height { y0 -= t.height }
        let x1 = x0 + 1 == t.width ? 0 : x0 + 1, y1 = y0 + 1 == t.height ? 0 : y0 + 1
        let r0 = t.row(y0), r1 = t.row(y1)
        @inline(__always) func texel(_ r: UnsafeMutablePointer<UInt8>, _ x: Int) -> SIMD4<Float> {
            let p = r + x &* 4
            return SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), 0)
        }
        let top = texel(r0, x0) + (texel(r0, x1) - texel(r0, x0)) * ax
        let bottom = texel(r1, x0) + (texel(r1, x1) - texel(r1, x0)) * ax
        return top + (bottom - top) * ay
    }
}
