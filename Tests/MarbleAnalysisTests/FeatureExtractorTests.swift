import Foundation
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

@Suite("Analysis: FeatureExtractor")
struct AnalysisFeatureExtractorTests {
    /// Index of the band containing `f`.
    func band(of f: Double, in fx: FeatureExtractor) -> Int {
        fx.bandLowerEdges.indices.first { fx.bandLowerEdges[$0] <= f && f < fx.bandUpperEdges[$0] } ?? -1
    }

    @Test("a sine lands in its band (±1), logarithmic layout", arguments: [44100, 48000, 22050])
    func sineInBand(sampleRate: Int) throws {
        let fx = try FeatureExtractor(sampleRate: sampleRate, fps: Rational(30), configuration: AnalysisConfiguration())
        for f in [40.0, 100, 440, 1000, 3000, 9000] where f < 0.45 * Double(sampleRate) {
            let x = AnalysisSignals.sine(frequency: f, seconds: 0.4, sampleRate: sampleRate)
            var last = [Float]()
            try AnalysisSignals.run(x, sampleRate: sampleRate, fps: Rational(30)) { _, feat in last = feat.bandsDecibels }
            let arg = last.indices.max { last[$0] < last[$1] }!
            #expect(abs(arg - band(of: f, in: fx)) <= 1, "sine \(f) Hz at \(sampleRate): band \(arg), expected \(band(of: f, in: fx))")
            // A −6 dBFS sine reads about −6 dB in its band.
            #expect(abs(last[arg] + 6.02) < 2.5, "level \(last[arg]) dB for \(f) Hz")
        }
    }

    @Test("a sine lands on its semitone")
    func semitone() throws {
        var c = AnalysisConfiguration()
        c.layout = .semitone
        let fx = try FeatureExtractor(sampleRate: 44100, fps: Rational(30), configuration: c)
        #expect(fx.bandCount == 109)
        for f in [55.0, 110, 440, 1760] {
            let x = AnalysisSignals.sine(frequency: f, seconds: 0.5, sampleRate: 44100)
            var last = [Float]()
            try AnalysisSignals.run(x, sampleRate: 44100, fps: Rational(30), configuration: c) { _, feat in last = feat.bandsDecibels }
            let arg = last.indices.max { last[$0] < last[$1] }!
            #expect(abs(fx.bandCenters[arg] / f - 1) < 0.01, "\(f) Hz → band centred at \(fx.bandCenters[arg])")
        }
    }

    @Test("a log sweep moves monotonically through the bands")
    func sweep() throws {
        let x = AnalysisSignals.logSweep(from: 40, to: 14000, seconds: 4, sampleRate: 22050)
        var args = [Int]()
        try AnalysisSignals.run(x, sampleRate: 22050, fps: Rational(30)) { frame, feat in
            guard frame > 6 else { return }
            let d = feat.bandsDecibels
            args.append(d.indices.max { d[$0] < d[$1] }!)
        }
        var decreases = 0
        for i in 1..<args.count where args[i] < args[i - 1] - 1 { decreases += 1 }
        #expect(decreases == 0, "band sequence: \(args)")
        #expect(args.last! > args.first! + 40)
    }

    @Test("a click changes frame floor(t·fps) or the next one",
          arguments: [(44100, 60, AnalysisWindow.hann), (48000, 30, .hann), (22050, 25, .hann), (44100, 144, .lowLatency),
                      (48000, 60, .lowLatency)])
    func clickAlignment(sampleRate: Int, fps: Int, window: AnalysisWindow) throws {
        var c = AnalysisConfiguration()
        c.window = window
        for t in [0.5, 0.5123, 0.7777, 1.0001] {
            let x = AnalysisSignals.clicks(at: [t], seconds: 1.3, sampleRate: sampleRate)
            let expected = Rational(fps).frame(at: t)
            var firstPeak = -1, firstOnset = -1, firstBand = -1
            try AnalysisSignals.run(x, sampleRate: sampleRate, fps: Rational(fps), configuration: c) { frame, f in
                if firstPeak < 0, f.peak > 0.05 { firstPeak = frame }
                if firstOnset < 0, f.onset > 0.2 { firstOnset = frame }
                if firstBand < 0, (f.bandsDecibels.max() ?? -120) > -50 { firstBand = frame }
            }
            #expect(firstPeak == expected, "peak at frame \(firstPeak), click in frame \(expected) (t=\(t), \(fps) fps)")
            #expect([expected, expected + 1].contains(firstOnset), "onset at frame \(firstOnset), click in \(expected)")
            #expect([expected, expected + 1].contains(firstBand), "bands at frame \(firstBand), click in \(expected)")
        }
    }

    @Test("silence gives zeros, no beats, no onsets, nothing NaN or infinite")
    func silence() throws {
        let x = [Float](repeating: 0, count: 44100 * 6)
        var beats = 0, onsets = 0
        try AnalysisSignals.run(x, sampleRate: 44100, fps: Rational(60)) { _, f in
            if f.isBeat { beats += 1 }
            if f.isOnset { onsets += 1 }
            let scalars: [Float] = [f.rms, f.peak, f.level, f.bass, f.mid, f.treble, f.bassAttenuated, f.midAttenuated,
                                    f.trebleAttenuated, f.onset, f.beatPulse, f.beatPhase, f.tempo, f.centroid, f.flux,
                                    f.loudnessMomentary, f.loudnessShortTerm, f.loudnessIntegrated, f.rmsDecibels, f.peakDecibels]
            #expect(scalars.allSatisfy { $0.isFinite })
            #expect((f.bands + f.bandPeaks + f.chroma + f.bandsDecibels + f.waveformLeft).allSatisfy { $0.isFinite })
            #expect(f.bands.allSatisfy { $0 == 0 } && f.rms == 0 && f.loudnessMomentary == -120)
        }
        #expect(beats == 0 && onsets == 0)
    }

    @Test("results do not depend on chunk size; stereo waveform is the input")
    func chunking() throws {
        let noise = AnalysisSignals.noise(seconds: 1, sampleRate: 44100, amplitude: 0.1)
        let l = zip(AnalysisSignals.sine(frequency: 300, seconds: 1, sampleRate: 44100), noise).map { $0 + $1 }
        let r = noise.reversed().map { $0 * 3 }
        var a = [AudioFeatures](), b = [AudioFeatures]()
        try AnalysisSignals.run(l, sampleRate: 44100, chunk: 333, right: r) { _, f in a.append(f) }
        try AnalysisSignals.run(l, sampleRate: 44100, chunk: 8192, right: r) { _, f in b.append(f) }
        #expect(a == b)
        // Frame 30 ends at sample ceil(31 · 44100 / 60) = 22785.
        let f = a[30]
        #expect(Array(l[(22785 - 1024)..<22785]) == f.waveformLeft)
        #expect(Array(r[(22785 - 1024)..<22785]) == f.waveformRight)
    }

    @Test("per-channel peak and RMS: a full-scale sine left reads 1 and 0.707, silence right reads 0")
    func perChannelLevels() throws {
        let l = AnalysisSignals.sine(frequency: 997, amplitude: 1, seconds: 1, sampleRate: 48000)
        let r = [Float](repeating: 0, count: l.count)
        var checked = 0
        try AnalysisSignals.run(l, sampleRate: 48000, fps: Rational(30), right: r) { frame, f in
            guard frame > 2 && frame < 25 else { return }
            #expect(abs(f.peakLeft - 1) < 0.01 && abs(f.rmsLeft - 0.7071) < 0.01, "frame \(frame): \(f.peakLeft) \(f.rmsLeft)")
            #expect(f.peakRight == 0 && f.rmsRight == 0)
            #expect(abs(f.rms - 0.5) < 0.01)   // both channels together: the left one's power halved
            checked += 1
        }
        #expect(checked > 10)
    }

    @Test("bass/mid/treble average about 1 and rise on hits")
    func milkdropLevels() throws {
        let times = AnalysisSignals.beatTimes(bpm: 120, seconds: 10)
        let x = zip(AnalysisSignals.clicks(at: times, seconds: 10, sampleRate: 22050),
                    AnalysisSignals.noise(seconds: 10, sampleRate: 22050, amplitude: 0.05)).map { $0 + $1 }
        var sum: Float = 0, n: Float = 0, top: Float = 0
        try AnalysisSignals.run(x, sampleRate: 22050, fps: Rational(30)) { frame, f in
            guard frame > 90 else { return }
            sum += f.treble; n += 1; top = max(top, f.treble)
        }
        #expect(abs(sum / n - 1) < 0.35, "treble mean \(sum / n)")
        #expect(top > 2)
    }

    @Test("every sample rate from 8 to 192 kHz works; bad input throws")
    func rates() throws {
        for sr in [8000, 11025, 96000, 192_000] {
            let x = AnalysisSignals.sine(frequency: 1000, seconds: 0.3, sampleRate: sr)
            var ok = true
            try AnalysisSignals.run(x, sampleRate: sr, fps: Rational(30000, 1001)) { _, f in ok = ok && f.bands.allSatisfy { $0.isFinite } }
            #expect(ok)
        }
        #expect(throws: MarbleError.self) { try FeatureExtractor(sampleRate: 4000, fps: Rational(30)) }
        var c = AnalysisConfiguration()
        c.bandCount = 4
        #expect(throws: MarbleError.self) { try FeatureExtractor(sampleRate: 44100, fps: Rational(30), configuration: c) }
    }

    @Test("memory is flat in stream length: the ring never grows when frames keep up")
    func boundedMemory() throws {
        let fx = try FeatureExtractor(sampleRate: 8000, fps: Rational(30))
        let capacity = fx.ringCapacity
        var f = fx.makeFeatures()
        let chunk = AnalysisSignals.noise(seconds: 0.5, sampleRate: 8000, amplitude: 0.3)
        var appended = 0
        for frame in 0..<(20 * 30) {   // 20 s, five times what the ring holds
            while appended < fx.samplesNeeded(forFrame: frame) {
                fx.append(left: chunk)
                appended += chunk.count
            }
            fx.computeFeatures(forFrame: frame, into: &f)
        }
        #expect(fx.ringCapacity == capacity)
        #expect(capacity <= 32768)
    }
}

/// A file analysed as live mode would: frame by frame, causally.
@Suite struct FollowCausallyTests {
    @Test("frames come in order at the frame rate until the body says stop; a bad file is an input error")
    func followsAFile() throws {
        let song = try TestMedia.tone("wav", seconds: 2)
        var times: [Double] = []
        try MediaAnalysis.followCausally(path: song, fps: Rational(30)) { features in
            times.append(features.time)
            return times.count < 45
        }
        #expect(times.count == 45 && times.enumerated().allSatisfy { abs($1 - Double($0) / 30) < 1e-9 })
        var all = 0
        try MediaAnalysis.followCausally(path: song, fps: Rational(30)) { _ in all += 1; return true }
        #expect(all == 60, "a 2 s file at 30 fps")
        #expect(throws: MarbleError.self) { try MediaAnalysis.followCausally(path: "/no/such.wav", fps: Rational(30)) { _ in true } }
    }
}
