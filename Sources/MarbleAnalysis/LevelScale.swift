import Foundation

/// How loud a frame is against the recent loud parts of the same sound, on the band curve
/// (``AnalysisConfiguration/dynamics``): a quarter of the `level` feature, the rest being the frame's
/// rank among the last minute's (``LevelRank``), and all of it in the first seconds.
///
/// The reference follows the smoothed frame loudness up within about 0.3 s and comes down 1 dB per second in
/// quieter passages (never closer than 24 dB to the noise floor), so a mastered song's loud parts
/// read about 1, a breakdown 10 dB down starts around 0.56 (dynamics 0.5) and rises as it goes on,
/// the dips between kicks are visible and a quiet recording reaches the same range after a few
/// seconds: CAVA's autosens, applied to the overall level. A fixed dB scale over 70 dB (the former
/// mapping) kept a pop master between 0.80 and 0.89; this scale alone, a compressed one between 0.89
/// and 1.00 (a master within 3 dB of its reference all along), hence the rank.
struct LevelScale {
    private let curve: Float
    private let floorDB: Float
    private let rise: Float
    private let fallPerFrame: Float
    /// The recent loud level, dBFS.
    private(set) var referenceDB: Float = -20

    init(configuration: AnalysisConfiguration, step: Double) {
        curve = Float(configuration.dynamics * log(10) / 20)
        floorDB = Float(configuration.noiseFloor)
        rise = EnvelopeFollower.coefficient(step: step, timeConstant: 0.3)
        fallPerFrame = Float(step) * 1
    }

    /// The level target 0…1 for a frame whose RMS is `db` dBFS (the attack/release follower smooths it).
    mutating func update(rmsDecibels db: Float) -> Float {
        if db > referenceDB {
            referenceDB += (db - referenceDB) * rise
        } else {
            referenceDB = max(floorDB + 24, referenceDB - fallPerFrame)
        }
        let knee = min(1, max(0, (db - floorDB) / 6))
        return min(1, exp(curve * (db - referenceDB))) * knee
    }
}
