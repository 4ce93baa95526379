/// Value noise and fbm on eight pixels at once (`SIMD8<Float>`): the same arithmetic as
/// ``Noise/Sampler``, operation for operation (no fused multiply-adds, the same rounding trick), so a
/// lane gives the very bits the scalar function gives for that pixel and golden images do not move.
///
/// Why by hand: a field that calls the scalar fbm per pixel does not vectorise (forty table reads per
/// pixel make the loop vectoriser's cost model give up), so it ran one pixel at a time. Written on
/// eight lanes, the arithmetic runs as two SSE (or one AVX) instruction per step and only the table
/// reads stay scalar. Magma at 1080p on one core: 8.4 → 4.0 ms (docs/BENCHMARKS.md).
typealias Lanes = SIMD8<Float>
typealias LaneInts = SIMD8<Int32>

extension Noise.Sampler {
    /// Value noise on eight points (see ``value(_:_:)``).
    @inline(__always) func value(_ x: Lanes, _ y: Lanes) -> Lanes {
        let i = floorToInt32(x), j = floorToInt32(y)
        let fx = x - lanesFloat(i), fy = y - lanesFloat(j)
        let u = fx * fx * (3 - 2 * fx), v = fy * fy * (3 - 2 * fy)
        // Lattice points (i, j), (i + 1, j) and (i, j + 1), (i + 1, j + 1): two adjacent pairs in the
        // table's padded rows, one 64-bit load each.
        let (a, b) = gatherPairs(paddedIndex(i, j)), (c, d) = gatherPairs(paddedIndex(i, j &+ 1))
        let top = a + (b - a) * u, bottom = c + (d - c) * u
        return top + (bottom - top) * v
    }

    /// Fractal sum of value noises on eight points (see ``fbm(_:_:octaves:)``).
    @inline(__always) func fbm(_ x: Lanes, _ y: Lanes, octaves: Int) -> Lanes {
        var px = x, py = y, amplitude: Float = 0.5, sum = Lanes(repeating: 0), norm: Float = 0
        for _ in 0..<octaves {
            sum += amplitude * value(px, py)
            norm += amplitude
            let nx = 1.6 * px - 1.2 * py, ny = 1.2 * px + 1.6 * py
            px = nx + 17.13; py = ny + 3.71
            amplitude *= 0.5
        }
        return sum / norm
    }

    /// Cellular noise on eight points (see ``voronoi(_:_:jitter:)``).
    @inline(__always) func voronoi(_ x: Lanes, _ y: Lanes, jitter: Float = 1) -> (f1: Lanes, f2: Lanes, id: Lanes) {
        let i = floorToInt32(x), j = floorToInt32(y)
        let fx = x - lanesFloat(i), fy = y - lanesFloat(j)
        var f1 = Lanes(repeating: 8), f2 = Lanes(repeating: 8), nearestI = i, nearestJ = j
        forEachCell(i, j) { di, dj, hx, hy in
            let px = (Float(di) + 0.5) + jitter * (hx - 0.5)
            let py = (Float(dj) + 0.5) + jitter * (hy - 0.5)
            let dx = px - fx, dy = py - fy
            let d = dx * dx + dy * dy
            let nearer = d .< f1
            f2 = f2.replacing(with: d, where: d .< f2).replacing(with: f1, where: nearer)
            nearestI = nearestI.replacing(with: i &+ di, where: nearer)
            nearestJ = nearestJ.replacing(with: j &+ dj, where: nearer)
            f1 = f1.replacing(with: d, where: nearer)
        }
        // The id of the nearest cell, read once (the scalar function reads it at every nearer cell and
        // keeps the last); 0 where no cell was nearer than 8 (f1 still 8: only for NaN coordinates).
        let id = lattice(nearestI &+ 53, nearestJ &+ 11).replacing(with: 0, where: .!(f1 .< 8))
        return (f1.squareRoot(), f2.squareRoot(), id)
    }
}

/// `Float(i)` per lane, for |i| < 2²² (the integers ``floorToInt32(_:)-(Lanes)`` gives: it holds
/// only there), with no conversion: 1.5·2²³ + i has i in its mantissa, and taking 1.5·2²³ away again
/// is exact. The standard library's SIMD conversion is a call per use here (not specialised; it showed
/// in `objdump` inside the noise fields), this is an add and a subtract.
@inline(__always) func lanesFloat(_ i: LaneInts) -> Lanes {
    unsafeBitCast(i &+ 0x4B40_0000, to: Lanes.self) - roundingMagic
}

/// ⌊x⌋ per lane as Int32, |x| < 2²² (see the scalar ``floorToInt32(_:)``).
@inline(__always) func floorToInt32(_ x: Lanes) -> LaneInts {
    let r = unsafeBitCast(x + roundingMagic, to: LaneInts.self) &- 0x4B40_0000
    return r.replacing(with: r &- 1, where: lanesFloat(r) .> x)
}

/// x0 + i·step for i = first…first+7: the coordinates `x0 + Float(i) * step` of eight pixels, bit for bit.
@inline(__always) func lanes(_ x0: Float, step: Float, first: Int) -> Lanes {
    Lanes(repeating: x0) + step * (Float(first) + Lanes(0, 1, 2, 3, 4, 5, 6, 7))
}

/// Runs `body` over `count` pixels in groups of eight: `body(first, lanes)` computes pixels
/// first…first+7 and `store` writes lane k of its result to pixel first + k, for the lanes inside
/// the row only (the last group is partial).
@inline(__always) func forEachLaneGroup(count: Int, _ body: (Int) -> Lanes, store: (Int, Float) -> Void) {
    var first = 0
    while first < count {
        let values = body(first)
        for k in 0..<min(8, count - first) { store(first + k, values[k]) }
        first += 8
    }
}
