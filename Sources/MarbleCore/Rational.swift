/// An exact rational number, used for frame rates and media time.
///
/// Frame `n` of a stream at `fps` starts at exactly `n / fps` seconds: no floating-point drift
/// accumulates over a long song.
public struct Rational: Sendable, Hashable, CustomStringConvertible {
    /// The numerator, after reduction.
    public let numerator: Int
    /// The denominator, after reduction; always positive.
    public let denominator: Int

    /// Creates `numerator / denominator` in lowest terms. The denominator must be positive.
    public init(_ numerator: Int, _ denominator: Int = 1) {
        precondition(denominator != 0, "Rational with zero denominator")
        let sign = denominator < 0 ? -1 : 1
        // On magnitudes: abs(Int.min) traps ("--fps -9223372036854775808" did).
        let g = Int(Rational.gcd(numerator.magnitude, denominator.magnitude))
        self.numerator = sign * (numerator / g)
        self.denominator = sign * (denominator / g)
    }

    /// Parses "60", "30000/1001" or "29.97" (decimal rates become their exact NTSC-style fraction
    /// only when written as a fraction; "29.97" is 2997/100).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        // Parts beyond 32 bits are refused: FFmpeg's AVRational holds Int32 parts (and nobody means them).
        let limit = UInt(Limits.rationalPart)   // compared as magnitudes: abs(Int.min) traps
        if parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]), d > 0, n.magnitude <= limit, d <= limit {
            self.init(n, d)
        } else if parts.count == 1, let n = Int(text), n.magnitude <= limit {
            self.init(n, 1)
        } else if parts.count == 1, let value = Double(text), value.isFinite {
            let scaled = (value * 1000).rounded()
            guard abs(scaled) < Double(Int32.max) else { return nil }
            self.init(Int(scaled), 1000)
        } else {
            return nil
        }
    }

    /// The value as a `Double` (rounded).
    public var doubleValue: Double { Double(numerator) / Double(denominator) }
    /// 1 / self: the frame duration in seconds for a frame rate.
    public var reciprocal: Rational { Rational(denominator, numerator) }
    /// `60` or `30000/1001`: the form ``init(parsing:)`` reads back.
    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

    /// Seconds at which frame `index` starts, for a rate of `self` frames per second.
    public func seconds(ofFrame index: Int) -> Double {
        Double(index) * Double(denominator) / Double(numerator)
    }

    /// The frame shown at `seconds`: floor(seconds · rate).
    public func frame(at seconds: Double) -> Int {
        Int((seconds * Double(numerator) / Double(denominator)).rounded(.down))
    }

    /// Number of frames needed to cover `seconds`: ceil(seconds · rate).
    public func frameCount(covering seconds: Double) -> Int {
        let exact = seconds * Double(numerator) / Double(denominator)
        // Tolerate floating-point noise from durations that are exact multiples of the frame period.
        return Int((exact - 1e-9).rounded(.up))
    }

    /// Number of frames that start before the end of `samples` samples at `sampleRate` Hz: frame n
    /// exists while n / rate < samples / sampleRate, so ceil(samples · rate / sampleRate), in exact
    /// integer arithmetic (44.1 kHz at 24 fps is 1837.5 samples a frame: no rounding drifts).
    public func frameCount(samples: Int, sampleRate: Int) -> Int {
        precondition(samples >= 0 && sampleRate > 0, "a sample count and a positive sample rate")
        // samples · numerator can pass 2^63 (100 h at 192 kHz times a 31-bit numerator): full width.
        let product = samples.multipliedFullWidth(by: numerator)
        let divisor = sampleRate * denominator
        let (quotient, remainder) = divisor.dividingFullWidth(product)
        return remainder == 0 ? quotient : quotient + 1
    }

    private static func gcd(_ a: UInt, _ b: UInt) -> UInt {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
