import MarbleCore
@testable import MilkDrop
import Testing

@Suite("Texture reads 8 lanes at a time: bit for bit the scalar reference, in every mode, 2-D and 3-D")
struct TexelGridLanesTests {
    /// Grids of random texels: odd, power-of-two and one-texel axes, a padded row stride, volumes.
    static let shapes: [(width: Int, height: Int, depth: Int, rowStride: Int)] = [
        (4, 2, 1, 4), (7, 5, 1, 9), (256, 256, 1, 256), (1280, 720, 1, 1280), (1, 1, 1, 1), (3, 1, 1, 3),
        (2, 2, 2, 2), (32, 32, 32, 32), (5, 3, 7, 6), (1, 1, 4, 1),
    ]
    static let modes = [Modes.fw, Modes.fc, Modes.pw, Modes.pc]

    /// Coordinates for one axis of `size` texels, in groups of 8 that the vector code reads whole
    /// (centres, edges and their neighbouring floats, random values in −0.5 ..< 1.5) and groups it
    /// hands to the scalar code (NaN, infinities, huge and far-outside values mixed in); then a tail.
    static func coordinates(size: Int, seed: UInt64) -> [Float] {
        var g = SplitMix64(seed: seed)
        var exact: [Float] = [0, 1, 0.5, -0.5, Float(1.5).nextDown, Float(0).nextUp, Float(1).nextDown, Float(1).nextUp,
                              Float(-0.5).nextUp, Float(0).nextDown]
        for i in 0...min(size, 64) {
            let edge = Float(i) / Float(size), centre = (Float(i) + 0.5) / Float(size)
            exact += [edge, edge.nextUp, edge.nextDown, centre, centre.nextUp, centre.nextDown]
        }
        exact = exact.filter { $0 >= -0.5 && $0 < 1.5 }
        var out = exact
        while out.count % 8 != 0 { out.append(g.unit()) }
        for _ in 0..<160 { out.append(g.unit() * 2 - 0.5) }
        let special: [Float] = [.nan, .infinity, -.infinity, 1e30, -1e30, 1e6, -1e6, 3276, -3276, 4000, -7.25, 2, -1,
                                1.5, Float(-0.5).nextDown, Float.leastNonzeroMagnitude, -0.0]
        for k in 0..<96 {
            // Every other group holds a special value in some lane; the rest are random in −4 … 5.
            out.append(k % 16 == 3 ? special[(k / 16) % special.count] : g.unit() * 9 - 4)
        }
        // Groups of 8 near the far end of a power-of-two axis's wrap range (2²² / (size × 256)), both signs.
        let limit = Float(1 << 22) / Float(size * 256)
        for factor: Float in [0.5, 0.999, 1.001, 2.5] {
            for k in 0..<8 { out.append((k % 2 == 0 ? 1 : -1) * limit * factor * (1 - Float(k) / 1000)) }
        }
        out += special
        for _ in 0..<5 { out.append(g.unit() * 2 - 0.5) }   // a tail shorter than 8
        return out
    }

    /// The shuffled coordinates of a read, each axis with its own, all of the same length.
    static func lanes(_ sizes: [Int], seed: UInt64) -> [[Float]] {
        let axes = sizes.enumerated().map { coordinates(size: $0.element, seed: seed &+ UInt64($0.offset)) }
        let count = axes.map(\.count).min()!
        return axes.map { Array($0.prefix(count)) }
    }

    static func grid(_ shape: (width: Int, height: Int, depth: Int, rowStride: Int), _ texels: UnsafeMutablePointer<UInt32>) -> TexelGrid {
        TexelGrid(base: UnsafePointer(texels), width: shape.width, height: shape.height, depth: shape.depth,
                  rowStride: shape.rowStride, sliceStride: shape.rowStride * shape.height)
    }

    /// Reads `u`, `v` (and `w`) with both paths; the channel outputs must have the same bits.
    static func compare(_ grid: TexelGrid, _ mode: SamplerMode, _ u: [Float], _ v: [Float], _ w: [Float]?,
                        wanted: [Bool] = [true, true, true, true]) -> Bool {
        let count = u.count
        // The four channels one after the other in one array; −2 where nothing is written.
        func run(_ lanes: Bool) -> [Float] {
            var outs = [Float](repeating: -2, count: 4 * count)
            outs.withUnsafeMutableBufferPointer { o in
                let p = (0..<4).map { wanted[$0] ? o.baseAddress! + $0 * count : nil }
                (w ?? u).withUnsafeBufferPointer { wb in
                    let wp = w == nil ? nil : wb.baseAddress
                    if lanes {
                        grid.sample(mode: mode, count: count, u: u, v: v, w: wp, r: p[0], g: p[1], b: p[2], a: p[3])
                    } else {
                        grid.sampleScalar(mode: mode, count: count, u: u, v: v, w: wp, r: p[0], g: p[1], b: p[2], a: p[3])
                    }
                }
            }
            return outs
        }
        let fast = run(true), slow = run(false)
        return zip(fast, slow).allSatisfy { $0.bitPattern == $1.bitPattern }
    }

    @Test("every mode and shape, 2-D and 3-D, over centres, edges, random, negative, huge and NaN coordinates",
          arguments: 0..<shapes.count)
    func matchesScalar(shapeIndex: Int) {
        let shape = Self.shapes[shapeIndex]
        let total = shape.rowStride * shape.height * shape.depth
        let texels = UnsafeMutablePointer<UInt32>.allocate(capacity: total)
        defer { texels.deallocate() }
        var g = SplitMix64(seed: UInt64(shapeIndex) &+ 100)
        for i in 0..<total { texels[i] = UInt32(truncatingIfNeeded: g.next()) }
        let grid = Self.grid(shape, texels)
        #expect(grid.lanesFit)
        let axes = Self.lanes([shape.width, shape.height, shape.depth], seed: UInt64(shapeIndex) &* 7)
        for mode in Self.modes {
            #expect(Self.compare(grid, mode, axes[0], axes[1], nil), "2-D \(mode)")
            #expect(Self.compare(grid, mode, axes[0], axes[1], axes[2]), "3-D \(mode)")
        }
    }

    @Test("texels of all-ones and all-zeros bytes: the largest sums convert exactly")
    func extremes() {
        let texels = UnsafeMutablePointer<UInt32>.allocate(capacity: 4 * 4 * 4)
        defer { texels.deallocate() }
        for i in 0..<64 { texels[i] = i % 3 == 0 ? 0 : 0xFFFF_FFFF }
        let grid = Self.grid((4, 4, 4, 4), texels)
        let axes = Self.lanes([4, 4, 4], seed: 5)
        for mode in Self.modes {
            #expect(Self.compare(grid, mode, axes[0], axes[1], axes[2]))
            #expect(Self.compare(grid, mode, axes[0], axes[1], nil))
        }
        // Between two full texels the value is exactly 1.
        let lane: [Float] = [Float](repeating: 0.5, count: 8)
        var r = [Float](repeating: 0, count: 8)
        for i in 0..<64 { texels[i] = 0xFFFF_FFFF }
        grid.sample(mode: Modes.fc, count: 8, u: lane, v: lane, w: lane, r: &r, g: nil, b: nil, a: nil)
        #expect(r.allSatisfy { $0 == 1 })
    }

    @Test("only the wanted channels are written, in every combination")
    func wantedChannels() {
        let shape = (width: 7, height: 5, depth: 3, rowStride: 7)
        let texels = UnsafeMutablePointer<UInt32>.allocate(capacity: 7 * 5 * 3)
        defer { texels.deallocate() }
        var g = SplitMix64(seed: 3)
        for i in 0..<(7 * 5 * 3) { texels[i] = UInt32(truncatingIfNeeded: g.next()) }
        let grid = Self.grid(shape, texels)
        let axes = Self.lanes([7, 5, 3], seed: 11)
        for bits in 0..<16 {
            let wanted = (0..<4).map { bits & (1 << $0) != 0 }
            for mode in Self.modes {
                #expect(Self.compare(grid, mode, axes[0], axes[1], axes[2], wanted: wanted))
                #expect(Self.compare(grid, mode, axes[0], axes[1], nil, wanted: wanted))
            }
        }
    }

    @Test("the vector code takes only grids whose offsets fit 32 bits and axes at most 8192 texels")
    func lanesFit() {
        let base = UnsafePointer<UInt32>(bitPattern: 64)!
        #expect(TexelGrid(base: base, width: 8192, height: 8192, depth: 1, rowStride: 8192, sliceStride: 0).lanesFit)
        #expect(!TexelGrid(base: base, width: 8193, height: 1, depth: 1, rowStride: 8193, sliceStride: 0).lanesFit)
        #expect(!TexelGrid(base: base, width: 8192, height: 8192, depth: 64, rowStride: 8192, sliceStride: 8192 * 8192).lanesFit)
        #expect(TexelGrid(base: base, width: 256, height: 256, depth: 32, rowStride: 256, sliceStride: 65536).lanesFit)
    }
}
