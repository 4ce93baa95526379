import Foundation

/// MilkDrop's bass/mid/treble: the immediate energy in a range divided by its slow running average,
/// so a song averages about 1.0 and hits rise above it; `attenuated` divides a medium-speed average
/// instead (MilkDrop's `*_att`).
struct RelativeLevels {
    private var longAverage: (Float, Float, Float) = (0, 0, 0)
    private var mediumAverage: (Float, Float, Float) = (0, 0, 0)
    private var elapsed: Double = 0
    private let step: Double
    private let mediumCoeff: Float

    init(step: Double) {
        self.step = step
        mediumCoeff = EnvelopeFollower.coefficient(step: step, timeConstant: 0.3)
    }

    /// `imm` are the three range amplitudes this frame. Returns (relative, attenuated) per range.
    mutating func update(_ imm: (Float, Float, Float)) -> (rel: (Float, Float, Float), att: (Float, Float, Float)) {
        elapsed += step
        // The long average adapts fast at the start (time constant grows with elapsed time up to 8 s).
        let tau = min(8, max(0.5, elapsed))
        let lc = EnvelopeFollower.coefficient(step: step, timeConstant: tau)
        func one(_ x: Float, _ long: inout Float, _ med: inout Float) -> (Float, Float) {
            long += (x - long) * lc
            med += (x - med) * mediumCoeff
            guard long > 1e-4 else { return (0, 0) }
            return (FastMath.finite(min(8, x / long)), FastMath.finite(min(8, med / long)))
        }
        let a = one(imm.0, &longAverage.0, &mediumAverage.0)
        let b = one(imm.1, &longAverage.1, &mediumAverage.1)
        let c = one(imm.2, &longAverage.2, &mediumAverage.2)
        return ((a.0, b.0, c.0), (a.1, b.1, c.1))
    }
}
