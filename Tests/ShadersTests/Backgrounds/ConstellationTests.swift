import MarbleCore
import Testing
@testable import Shaders

/// Constellation's lines join stars: every line starts and ends on a star (issue 12, defect 7).
@Suite struct ConstellationTests {
    /// Brute force over a 5×5 block of cells: the distance to the nearest linked segment.
    static func nearestLine(_ x: Float, _ y: Float, links: Float) -> Float {
        let i = Int32(x.rounded(.down)), j = Int32(y.rounded(.down))
        func star(_ ci: Int32, _ cj: Int32) -> (Float, Float) {
            (Float(ci) + 0.5 + 0.8 * (Noise.lattice(ci, cj) - 0.5), Float(cj) + 0.5 + 0.8 * (Noise.lattice(cj &+ 91, ci &+ 37) - 0.5))
        }
        func distance(_ a: (Float, Float), _ b: (Float, Float)) -> Float {
            let sx = b.0 - a.0, sy = b.1 - a.1
            let h = min(1, max(0, ((x - a.0) * sx + (y - a.1) * sy) / max(sx * sx + sy * sy, 1e-6)))
            let ex = x - a.0 - sx * h, ey = y - a.1 - sy * h
            return (ex * ex + ey * ey).squareRoot()
        }
        var best: Float = 8
        for cj in (j - 2)...(j + 2) {
            for ci in (i - 2)...(i + 2) {
                if Noise.lattice(ci &+ 17, cj &+ 5) < links { best = min(best, distance(star(ci, cj), star(ci + 1, cj))) }
                if Noise.lattice(ci &+ 29, cj &+ 43) < links { best = min(best, distance(star(ci, cj), star(ci, cj + 1))) }
            }
        }
        return best
    }

    @Test("a pixel's four candidate lines hold every linked segment that passes near it")
    func fourLinesSuffice() {
        let noise = Noise.Sampler()
        var worst: Float = 0
        for k in 0..<4000 {
            let x = 40 + Float(k % 80) * 0.0731 + Float(k / 80) * 0.013, y = 40 + Float(k / 80) * 0.0977
            var xs = Lanes(repeating: x), ys = Lanes(repeating: y)
            xs[1] += 0.31; ys[2] += 0.57
            let (_, lanes) = Constellation.sky(xs, ys, links: 0.5, noise)
            for lane in [0, 1, 2] {
                let reference = Self.nearestLine(xs[lane], ys[lane], links: 0.5)
                // Only lines within reach of drawing matter (a line is at most 0.1 cell wide).
                if reference < 0.1 { worst = max(worst, abs(lanes[lane] - reference)) }
            }
        }
        #expect(worst < 1e-4)
    }

    /// Pixels at least `line` bright form connected sets; every set holding a piece of line (pixels
    /// away from star cores) must hold two star cores or run off the frame: no line ends in the sky.
    @Test("every drawn line ends on stars at both ends (192x108, pixels)")
    func linesEndOnStars() throws {
        let width = 192, height = 108
        for seconds in [1.0, 4.0, 9.0] {
            let bytes = try Look.frame("constellation", ["stars": .number(3), "react": .number(0)], seconds: seconds,
                                       features: Look.features(frame: 30, beat: 0), width: width, height: height)
            let lum = (0..<(width * height)).map { Look.luminance(bytes, $0) }
            let cores = (0..<lum.count).filter { lum[$0] >= 200 }
            #expect(!cores.isEmpty)
            var label = [Int](repeating: -1, count: lum.count)
            var orphans = 0, segments = 0
            for start in 0..<lum.count where lum[start] >= 20 && label[start] < 0 {
                var stack = [start], members: [Int] = []
                label[start] = start
                while let p = stack.popLast() {
                    members.append(p)
                    let x = p % width, y = p / width
                    for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1)] {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                        let q = ny * width + nx
                        if lum[q] >= 20 && label[q] < 0 { label[q] = start; stack.append(q) }
                    }
                }
                let coreSet = members.filter { lum[$0] >= 200 }
                // Line pixels: lit pixels more than five pixels from every core of the set.
                let hasLine = members.contains { p in
                    !coreSet.contains { c in abs(c % width - p % width) <= 5 && abs(c / width - p / width) <= 5 }
                }
                let touchesEdge = members.contains { p in p % width == 0 || p % width == width - 1 || p / width == 0 || p / width == height - 1 }
                guard hasLine else { continue }
                segments += 1
                // Cores are blobs of a few pixels: two stars give two separate blobs.
                let blobs = Self.blobs(coreSet, width: width)
                if blobs < 2 && !touchesEdge { orphans += 1 }
            }
            #expect(segments > 0, "no lines drawn at \(seconds) s")
            #expect(orphans == 0, "\(orphans) of \(segments) lines end in the sky at \(seconds) s")
        }
    }

    /// Number of 8-connected blobs among `pixels`.
    static func blobs(_ pixels: [Int], width: Int) -> Int {
        var left = Set(pixels), count = 0
        while let seed = left.first {
            count += 1
            var stack = [seed]
            left.remove(seed)
            while let p = stack.popLast() {
                for dy in -1...1 {
                    for dx in -1...1 {
                        let q = p + dy * width + dx
                        if left.remove(q) != nil { stack.append(q) }
                    }
                }
            }
        }
        return count
    }
}
