import Foundation

/// Where a frame's loudness (smoothed by the level's attack and release) ranks among the frames of
/// the last minute and of the last few seconds: what makes the `level` feature use the whole 0…1
/// range on every kind of music.
///
/// A scale in decibels, even one that follows the loud parts (``LevelScale``), leaves a compressed
/// master within 2–4 dB of its reference: its level sat between 0.89 and 1.00 on a dense electronic
/// track. A rank does not care how far apart the frames are in decibels, only which are louder: over
/// any song, a tenth of the frames rank under 0.1 and a tenth over 0.9 (the ranking comes after the
/// smoothing, so the smoothing cannot squeeze the range again), and a kick lifts the frames after it
/// above the frames between kicks. Two histories: against the last minute a chorus ranks above the
/// verse it follows (the loud parts read louder), and against the last 6 s it soon ranks its own
/// beats too (a section that just got louder still pulses). Frames within 6 dB of the noise floor
/// (silence, a fade's tail) stay out of both, so a pause does not make what follows rank high.
struct LevelRank {
    private var minute: LoudnessHistory
    private var moment: LoudnessHistory
    private let exponent: Float
    /// The history's weight (about a frame count) at which the ranks have their full say: 2 s of frames.
    private let settled: Float

    init(configuration: AnalysisConfiguration, step: Double) {
        let floor = Float(configuration.noiseFloor) + 6
        minute = LoudnessHistory(floorDB: floor, horizon: 60, step: step)
        moment = LoudnessHistory(floorDB: floor, horizon: 6, step: step)
        exponent = Float(1.4 * configuration.dynamics)
        settled = Float(2 / step)
    }

    /// The level target 0…1 for a frame of `db` dBFS whose ``LevelScale`` reading is `near`: 0.45 its
    /// rank in the last minute and 0.3 its rank in the last 6 s, each raised to 1.4 × `dynamics` (0.7
    /// by default, so the median frame reads 0.62 and the range's top is not crowded), and 0.25 `near`
    /// (how close the frame is to the recent loud level: a steady loud sound reads higher than a
    /// steady quiet one). While the history holds less than 2 s of frames (the first seconds of a
    /// song, after silence), `near` has the larger say; near the noise floor, all of it.
    mutating func level(rmsDecibels db: Float, near: Float) -> Float {
        guard let long = minute.add(db), let short = moment.add(db) else { return near }
        let ranked = 0.45 * pow(long, exponent) + 0.3 * pow(short, exponent) + 0.25 * near
        let trust = min(1, minute.weight / settled)
        return trust * ranked + (1 - trust) * near
    }
}

/// Loudness of the recent frames, as a histogram in tenth-of-a-decibel bins whose weights fade with
/// a time constant (`horizon`): the frames of the last minute, or of the last seconds.
struct LoudnessHistory {
    private static let binWidth: Float = 0.1
    private let floorDB: Float
    private let fade: Float
    private var bins: [Float]
    /// The histogram's total weight: about one per frame seen, until the fading balances it.
    private(set) var weight: Float = 0

    init(floorDB: Float, horizon: Double, step: Double) {
        self.floorDB = floorDB
        fade = Float(exp(-step / horizon))
        // From the floor (−134…0 dBFS) to +6 dBFS (a clipped, over-full-scale mix).
        bins = [Float](repeating: 0, count: Int(((6 - floorDB) / Self.binWidth).rounded(.up)) + 1)
    }

    /// Adds a frame of `db` dBFS and returns its rank 0…1, or nil under the floor (not added). The rank
    /// is the share of the history quieter than the frame, read as the mean of the share under
    /// `db` − 0.1 and under `db` + 0.1 (one bin either side, linear within a bin): it moves smoothly
    /// as the loudness does, and a frame among equals (a steady tone) ranks 0.5.
    mutating func add(_ db: Float) -> Float? {
        guard db >= floorDB else { return nil }
        let bin = min(bins.count - 1, Int((db - floorDB) / Self.binWidth))
        bins.withUnsafeMutableBufferPointer { b in
            for i in b.indices { b[i] *= fade }
            b[bin] += 1
        }
        weight = weight * fade + 1
        let rank = (share(below: db - Self.binWidth) + share(below: db + Self.binWidth)) / (2 * weight)
        return FastMath.finite(min(1, rank))
    }

    /// The history's weight under `db` dBFS (a bin's weight spread evenly across it).
    private func share(below db: Float) -> Float {
        let x = (db - floorDB) / Self.binWidth
        guard x > 0 else { return 0 }
        let whole = min(bins.count, Int(x))
        var sum: Float = 0
        bins.withUnsafeBufferPointer { b in
            for i in 0..<whole { sum += b[i] }
            if whole < b.count { sum += b[whole] * (x - Float(whole)) }
        }
        return sum
    }
}
