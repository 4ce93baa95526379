import Foundation
import MarbleAnalysis
import MarbleCore

/// The fixed synthetic song every benchmark run uses, so runs on different days and machines compare.
///
/// Stereo, 48 kHz: a sustained A-major chord whose loudness swells every 4 s, kick drums on every beat at
/// 120 BPM (a decaying 55→110 Hz sine with a click), and a hi-hat of deterministic noise on the
/// off-beats. Generated in memory from a formula and a fixed-seed generator: the same samples on every
/// run. ``write(to:)`` saves it as a 16-bit WAV for the pipeline and FFmpeg comparisons.
package struct BenchSignal: Sendable {
    package let sampleRate: Int
    package let seconds: Double
    package let tempo: Double
    /// Planar samples, −1…1.
    package let left: [Float]
    package let right: [Float]

    package init(seconds: Double, sampleRate: Int = 48_000, tempo: Double = 120) {
        self.sampleRate = sampleRate
        self.seconds = seconds
        self.tempo = tempo
        let count = max(1, Int((seconds * Double(sampleRate)).rounded(.up)))
        var l = [Float](repeating: 0, count: count)
        var r = [Float](repeating: 0, count: count)
        let rate = Double(sampleRate)
        let beat = 60 / tempo
        var noise: UInt32 = 0x1234_5678
        for i in 0..<count {
            let t = Double(i) / rate
            let swell = 0.6 + 0.4 * sin(2 * .pi * t / 4)
            let chord = 0.12 * (sin(2 * .pi * 220 * t) + sin(2 * .pi * 277.18 * t) + sin(2 * .pi * 329.63 * t))
            let sinceBeat = t.truncatingRemainder(dividingBy: beat)
            let kickFrequency = 55 + 55 * exp(-sinceBeat * 30)
            let kick = 0.7 * exp(-sinceBeat * 9) * sin(2 * .pi * kickFrequency * sinceBeat)
                + (sinceBeat < 0.003 ? 0.3 : 0)
            noise = noise &* 1_664_525 &+ 1_013_904_223
            let white = Double(Int32(bitPattern: noise)) / Double(Int32.max)
            let sinceOffBeat = (t + beat / 2).truncatingRemainder(dividingBy: beat)
            let hat = 0.15 * exp(-sinceOffBeat * 60) * white
            l[i] = Float(max(-1, min(1, swell * chord + kick + hat * 0.7)))
            r[i] = Float(max(-1, min(1, swell * chord * 0.9 + kick + hat)))
        }
        left = l
        right = r
    }

    /// Features for frames `0..<frames` at `fps`, computed by the real analysis engine.
    package func features(fps: Rational, frames: Int) throws(MarbleError) -> [AudioFeatures] {
        let extractor = try FeatureExtractor(sampleRate: sampleRate, fps: fps)
        try extractor.request([.spectrum, .pitches])   // every shader gets what it may read
        extractor.append(left: left, right: right)
        extractor.finish()
        var out: [AudioFeatures] = []
        out.reserveCapacity(frames)
        var f = extractor.makeFeatures()
        for n in 0..<frames {
            extractor.computeFeatures(forFrame: n, into: &f)
            out.append(f)
        }
        return out
    }

    /// Writes the signal as a 16-bit PCM stereo WAV file.
    package func write(to path: String) throws(MarbleError) {
        let frames = left.count
        var data = Data(capacity: 44 + frames * 4)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + frames * 4))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(1); u16(2)
        u32(UInt32(sampleRate)); u32(UInt32(sampleRate * 4)); u16(4); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(frames * 4))
        var pcm = [Int16](repeating: 0, count: frames * 2)
        for i in 0..<frames {
            pcm[2 * i] = Int16((left[i] * 32767).rounded())
            pcm[2 * i + 1] = Int16((right[i] * 32767).rounded())
        }
        pcm.withUnsafeBytes { data.append(contentsOf: $0) }
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw MarbleError(.output, "\(path): cannot write the benchmark song")
        }
    }
}
