/// ``FastMath``'s functions on eight lanes (`Lanes`), operation for operation the scalar ones, so each
/// lane's result has the scalar function's bits (see ``Noise/Sampler/value(_:_:)-(Lanes,Lanes)``).

/// Clamps each lane to 0…1; NaN becomes 0 (as the scalar ``clamp01(_:)``).
@inline(__always) func clamp01(_ x: Lanes) -> Lanes {
    let m = x.replacing(with: 1, where: x .> 1)
    return m.replacing(with: 0, where: .!(m .>= 0))
}

/// The larger of each pair, `b` when both are equal (as Swift's `max(a, b)`).
@inline(__always) func lanesMax(_ a: Lanes, _ b: Lanes) -> Lanes { a.replacing(with: b, where: b .>= a) }

/// Round to nearest per lane, |x| < 2²².
@inline(__always) func roundNearest(_ x: Lanes) -> Lanes { (x + roundingMagic) - roundingMagic }

/// ``fastSin(_:)`` per lane.
@inline(__always) func fastSin(_ x: Lanes) -> Lanes {
    let turns = x * 0.159_154_94
    let q = (turns - roundNearest(turns)) * 6.283_185_3
    let halfPi: Float = 1.570_796_3
    var r = q.replacing(with: Float.pi - q, where: q .> halfPi)
    r = r.replacing(with: -Float.pi - q, where: q .< -halfPi)
    let r2 = r * r
    // The scalar polynomial, spelled out (one expression takes the type checker too long).
    let k3: Float = -1.0 / 6, k5: Float = 1.0 / 120, k7: Float = -1.0 / 5040, k9: Float = 1.0 / 362_880
    let p7: Lanes = k7 + r2 * k9
    let p5: Lanes = k5 + r2 * p7
    let p3: Lanes = k3 + r2 * p5
    let p: Lanes = 1 + r2 * p3
    return r * p
}

/// ``fastCos(_:)`` per lane.
@inline(__always) func fastCos(_ x: Lanes) -> Lanes { fastSin(x + 1.570_796_3) }

/// ``fastAtan2(_:_:)`` per lane.
@inline(__always) func fastAtan2(_ y: Lanes, _ x: Lanes) -> Lanes {
    let ax = x.replacing(with: -x, where: x .< 0)
    let ay = y.replacing(with: -y, where: y .< 0)
    let wide = ax .> ay
    let big = ay.replacing(with: ax, where: wide)
    let small = ax.replacing(with: ay, where: wide)
    let a = (small / big).replacing(with: 0, where: .!(big .> 0))
    let s = a * a
    let k1: Float = -0.046_496_474, k2: Float = 0.159_314_22, k3: Float = 0.327_622_764
    let inner: Lanes = (k1 * s + k2) * s - k3
    var r: Lanes = inner * s * a + a
    r = r.replacing(with: 1.570_796_3 - r, where: ay .> ax)
    r = r.replacing(with: Float.pi - r, where: x .< 0)
    return r.replacing(with: -r, where: y .< 0)
}

/// ``smoothstep(_:_:_:)`` per lane, edges shared.
@inline(__always) func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Lanes) -> Lanes {
    let t = clamp01((x - edge0) / (edge1 - edge0))
    return t * t * (3 - 2 * t)
}

/// Round to nearest as Int32 per lane, |x| < 2²² (as the scalar ``roundToInt32(_:)``).
@inline(__always) func roundToInt32(_ x: Lanes) -> LaneInts {
    unsafeBitCast(x + roundingMagic, to: LaneInts.self) &- 0x4B40_0000
}

/// The lane indices 0…7 as floats, plus `first`: pixel x coordinates `Float(first + k)`, exactly.
@inline(__always) func laneColumns(_ first: Int) -> Lanes { Float(first) + Lanes(0, 1, 2, 3, 4, 5, 6, 7) }

/// Writes eight table entries to `destination`: `table[index[k]]` for k = 0…7.
@inline(__always) func storeLookups(_ table: UnsafeMutablePointer<UInt32>, _ index: LaneInts,
                                    to destination: UnsafeMutablePointer<UInt32>) {
    for k in 0..<8 { destination[k] = table[Int(index[k])] }
}

/// Eight floats from `pointer` (any alignment).
@inline(__always) func loadLanes(_ pointer: UnsafeMutablePointer<Float>) -> Lanes {
    UnsafeRawPointer(pointer).loadUnaligned(as: Lanes.self)
}

/// Eight floats to `pointer` (any alignment).
@inline(__always) func storeLanes(_ value: Lanes, _ pointer: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: Lanes.self)
}

/// `row[index[k]]` for k = 0…7 (scalar loads: SSE2 and AVX have no gather).
@inline(__always) func gather(_ row: UnsafeMutablePointer<Float>, _ index: LaneInts) -> Lanes {
    Lanes(row[Int(index[0])], row[Int(index[1])], row[Int(index[2])], row[Int(index[3])],
          row[Int(index[4])], row[Int(index[5])], row[Int(index[6])], row[Int(index[7])])
}

/// ``floorFast(_:)`` per lane, |x| < 2²².
@inline(__always) func floorFast(_ x: Lanes) -> Lanes {
    let r = roundNearest(x)
    return r.replacing(with: r - 1, where: r .> x)
}

/// ``fract(_:)`` per lane.
@inline(__always) func fract(_ x: Lanes) -> Lanes { x - floorFast(x) }

/// ``mix(_:_:_:)`` per lane.
@inline(__always) func mix(_ a: Lanes, _ b: Lanes, _ t: Lanes) -> Lanes { a + (b - a) * t }

/// ``fastExp2(_:)`` per lane (the clamp is Swift's `max(-126, min(x, 126))`, select for select).
@inline(__always) func fastExp2(_ x: Lanes) -> Lanes {
    let m = x.replacing(with: 126, where: 126 .< x)
    let c = m.replacing(with: -126, where: .!(m .>= -126))
    let i = floorToInt32(c)
    let f = c - lanesFloat(i)
    let k1: Float = 0.695_556_856, k2: Float = 0.226_173_572, k3: Float = 0.078_145_573
    let p2: Lanes = k2 + f * k3
    let p1: Lanes = k1 + f * p2
    let p: Lanes = 1 + f * p1
    return unsafeBitCast(unsafeBitCast(p, to: LaneInts.self) &+ (i &<< 23), to: Lanes.self)
}

/// ``fastExp(_:)`` per lane.
@inline(__always) func fastExp(_ x: Lanes) -> Lanes { fastExp2(x * 1.442_695) }
