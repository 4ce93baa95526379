import Foundation

/// Per-band display smoothing: a loudness curve with a noise floor, adaptive gain (CAVA's autosens),
/// attack/release or CAVA-style gravity fall-off, and peak caps that hold, then fall accelerating.
///
/// The curve: a band `d` dB under the display's full scale (after the adaptive gain) reads
/// 10^(−dynamics·d/20), so with the default dynamics 0.5 a band 6 dB down reads 0.71, 12 dB down 0.5,
/// 20 dB down 0.32 and 40 dB down 0.1. Near the top, where the bars a viewer watches are, a 6 dB swing
/// moves a bar by 30 % of the height (a straight dB scale over 70 dB moved it by 9 %: bars of a
/// mastered song sat as a flat block); quiet bands still show. Levels under the noise floor (absolute
/// dBFS, so hiss is never turned up into bars) read 0, with a 6 dB soft knee above it. A tilt of
/// ``AnalysisConfiguration/tilt`` dB per octave around 1 kHz (as spectrum analysers do) evens out
/// music's falling treble for display; the noise floor applies before it.
///
/// Fixed time step (one video frame); state lives in buffers allocated once, so ``step`` never allocates.
final class BandSmoother {
    let count: Int
    private let dt: Float
    private let attackCoeff: Float, releaseCoeff: Float
    private let gravity: Float, peakHold: Float, peakFall: Float
    private let floorDB: Float, autoSensitivity: Bool
    /// dynamics · ln(10) / 20: the curve is exp(−curve · d) for a band d dB under full scale.
    private let curve: Float
    private let fixedGainDB: Float
    /// Current adaptive gain, dB.
    private(set) var gainDB: Float = 0
    /// True once a band has reached the top (the fast initial search is over).
    private var settled = false
    private let value: UnsafeMutablePointer<Float>
    private let fallStart: UnsafeMutablePointer<Float>
    private let fallTime: UnsafeMutablePointer<Float>
    private let peak: UnsafeMutablePointer<Float>
    private let holdLeft: UnsafeMutablePointer<Float>
    private let peakVelocity: UnsafeMutablePointer<Float>
    private let target: UnsafeMutablePointer<Float>
    /// Per band, the display tilt in dB.
    private let tiltDB: UnsafeMutablePointer<Float>

    /// `centers`: the bands' centre frequencies in Hz (for the tilt).
    init(count: Int, centers: [Double], frameDuration: Double, configuration c: AnalysisConfiguration) {
        self.count = count
        dt = Float(frameDuration)
        attackCoeff = EnvelopeFollower.coefficient(step: frameDuration, timeConstant: c.attack)
        releaseCoeff = EnvelopeFollower.coefficient(step: frameDuration, timeConstant: c.release)
        gravity = Float(c.gravity)
        peakHold = Float(c.peakHold)
        peakFall = Float(c.peakFall)
        floorDB = Float(c.noiseFloor)
        autoSensitivity = c.autoSensitivity
        fixedGainDB = Float(20 * log10(c.sensitivity))
        curve = Float(c.dynamics * log(10) / 20)
        func buffer() -> UnsafeMutablePointer<Float> {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
            p.initialize(repeating: 0, count: count)
            return p
        }
        value = buffer(); fallStart = buffer(); fallTime = buffer(); peak = buffer()
        holdLeft = buffer(); peakVelocity = buffer(); target = buffer(); tiltDB = buffer()
        for b in 0..<min(count, centers.count) { tiltDB[b] = Float(c.tilt * log2(max(1, centers[b]) / 1000)) }
    }

    deinit {
        for p in [value, fallStart, fallTime, peak, holdLeft, peakVelocity, target, tiltDB] { p.deallocate() }
    }

    /// Maps band amplitudes (full-scale sine = 1) to smoothed 0…1 values and peak caps.
    func step(amplitudes: UnsafePointer<Float>, bands: UnsafeMutablePointer<Float>, peaks: UnsafeMutablePointer<Float>) {
        let gain = fixedGainDB + gainDB
        var loudest: Float = -.infinity, loudestRaw: Float = -.infinity
        for b in 0..<count {
            let db = FastMath.amplitudeToDecibels(amplitudes[b], floor: floorDB - 60)
            let relative = db + tiltDB[b] + gain   // dB from the display's full scale (above it: over the top)
            let knee = min(1, max(0, (db - floorDB) / 6))
            target[b] = exp(curve * min(relative, 20)) * knee
            loudest = max(loudest, relative)
            loudestRaw = max(loudestRaw, db)
        }
        if autoSensitivity {
            if loudest > 0 {
                // Pull the loudest band back to full scale within about 50 ms.
                gainDB -= loudest * min(1, dt / 0.05)
                settled = true
            } else if loudest < -1.5 && loudestRaw > floorDB + 12 {
                // Creep up while a signal is present and nothing reaches the top: 3 dB/s, and 30 dB/s
                // until the first time a band reaches it (CAVA's initial sensitivity search), so a quiet
                // recording fills the picture within a second or two.
                gainDB += (settled ? 3 : 30) * dt
            }
            gainDB = min(40, max(-40, gainDB))
        }
        for b in 0..<count {
            let x = min(1, max(0, target[b]))
            var y = value[b]
            if x >= y {
                y += (x - y) * attackCoeff
                fallTime[b] = 0
                fallStart[b] = y
            } else if gravity > 0 {
                fallTime[b] += dt
                let t = fallTime[b]
                y = max(x, fallStart[b] - 0.5 * gravity * t * t)
            } else {
                y += (x - y) * releaseCoeff
            }
            value[b] = y
            bands[b] = y
            var p = peak[b]
            if y >= p {
                p = y; holdLeft[b] = peakHold; peakVelocity[b] = 0
            } else if holdLeft[b] > 0 {
                holdLeft[b] -= dt
            } else {
                peakVelocity[b] += peakFall * dt
                p = max(y, p - peakVelocity[b] * dt)
            }
            peak[b] = p
            peaks[b] = p
        }
    }
}
