import Foundation

/// One-pole attack/release follower at a fixed step.
struct EnvelopeFollower {
    private let attack: Float, release: Float
    private(set) var value: Float = 0

    init(attack: Double, release: Double, step: Double) {
        self.attack = Self.coefficient(step: step, timeConstant: attack)
        self.release = Self.coefficient(step: step, timeConstant: release)
    }

    /// The one-pole smoothing coefficient `1 - exp(-step / τ)` (1, i.e. instant, for τ ≤ 0).
    static func coefficient(step: Double, timeConstant tau: Double) -> Float {
        tau <= 0 ? 1 : Float(1 - exp(-step / tau))
    }

    @inline(__always)
    mutating func update(_ x: Float) -> Float {
        value += (x - value) * (x > value ? attack : release)
        return value
    }
}
