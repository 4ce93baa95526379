import MarbleCore
@testable import Shaders

/// Measures of how a background looks and moves, for the tests of Tests/ShadersTests/Backgrounds.
enum Look {
    /// The synthetic song's features at `frame`, with the beat pulse set to `beat` (nil: the song's own).
    static func features(frame n: Int, loudness: Float = 1, beat: Float? = nil) -> AudioFeatures {
        var f = syntheticFeatures(frame: n, loudness: loudness)
        if let beat { f.beatPulse = beat; f.isBeat = beat >= 1 }
        return f
    }

    /// One frame of `name` at media time `seconds` with `features` (prepare once, then render).
    static func frame(_ name: String, _ values: [String: ParameterValue] = [:], seconds: Double,
                      features: AudioFeatures, width: Int = 128, height: Int = 72) throws -> [UInt8] {
        let rig = try Rig(name, values, width: width, height: height)
        var u = uniforms(frame: Int(seconds * 30), features: features, width: width, height: height)
        u.time = seconds
        return rig.render(u)
    }

    /// Mean absolute difference of the colour channels, 0…255.
    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var sum = 0
        for i in 0..<min(a.count, b.count) where i % 4 != 3 { sum += abs(Int(a[i]) - Int(b[i])) }
        return Double(sum) / Double(max(1, a.count / 4 * 3))
    }

    /// Luminance 0…255 of pixel `p` (Rec. 709 weights).
    static func luminance(_ bytes: [UInt8], _ p: Int) -> Double {
        0.2126 * Double(bytes[4 * p]) + 0.7152 * Double(bytes[4 * p + 1]) + 0.0722 * Double(bytes[4 * p + 2])
    }

    /// Mean luminance of the frame.
    static func meanLuminance(_ bytes: [UInt8]) -> Double {
        let n = bytes.count / 4
        return (0..<n).reduce(0) { $0 + luminance(bytes, $1) } / Double(max(1, n))
    }

    /// Share of pixels whose colour channels are all at least `level`.
    static func shareAtLeast(_ bytes: [UInt8], _ level: UInt8) -> Double {
        let n = bytes.count / 4
        let count = (0..<n).filter { bytes[4 * $0] >= level && bytes[4 * $0 + 1] >= level && bytes[4 * $0 + 2] >= level }.count
        return Double(count) / Double(max(1, n))
    }

    /// Mean absolute luminance difference (0…255) between `name` drawn at `width`×`height` and drawn at
    /// twice that size averaged down 2×2: what antialiasing (coverage) keeps small. An edge that steps
    /// differs from the averaged one by the edge's contrast all along its steps.
    static func supersampleError(_ name: String, _ values: [String: ParameterValue] = [:], seconds: Double,
                                 features: AudioFeatures, width: Int, height: Int) throws -> Double {
        let small = try frame(name, values, seconds: seconds, features: features, width: width, height: height)
        let large = try frame(name, values, seconds: seconds, features: features, width: 2 * width, height: 2 * height)
        var sum = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let p = 2 * y * 2 * width + 2 * x, below = p + 2 * width
                let averaged = (luminance(large, p) + luminance(large, p + 1) + luminance(large, below) + luminance(large, below + 1)) / 4
                sum += abs(luminance(small, y * width + x) - averaged)
            }
        }
        return sum / Double(width * height)
    }
}
