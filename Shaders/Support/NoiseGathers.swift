/// Table reads for the lane noise functions (``Noise/Sampler`` on `Lanes`). SSE2 and AVX have no
/// gather instruction, so each lane's value is a scalar load; the padded copy of the table after it
/// (rows of ``Noise/paddedRow``, see ``Noise/table``) lets one 64- or 128-bit load fetch two or three
/// horizontally adjacent lattice points, which is where most of the lane functions' time goes.

extension Noise.Sampler {
    /// The table's values at lattice points (i, j), per lane.
    @inline(__always) func lattice(_ i: LaneInts, _ j: LaneInts) -> Lanes {
        gather((j & 255) &<< 8 | (i & 255))
    }

    /// Eight table reads.
    @inline(__always) func gather(_ index: LaneInts) -> Lanes {
        Lanes(table[Int(index[0])], table[Int(index[1])], table[Int(index[2])], table[Int(index[3])],
              table[Int(index[4])], table[Int(index[5])], table[Int(index[6])], table[Int(index[7])])
    }

    /// The index in the padded rows of lattice point (column, row), per lane (both wrap at 256).
    @inline(__always) func paddedIndex(_ column: LaneInts, _ row: LaneInts) -> LaneInts {
        let r = row & 255
        return (r &<< 8) &+ (r &<< 2) &+ (column & 255)
    }

    /// The values at lattice points (column, row) and (column + 1, row) for eight ``paddedIndex(_:_:)``s.
    @inline(__always) func gatherPairs(_ index: LaneInts) -> (Lanes, Lanes) {
        let padded = UnsafeRawPointer(table + 65_536)
        var first = Lanes(), second = Lanes()
        for k in 0..<8 {
            let p = padded.loadUnaligned(fromByteOffset: Int(index[k]) &* 4, as: SIMD2<Float>.self)
            first[k] = p.x; second[k] = p.y
        }
        return (first, second)
    }

    /// The values at lattice points (column, row) … (column + 2, row) for eight ``paddedIndex(_:_:)``s.
    @inline(__always) func gatherTriples(_ index: LaneInts) -> (Lanes, Lanes, Lanes) {
        let padded = UnsafeRawPointer(table + 65_536)
        var first = Lanes(), second = Lanes(), third = Lanes()
        for k in 0..<8 {
            let p = padded.loadUnaligned(fromByteOffset: Int(index[k]) &* 4, as: SIMD4<Float>.self)
            first[k] = p.x; second[k] = p.y; third[k] = p.z
        }
        return (first, second, third)
    }

    /// The nine cells around (i, j) in the scalar cellular functions' order (dj, then di, from −1 to 1):
    /// `body(di, dj, lattice(i + di, j + dj), lattice(j + dj + 91, i + di + 37))`, the jitter values
    /// of the cell's feature point, read as six triples instead of eighteen single values.
    @inline(__always) func forEachCell(_ i: LaneInts, _ j: LaneInts, _ body: (Int32, Int32, Lanes, Lanes) -> Void) {
        // Rows j − 1, j, j + 1 of lattice(·, ·) hold di = −1…1; rows i + 36…38 of the swapped lookup hold dj = −1…1.
        let (x0, x1, x2) = gatherTriples(paddedIndex(i &- 1, j &- 1))
        let (x3, x4, x5) = gatherTriples(paddedIndex(i &- 1, j))
        let (x6, x7, x8) = gatherTriples(paddedIndex(i &- 1, j &+ 1))
        let (y0, y3, y6) = gatherTriples(paddedIndex(j &+ 90, i &+ 36))
        let (y1, y4, y7) = gatherTriples(paddedIndex(j &+ 90, i &+ 37))
        let (y2, y5, y8) = gatherTriples(paddedIndex(j &+ 90, i &+ 38))
        body(-1, -1, x0, y0); body(0, -1, x1, y1); body(1, -1, x2, y2)
        body(-1, 0, x3, y3); body(0, 0, x4, y4); body(1, 0, x5, y5)
        body(-1, 1, x6, y6); body(0, 1, x7, y7); body(1, 1, x8, y8)
    }
}
