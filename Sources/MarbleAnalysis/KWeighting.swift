import Foundation

/// ITU-R BS.1770-4 K-weighting: a high-shelf ("pre-filter", +4 dB above ~1.7 kHz) then a high-pass
/// (RLB, ~38 Hz), as two biquads designed for any sample rate (the analogue prototypes bilinear-
/// transformed, the same derivation libebur128 uses), run in double precision.
struct KWeighting {
    private let b0, b1, b2, a1, a2: Double      // shelf
    private let c0, c1, c2, d1, d2: Double      // high-pass
    // Direct form I state: inputs x, outputs y of the shelf; inputs w, outputs z of the high-pass
    // (`…1` = one sample ago, `…1b` = two samples ago).
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y1b = 0.0
    private var w1 = 0.0, w2 = 0.0, z1 = 0.0, z1b = 0.0

    init(sampleRate: Int) {
        let fs = Double(sampleRate)
        var f0 = 1681.974450955533, q = 0.7071752369554196
        let gainDB = 3.999843853973347
        var k = tan(Double.pi * f0 / fs)
        let vh = pow(10, gainDB / 20), vb = pow(vh, 0.4996667741545416)
        var a0 = 1 + k / q + k * k
        b0 = (vh + vb * k / q + k * k) / a0
        b1 = 2 * (k * k - vh) / a0
        b2 = (vh - vb * k / q + k * k) / a0
        a1 = 2 * (k * k - 1) / a0
        a2 = (1 - k / q + k * k) / a0
        f0 = 38.13547087602444; q = 0.5003270373238773
        k = tan(Double.pi * f0 / fs)
        a0 = 1 + k / q + k * k
        c0 = 1; c1 = -2; c2 = 1
        d1 = 2 * (k * k - 1) / a0
        d2 = (1 - k / q + k * k) / a0
    }

    /// Filters one sample. Direct form I, with each output's own feedback term added last: the only
    /// serial dependency per sample is then one multiply-add (the transposed form has two), which
    /// halves the time of this latency-bound loop.
    @inline(__always)
    mutating func tick(_ v: Double) -> Double {
        let t = b0 * v + b1 * x1 + b2 * x2 - a2 * y1b
        let y = t - a1 * y1
        x2 = x1; x1 = v; y1b = y1; y1 = y
        let u = c0 * y + c1 * w1 + c2 * w2 - d2 * z1b
        let z = u - d1 * z1
        w2 = w1; w1 = y; z1b = z1; z1 = z
        return z
    }

    /// Zeroes states too small to matter, before a long silence decays them into denormals (which
    /// are a hundred times slower to compute with).
    mutating func flushTinyStates() {
        if abs(x1) < 1e-30 && abs(x2) < 1e-30 && abs(y1) < 1e-30 && abs(y1b) < 1e-30 {
            x1 = 0; x2 = 0; y1 = 0; y1b = 0
        }
        if abs(w1) < 1e-30 && abs(w2) < 1e-30 && abs(z1) < 1e-30 && abs(z1b) < 1e-30 {
            w1 = 0; w2 = 0; z1 = 0; z1b = 0
        }
    }

    /// The filter's power gain at `frequency` (for tests: a 1 kHz sine gains about +0.69 dB).
    func powerGain(at frequency: Double, sampleRate: Int) -> Double {
        func mag2(_ b: (Double, Double, Double), _ a: (Double, Double)) -> Double {
            let w = 2 * Double.pi * frequency / Double(sampleRate)
            let (c1, s1, c2, s2) = (cos(w), -sin(w), cos(2 * w), -sin(2 * w))
            let nr = b.0 + b.1 * c1 + b.2 * c2, ni = b.1 * s1 + b.2 * s2
            let dr = 1 + a.0 * c1 + a.1 * c2, di = a.0 * s1 + a.1 * s2
            return (nr * nr + ni * ni) / (dr * dr + di * di)
        }
        return mag2((b0, b1, b2), (a1, a2)) * mag2((c0, c1, c2), (d1, d2))
    }
}
