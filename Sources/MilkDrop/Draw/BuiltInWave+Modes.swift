#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BuiltInWave {
    /// Fills `raw` (and `raw2` for mode 7) with the clip-space points of `mode`, from the filtered
    /// samples `left`/`right` (576 each, oldest first). cx, cy = 2·wave_x − 1, 2·wave_y − 1; ax, ay =
    /// the aspect multipliers; m = wave_mystery, wrapped into −1…1 for modes 0, 1 and 4 when outside.
    ///  0 circle: 240 points, radius 0.5 + 0.4·R + m around (cx, cy), turning with time·0.2; the first
    ///    tenth cross-fades with the samples one circle later so the loop closes without a jump.
    ///  1 x-y spiral: 240 points, radius 0.53 + 0.43·R, angle 1.57·L(+32) + time·2.3.
    ///  2, 3 centred spiro: 480 points (R, L(+32)) around (cx, cy).
    ///  4 derivative line: 426 points (MilkDrop's 480 cut to a third of its texture's width, here the
    ///    reference 1280 at every size) across the width, x nudged by R, y by L, with momentum
    ///    w1 = 0.45 + 0.25·(m + 1).
    ///  5 explosive hash: 480 points from products of L and R, rotating with time·0.3.
    ///  6 line: 240 points along a line at angle 1.57·m through the clip box,
    ///    offset sideways by cx, displaced by 0.25·L; 7: two such lines from L and R, apart by wave_y².
    func points(mode: Int, _ s: Settings, _ space: MilkDrawSpace) {
        raw.removeAll(keepingCapacity: true)
        raw2.removeAll(keepingCapacity: true)
        let cx = 2 * finite(s.x, 0.5) - 1, cy = 2 * finite(s.y, 0.5) - 1
        let ax = space.aspectX, ay = space.aspectY
        let time = finite(s.time, 0)
        var m = finite(s.mystery, 0)
        if (mode == 0 || mode == 1 || mode == 4) && (m < -1 || m > 1) {
            m = m * 0.5 + 0.5
            m -= m.rounded(.down)
            m = abs(m) * 2 - 1
        }
        switch mode {
        case 0: circle(cx: cx, cy: cy, ax: ax, ay: ay, m: m, time: time)
        case 1:
            for i in 0..<240 {
                let radius = 0.53 + 0.43 * right[i] + m
                let angle = left[i + 32] * 1.57 + time * 2.3
                raw.append(SIMD2(radius * cos(angle) * ay + cx, radius * sin(angle) * ax + cy))
            }
        case 2, 3:
            for i in 0..<480 { raw.append(SIMD2(right[i] * ay + cx, left[i + 32] * ax + cy)) }
        case 4: derivativeLine(cx: cx, cy: cy, m: m)
        case 5:
            let c = cos(time * 0.3), sn = sin(time * 0.3)
            for i in 0..<480 {
                let x0 = right[i] * left[i + 32] + left[i] * right[i + 32]
                let y0 = right[i] * right[i] - left[i + 32] * left[i + 32]
                raw.append(SIMD2((x0 * c - y0 * sn) * ay + cx, (x0 * sn + y0 * c) * ax + cy))
            }
        default: lines(mode: mode, cx: cx, cy: cy, m: m)   // 6, 7
        }
    }

    /// Mode 0's circle (see `points`).
    private func circle(cx: Float, cy: Float, ax: Float, ay: Float, m: Float, time: Float) {
        let n = 240, offset = 120
        for i in 0..<n {
            var radius = 0.5 + 0.4 * right[i + offset] + m
            let angle = Float(i) / Float(n) * 6.28 + time * 0.2
            if i < n / 10 {
                var mix = Float(i) / (Float(n) * 0.1)
                mix = 0.5 - 0.5 * cos(mix * 3.1416)
                let radius2 = 0.5 + 0.4 * right[i + n + offset] + m
                radius = radius2 * (1 - mix) + radius * mix
            }
            raw.append(SIMD2(radius * cos(angle) * ay + cx, radius * sin(angle) * ax + cy))
        }
    }

    /// Mode 4's derivative line (see `points`).
    private func derivativeLine(cx: Float, cy: Float, m: Float) {
        let n = min(480, MilkDrawList.referenceWidth / 3), offset = (480 - n) / 2
        let w1 = 0.45 + 0.5 * (m * 0.5 + 0.5), w2 = 1 - w1
        for i in 0..<n {
            var p = SIMD2(-1 + 2 * Float(i) / Float(n) + cx + right[i + 25 + offset] * 0.44,
                          left[i + offset] * 0.47 + cy)
            if i > 1 { p = p * w2 + (raw[i - 1] * 2 - raw[i - 2]) * w1 }
            raw.append(p)
        }
    }

    /// Modes 6 and 7: one line, or two (into `raw2` too) for mode 7 (see `points`).
    private func lines(mode: Int, cx: Float, cy: Float, m: Float) {
        let n = min(240, MilkDrawList.referenceWidth / 3), offset = (480 - n) / 2
        let line = Self.clippedLine(angle: 1.57 * m, offset: cx, samples: n)
        let separation = mode == 7 ? pow(cy * 0.5 + 0.5, 2) : 0
        for i in 0..<n {
            let along = line.start + line.step * Float(i)
            raw.append(along + line.normal * (0.25 * left[i + offset] + separation))
            if mode == 7 { raw2.append(along + line.normal * (0.25 * right[i + offset] - separation)) }
        }
    }

    private func finite(_ v: Float, _ fallback: Float) -> Float { v.isFinite ? v : fallback }

    /// The line of modes 6–8: direction `angle`, shifted sideways by `offset`, cut to the clip box grown
    /// to ±1.1, split in `samples` steps; `normal` is the direction turned by 1.57.
    static func clippedLine(angle: Float, offset: Float, samples: Int)
        -> (start: SIMD2<Float>, step: SIMD2<Float>, normal: SIMD2<Float>) {
        let d = SIMD2(cos(angle), sin(angle))
        let base = SIMD2(offset * cos(angle + 1.57), offset * sin(angle + 1.57))
        var a = base - d * 3, b = base + d * 3
        for end in 0..<2 {
            for side in 0..<4 {
                let p = end == 0 ? a : b, q = end == 0 ? b : a
                let limit: Float = side % 2 == 0 ? 1.1 : -1.1
                let value = side < 2 ? p.x : p.y, other = side < 2 ? q.x : q.y
                let outside = side % 2 == 0 ? value > limit : value < limit
                guard outside, value != other else { continue }
                let t = (limit - other) / (value - other)
                let clipped = q + (p - q) * t
                if end == 0 { a = clipped } else { b = clipped }
            }
        }
        let step = (b - a) / Float(samples)
        let turned = atan2(step.y, step.x) + 1.57
        return (a, step, SIMD2(cos(turned), sin(turned)))
    }
}
