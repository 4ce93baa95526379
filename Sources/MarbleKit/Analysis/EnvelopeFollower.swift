import Foundation

/// One-pole attack/release follower at a fixed step.
struct EnvelopeFollower {
    private let attack: Float, release: Float
    private(set) var value: Float = 0

    init(attack: Double, release: Double, step: Double) {
        self.attack = attack <= 0 ? 1 : Float(1 - exp(-step / attack))
        self.release = release <= 0 ? 1 : Float(1 - exp(-step / release))
    }

    @inline(__always)
    mutating func update(_ x: Float) -> Float {
        value += (x - value) * (x > value ? attack : release)
        return value
    }
}
