import Foundation

/// Per-band display smoothing: dB mapping with a noise floor, adaptive gain (CAVA's autosens),
/// attack/release or CAVA-style gravity fall-off, and peak caps that hold, then fall accelerating.
///
/// Fixed time step (one video frame); state lives in buffers allocated once, so ``step`` never allocates.
final class BandSmoother {
    let count: Int
    private let dt: Float
    private let attackCoeff: Float, releaseCoeff: Float
    private let gravity: Float, peakHold: Float, peakFall: Float
    private let floorDB: Float, autoSensitivity: Bool
    private let fixedGainDB: Float
    /// Current adaptive gain, dB.
    private(set) var gainDB: Float = 0
    private let value: UnsafeMutablePointer<Float>
    private let fallStart: UnsafeMutablePointer<Float>
    private let fallTime: UnsafeMutablePointer<Float>
    private let peak: UnsafeMutablePointer<Float>
    private let holdLeft: UnsafeMutablePointer<Float>
    private let peakVelocity: UnsafeMutablePointer<Float>
    private let target: UnsafeMutablePointer<Float>

    init(count: Int, frameDuration: Double, configuration c: AnalysisConfiguration) {
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
        func buffer() -> UnsafeMutablePointer<Float> {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
            p.initialize(repeating: 0, count: count)
            return p
        }
        value = buffer(); fallStart = buffer(); fallTime = buffer(); peak = buffer()
        holdLeft = buffer(); peakVelocity = buffer(); target = buffer()
    }

    deinit {
        for p in [value, fallStart, fallTime, peak, holdLeft, peakVelocity, target] { p.deallocate() }
    }

    /// Maps band amplitudes (full-scale sine = 1) to smoothed 0…1 values and peak caps.
    func step(amplitudes: UnsafePointer<Float>, bands: UnsafeMutablePointer<Float>, peaks: UnsafeMutablePointer<Float>) {
        let range = -floorDB
        let gain = fixedGainDB + gainDB
        var maxTarget: Float = 0
        for b in 0..<count {
            let db = FastMath.amplitudeToDecibels(amplitudes[b], floor: floorDB - 60)
            let x = (db + gain - floorDB) / range
            target[b] = x
            maxTarget = max(maxTarget, x)
        }
        if autoSensitivity {
            if maxTarget > 1 {
                // Pull the loudest band back to full scale within about 50 ms.
                gainDB -= (maxTarget - 1) * range * min(1, dt / 0.05)
            } else if maxTarget > 0.1 && maxTarget < 0.9 {
                gainDB += 3 * dt   // creep up 3 dB/s while a signal is present
            }
            gainDB = min(30, max(-40, gainDB))
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
