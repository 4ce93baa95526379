#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// MilkDrop's `bass`, `mid`, `treb` and their `_att` versions, computed the way MilkDrop 2 computes
/// them for presets (its "pre-VMS" analysis, `DoCustomSoundAnalysis`), from the last 576 samples of
/// the left channel each frame — not from MarbleKit's own band levels, so a preset's motion does not
/// depend on our level normalisation.
///
/// Per frame:
/// - the 576 samples in MilkDrop's 8-bit units (±128), times a raised-cosine envelope over the 576,
///   zero-padded to 1,024 and transformed: 512 magnitudes from 0 Hz to half the sample rate (bin k at
///   k·rate/1024: 43 Hz apart at 44.1 kHz), each times MilkDrop's equaliser −0.02·ln((512 − k)/512),
///   which is 0 at 0 Hz and grows towards the top;
/// - `immediate`: the sums of bins 0…84, 85…169 and 170…255 (the lower half of the spectrum in
///   three equal parts: 0–3.7 kHz, 3.7–7.3 kHz, 7.3–11 kHz at 44.1 kHz);
/// - `average`: follows `immediate` with a per-frame weight of 0.2 on the old value when the sound
///   rises and 0.5 when it falls; `longAverage` with 0.9 for the first 50 frames, then 0.992; both
///   weights are MilkDrop's at 30 fps, taken to the power 30/fps so the smoothing has the same time
///   constants at any frame rate (MilkDrop's `AdjustRateToFPS`);
/// - `relative` = immediate / longAverage (`bass`, `mid`, `treb`) and `attenuated` = average /
///   longAverage (`bass_att`…), both 1 while the long average is under 0.001 (silence).
/// Everything starts at zero, as MilkDrop's does, so the first frames read high.
struct MilkLevels {
    /// Samples per frame, bins of the transform and bins summed (MilkDrop's 576, 1,024 and 256).
    static let samples = 576, length = 1024, usedBins = 256
    /// The first bin of each band, and the end of the last: 512·i/6.
    static let bandEdges = [0, 85, 170, 256]

    private(set) var immediate = SIMD3<Float>(repeating: 0)
    private(set) var average = SIMD3<Float>(repeating: 0)
    private(set) var longAverage = SIMD3<Float>(repeating: 0)
    private(set) var relative = SIMD3<Float>(repeating: 1)
    private(set) var attenuated = SIMD3<Float>(repeating: 1)

    /// The envelope per sample and the equaliser per used bin.
    private let envelope: [Float], equalizer: [Float]
    /// cos and sin of 2π·n/1024 for n in 0..<1024.
    private let cosines: [Float], sines: [Float]
    /// The windowed samples of the frame being analysed (allocated once: 576 floats are past what a
    /// temporary allocation keeps on the stack, and a frame allocates nothing).
    private var windowed = [Float](repeating: 0, count: samples)

    init() {
        envelope = (0..<Self.samples).map { 0.5 + 0.5 * sinf(Float($0) * (6.2831853 / Float(Self.samples)) - 1.5707963) }
        equalizer = (0..<Self.usedBins).map { -0.02 * logf(Float(512 - $0) / 512) }
        cosines = (0..<Self.length).map { Float(cos(2 * Double.pi * Double($0) / Double(Self.length))) }
        sines = (0..<Self.length).map { Float(sin(2 * Double.pi * Double($0) / Double(Self.length))) }
    }

    /// Back to silence before the first frame.
    mutating func reset() {
        immediate = .zero; average = .zero; longAverage = .zero
        relative = SIMD3(repeating: 1); attenuated = SIMD3(repeating: 1)
    }

    /// The per-frame weight of MilkDrop's `rate` (tuned at 30 fps) at `fps` frames a second.
    static func weight(_ rate: Float, fps: Float) -> Float {
        powf(rate, 30 / fps)
    }

    /// Advances one frame: `wave` holds 576 samples (−1…1, oldest first) of the left channel,
    /// `frame` counts frames from 0 (the long average settles faster over the first 50).
    mutating func update(wave: UnsafeBufferPointer<Float>, fps: Float, frame: Int) {
        advance(bands(wave), fps: fps, frame: frame)
    }

    /// Advances one frame from this frame's three band sums (``bands(_:)``).
    mutating func advance(_ bands: SIMD3<Float>, fps: Float, frame: Int) {
        immediate = bands.replacing(with: 0, where: .!(bands .== bands))
        let fps = fps.isFinite && fps > 0 ? fps : 60
        let longRate = Self.weight(frame < 50 ? 0.9 : 0.992, fps: fps)
        let rising = Self.weight(0.2, fps: fps), falling = Self.weight(0.5, fps: fps)
        for i in 0..<3 {
            let rate = immediate[i] > average[i] ? rising : falling
            average[i] = average[i] * rate + immediate[i] * (1 - rate)
            longAverage[i] = longAverage[i] * longRate + immediate[i] * (1 - longRate)
            let quiet = abs(longAverage[i]) < 0.001
            relative[i] = quiet ? 1 : immediate[i] / longAverage[i]
            attenuated[i] = quiet ? 1 : average[i] / longAverage[i]
        }
    }

    /// The three band sums of the equalised magnitudes (a direct transform of the 256 bins used:
    /// 576 × 256 multiply-adds per part, a fraction of a millisecond).
    mutating func bands(_ wave: UnsafeBufferPointer<Float>) -> SIMD3<Float> {
        var sums = SIMD3<Float>(repeating: 0)
        let n = min(wave.count, Self.samples), mask = Self.length - 1
        envelope.withUnsafeBufferPointer { env in
        equalizer.withUnsafeBufferPointer { eq in
        cosines.withUnsafeBufferPointer { cs in
        sines.withUnsafeBufferPointer { sn in
            windowed.withUnsafeMutableBufferPointer { x in
                for i in 0..<Self.samples {
                    let s = i < n ? wave[i] : 0
                    x[i] = (s.isFinite ? max(-1, min(1, s)) : 0) * 128 * env[i]
                }
                var band = 0
                for k in 0..<Self.usedBins {
                    if k == Self.bandEdges[band + 1] { band += 1 }
                    var re: Float = 0, im: Float = 0, index = 0
                    for i in 0..<Self.samples {
                        re += x[i] * cs[index]
                        im -= x[i] * sn[index]
                        index = (index &+ k) & mask
                    }
                    sums[band] += eq[k] * (re * re + im * im).squareRoot()
                }
            }
        } } } }
        return sums
    }
}
