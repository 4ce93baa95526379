/// Finds the first beat of each bar from accents: the uncompressed band-group flux at each beat
/// (a louder kick or an accented click on "one"). Tries 4/4 and 3/4 and every phase; keeps the
/// phase whose beats are clearly louder than the others (by 25 % on average, and the loudest beat of
/// at least 60 % of the bars), preferring 4/4 unless 3/4 is clearly better. Returns nothing when no
/// bar accent stands out (steady grooves and plain click tracks have none).
struct DownbeatDetector {
    struct Bar: Equatable {
        /// Index into the beats of a downbeat.
        var index: Int
        var beatsPerBar: Int
    }

    var minimumContrast = 1.25
    var minimumAgreement = 0.6

    /// The accent of a beat at fractional hop `beat`: the group flux summed over ±2 hops (a
    /// transient's flux may be split between two hops depending on where it falls, so a sum is steadier
    /// than a maximum). `groups` holds ``OnsetDetector/groupCount`` values per hop, interleaved, for
    /// hops `first ..< first + hops`; `total` is the song's hop count so far.
    static func accent(at beat: Double, groups: UnsafeBufferPointer<Float>, first: Int, total: Int) -> Double {
        let gc = OnsetDetector.groupCount
        let j = Int(beat.rounded())
        let lo = max(first, max(0, j - 2)), hi = min(first + groups.count / gc - 1, min(total - 1, max(0, j + 2)))
        var s = 0.0
        if lo <= hi {
            for k in lo...hi {
                for g in 0..<gc { s += Double(groups[(k - first) * gc + g]) }
            }
        }
        return s
    }

    /// Bars from the accents of the beats, in order (see ``accent(at:groups:first:total:)``).
    func detect(accents: [Double]) -> [Bar] {
        guard accents.count >= 8 else { return [] }
        func contrast(_ meter: Int) -> (Double, Int) {
            var sums = [Double](repeating: 0, count: meter), counts = [Double](repeating: 0, count: meter)
            for (i, a) in accents.enumerated() { sums[i % meter] += a; counts[i % meter] += 1 }
            let means = (0..<meter).map { counts[$0] > 0 ? sums[$0] / counts[$0] : 0 }
            guard let phase = means.indices.max(by: { means[$0] < means[$1] }) else { return (0, 0) }
            let others = means.enumerated().filter { $0.offset != phase }.map(\.element)
            let rest = others.reduce(0, +) / Double(others.count)
            return (rest > 0 ? means[phase] / rest : 0, phase)
        }
        let (c4, p4) = contrast(4), (c3, p3) = contrast(3)
        let (c, phase, meter) = c3 > 1.1 * c4 ? (c3, p3, 3) : (c4, p4, 4)
        guard c >= minimumContrast else { return [] }
        // In how many full bars (starting at a candidate downbeat) is the downbeat the loudest beat?
        var bars = 0, wins = 0
        var start = phase
        while start + meter <= accents.count {
            if accents[start] >= (accents[start..<(start + meter)].max() ?? 0) { wins += 1 }
            bars += 1
            start += meter
        }
        guard bars > 0, Double(wins) / Double(bars) >= minimumAgreement else { return [] }
        return stride(from: phase, to: accents.count, by: meter).map { Bar(index: $0, beatsPerBar: meter) }
    }
}
