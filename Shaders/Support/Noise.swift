/// Value noise, fbm and cellular (Voronoi) noise for the generative backgrounds.
///
/// Value noise reads a 256×256 table of random values (filled once from an integer hash) instead of
/// hashing per lattice point: SSE2 has no 32-bit multiply, so table loads are cheaper than a hash.
/// The lattice repeats every 256 units, far beyond any visible area at the scales used here.

enum Noise {
    static let size = 256
    /// Random values in 0…1, row-major 256×256, allocated once and never freed (read-only after init).
    /// Right after it in the same allocation, the same values in rows of ``paddedRow`` (columns 0…3
    /// repeated as columns 256…259), so that lattice points (i, j) … (i + 3, j) are adjacent for the
    /// lane functions' wide loads (see ``Sampler/gatherPairs(_:)``).
    nonisolated(unsafe) static let table: UnsafeMutablePointer<Float> = {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: size * size + size * paddedRow)
        for i in 0..<(size * size) { p[i] = Float(hash(UInt32(i)) >> 8) * (1.0 / 16_777_216) }
        for row in 0..<size {
            for column in 0..<paddedRow { p[size * size + row * paddedRow + column] = p[row * size + column % size] }
        }
        return p
    }()
    static let paddedRow = 260

    /// A good 32-bit integer hash (lowbias32, Chris Wellons).
    @inline(__always) static func hash(_ v: UInt32) -> UInt32 {
        var x = v
        x ^= x >> 16; x = x &* 0x7FEB_352D
        x ^= x >> 15; x = x &* 0x846C_A68B
        x ^= x >> 16
        return x
    }

    /// Random value 0…1 of lattice point (i, j).
    @inline(__always) static func lattice(_ i: Int32, _ j: Int32) -> Float { Sampler().lattice(i, j) }
    /// Smooth value noise in 0…1 (see ``Sampler/value(_:_:)``).
    @inline(__always) static func value(_ x: Float, _ y: Float) -> Float { Sampler().value(x, y) }
    /// Fractal value noise (see ``Sampler/fbm(_:_:octaves:)``).
    @inline(__always) static func fbm(_ x: Float, _ y: Float, octaves: Int) -> Float { Sampler().fbm(x, y, octaves: octaves) }
    /// Cellular noise (see ``Sampler/voronoi(_:_:jitter:)``).
    @inline(__always) static func voronoi(_ x: Float, _ y: Float, jitter: Float = 1) -> (f1: Float, f2: Float, id: Float) {
        Sampler().voronoi(x, y, jitter: jitter)
    }

    /// The noise functions with the table's address in hand. Reading `Noise.table` goes through the
    /// lazy global's once-check, a call the optimiser cannot hoist out of a pixel loop and which keeps
    /// the loop from vectorising: per-pixel loops make one `Sampler` before the loop and call it.
    struct Sampler {
        let table: UnsafeMutablePointer<Float>
        @inline(__always) init() { table = Noise.table }

    /// Random value 0…1 of lattice point (i, j).
    @inline(__always) func lattice(_ i: Int32, _ j: Int32) -> Float {
        table[Int((j & 255) << 8 | (i & 255))]
    }

    /// Smooth value noise in 0…1.
    @inline(__always) func value(_ x: Float, _ y: Float) -> Float {
        let i = floorToInt32(x), j = floorToInt32(y)
        let fx = x - Float(i), fy = y - Float(j)
        let u = fx * fx * (3 - 2 * fx), v = fy * fy * (3 - 2 * fy)
        let a = lattice(i, j), b = lattice(i &+ 1, j), c = lattice(i, j &+ 1), d = lattice(i &+ 1, j &+ 1)
        return mix(mix(a, b, u), mix(c, d, u), v)
    }

    /// Fractal sum of `octaves` value noises (lacunarity 2, gain 0.5, a rotation between octaves to hide
    /// the lattice), normalised to 0…1.
    @inline(__always) func fbm(_ x: Float, _ y: Float, octaves: Int) -> Float {
        var px = x, py = y, amplitude: Float = 0.5, sum: Float = 0, norm: Float = 0
        for _ in 0..<octaves {
            sum += amplitude * value(px, py)
            norm += amplitude
            // Rotate by ~37° and scale by 2.
            let nx = 1.6 * px - 1.2 * py, ny = 1.2 * px + 1.6 * py
            px = nx + 17.13; py = ny + 3.71
            amplitude *= 0.5
        }
        return sum / norm
    }

    /// Cellular noise: distance to the nearest and second-nearest feature point (one per unit cell,
    /// jittered by `jitter` 0…1), and a 0…1 id of the nearest cell.
    @inline(__always) func voronoi(_ x: Float, _ y: Float, jitter: Float = 1) -> (f1: Float, f2: Float, id: Float) {
        let i = floorToInt32(x), j = floorToInt32(y)
        let fx = x - Float(i), fy = y - Float(j)
        var f1: Float = 8, f2: Float = 8, id: Float = 0
        for dj: Int32 in -1...1 {
            for di: Int32 in -1...1 {
                let ci = i &+ di, cj = j &+ dj
                let px = Float(di) + 0.5 + jitter * (lattice(ci, cj) - 0.5)
                let py = Float(dj) + 0.5 + jitter * (lattice(cj &+ 91, ci &+ 37) - 0.5)
                let dx = px - fx, dy = py - fy
                let d = dx * dx + dy * dy
                let nearer = d < f1
                f2 = nearer ? f1 : (d < f2 ? d : f2)
                id = nearer ? lattice(ci &+ 53, cj &+ 11) : id
                f1 = nearer ? d : f1
            }
        }
        return (f1.squareRoot(), f2.squareRoot(), id)
    }
    }
}
