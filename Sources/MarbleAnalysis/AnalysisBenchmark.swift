import Foundation
import MarbleCore

/// Speed of the offline analyzer on a generated song (for `marble bench`).
package enum AnalysisBenchmark {
    /// One measurement: how fast the offline pass and the live per-frame analysis ran.
    package struct Result: Sendable, Equatable {
        /// Audio analysed, seconds.
        package var audioSeconds: Double
        /// Its sample rate (stereo).
        package var sampleRate: Int
        /// Wall time taken, seconds (decoding excluded: the signal is generated beforehand).
        package var seconds: Double
        /// audioSeconds / seconds.
        package var realTimeFactor: Double
        /// Live mode: mean time per `computeFeatures` call at 60 fps, milliseconds.
        package var liveMillisecondsPerFrame: Double
        /// Tempo found (the signal is 124 BPM), as a sanity check.
        package var tempo: Double
    }

    /// Generates `seconds` of 44.1 kHz stereo "music" (124 BPM kick and hat pattern, a bass line and
    /// a chord), runs ``OfflineAnalyzer`` on it `repetitions` times (the best time counts: the machine
    /// is shared), and ``FeatureExtractor`` at 60 fps over its first 10 seconds. Single-threaded.
    package static func run(seconds: Double = 60, sampleRate: Int = 44100, repetitions: Int = 3) throws(MarbleError) -> Result {
        let (left, right) = signal(seconds: seconds, sampleRate: sampleRate)
        var offline = Double.infinity
        var report: AnalysisReport?
        for _ in 0..<max(1, repetitions) {
            let t0 = DispatchTime.now().uptimeNanoseconds
            report = try OfflineAnalyzer.analyze(left: left, right: right, sampleRate: sampleRate)
            offline = min(offline, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
        }

        let fps = Rational(60)
        let fx = try FeatureExtractor(sampleRate: sampleRate, fps: fps)
        var features = fx.makeFeatures()
        let frames = fps.frameCount(covering: min(10, seconds))
        var fed = 0
        var live = 0.0
        left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in
                for i in 0..<frames {
                    let need = min(l.count, fx.samplesNeeded(forFrame: i))
                    let s0 = DispatchTime.now().uptimeNanoseconds
                    if need > fed {
                        fx.append(left: UnsafeBufferPointer(rebasing: l[fed..<need]), right: UnsafeBufferPointer(rebasing: r[fed..<need]))
                        fed = need
                    }
                    if fed >= l.count { fx.finish() }
                    fx.computeFeatures(forFrame: i, into: &features)
                    live += Double(DispatchTime.now().uptimeNanoseconds - s0)
                }
            }
        }
        return Result(audioSeconds: seconds, sampleRate: sampleRate, seconds: offline, realTimeFactor: seconds / max(offline, 1e-9),
                      liveMillisecondsPerFrame: live / 1e6 / Double(max(1, frames)), tempo: report?.tempo ?? 0)
    }

    /// The benchmark's signal: deterministic, planar stereo.
    static func signal(seconds: Double, sampleRate: Int) -> ([Float], [Float]) {
        let n = Int(seconds * Double(sampleRate))
        var l = [Float](repeating: 0, count: n), r = [Float](repeating: 0, count: n)
        let sr = Double(sampleRate)
        let beat = 60.0 / 124
        var seed: UInt32 = 2024
        let notes = [55.0, 55, 65.41, 49]
        for i in 0..<n {
            let t = Double(i) / sr
            let b = t / beat
            let inBeat = (b - b.rounded(.down)) * beat
            let inEighth = ((2 * b) - (2 * b).rounded(.down)) * beat / 2
            seed = seed &* 1664525 &+ 1013904223
            let noise = Double(Int32(bitPattern: seed)) / Double(Int32.max)
            let kick = 0.6 * exp(-inBeat * 18) * sin(2 * Double.pi * (50 * inBeat + 400 * (1 - exp(-inBeat * 30)) / 30))
            let hat = 0.15 * exp(-inEighth * 60) * noise
            let bass = 0.2 * sin(2 * Double.pi * notes[Int(b / 4) % 4] * t)
            let chord = 0.05 * (sin(2 * Double.pi * 220 * t) + sin(2 * Double.pi * 277.18 * t) + sin(2 * Double.pi * 329.63 * t))
            l[i] = Float(kick + hat + bass + chord)
            r[i] = Float(kick + 0.8 * hat + bass + 0.9 * chord)
        }
        return (l, r)
    }
}
