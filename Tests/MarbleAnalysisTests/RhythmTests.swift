import Foundation
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleMedia
import Testing

@Suite("Analysis: tempo, beats and onsets")
struct AnalysisRhythmTests {
    /// A click track with 6 dB accents on every fourth beat, over quiet noise and a low tone.
    static func clickTrack(bpm: Double, seconds: Double, sampleRate: Int) -> (signal: [Float], beats: [Double]) {
        let beats = AnalysisSignals.beatTimes(bpm: bpm, start: 0.37, seconds: seconds)
        // Accents 6 dB up on every fourth beat.
        let a = AnalysisSignals.clicks(at: beats, seconds: seconds, sampleRate: sampleRate, amplitude: 0.45,
                                       accentEvery: 4, accent: 2)
        let n = AnalysisSignals.noise(seconds: seconds, sampleRate: sampleRate, amplitude: 0.01)
        let s = AnalysisSignals.sine(frequency: 110, amplitude: 0.05, seconds: seconds, sampleRate: sampleRate)
        return (zip(a, zip(n, s)).map { $0 + $1.0 + $1.1 }, beats)
    }

    @Test("click tracks 72–180 BPM: tempo within 1 %, beats within 30 ms (F ≥ 0.95)",
          arguments: [72.0, 87, 100, 120, 128, 143, 165, 180])
    func offlineTempo(bpm: Double) throws {
        let (x, ref) = Self.clickTrack(bpm: bpm, seconds: 14, sampleRate: 22050)
        let report = try OfflineAnalyzer.analyze(left: x, sampleRate: 22050)
        #expect(abs(report.tempo / bpm - 1) < 0.01, "tempo \(report.tempo) for \(bpm)")
        let f = AnalysisSignals.fMeasure(report.beats, ref, tolerance: 0.03)
        #expect(f >= 0.95, "beat F-measure \(f) at \(bpm) BPM: \(report.beats) ref \(ref)")
    }

    @Test("downbeats: the accented first beat of each 4/4 bar", arguments: [90.0, 140])
    func downbeats(bpm: Double) throws {
        let (x, ref) = Self.clickTrack(bpm: bpm, seconds: 14, sampleRate: 22050)
        let accents = ref.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
        let report = try OfflineAnalyzer.analyze(left: x, sampleRate: 22050)
        #expect(report.beatsPerBar == 4)
        let f = AnalysisSignals.fMeasure(report.downbeats, accents, tolerance: 0.03)
        #expect(f >= 0.9, "downbeat F \(f): \(report.downbeats)")
        // An unaccented click track has no bar accent to find.
        let plain = AnalysisSignals.clicks(at: ref, seconds: 14, sampleRate: 22050)
        #expect(try OfflineAnalyzer.analyze(left: plain, sampleRate: 22050).downbeats.isEmpty)
    }

    @Test("a drum groove with eighth-note hats: tempo within 1 %, beats on the kicks", arguments: [96.0, 120, 138])
    func groove(bpm: Double) throws {
        let (x, kicks) = AnalysisSignals.groove(bpm: bpm, seconds: 12, sampleRate: 22050)
        let report = try OfflineAnalyzer.analyze(left: x, sampleRate: 22050)
        #expect(abs(report.tempo / bpm - 1) < 0.01, "tempo \(report.tempo) for \(bpm)")
        let f = AnalysisSignals.fMeasure(report.beats, kicks, tolerance: 0.03)
        #expect(f >= 0.95, "beat F \(f) at \(bpm) BPM: \(report.beats)")
    }

    @Test("fast music 150–200 BPM (kick on every beat, off-beat hats 3 or 6 dB quieter, loud snare on 2 and 4): the kick's tempo, not half; beats on every kick",
          arguments: [150.0, 160, 170, 180, 190, 200], [-3.0, -6.0])
    func fastKicks(bpm: Double, hatDecibels: Double) throws {
        let (x, kicks) = AnalysisSignals.fastBeat(bpm: bpm, seconds: 20, sampleRate: 44100, hatDecibels: hatDecibels)
        let report = try OfflineAnalyzer.analyze(left: x, sampleRate: 44100)
        #expect(abs(report.tempo / bpm - 1) < 0.01, "tempo \(report.tempo) for \(bpm)")
        let f = AnalysisSignals.fMeasure(report.beats, kicks, tolerance: 0.03)
        #expect(f >= 0.95, "beat F \(f) at \(bpm) BPM: \(report.beats.count) beats, \(kicks.count) kicks")
    }

    @Test("irregular percussive hits: onsets within 30 ms (F ≥ 0.9)")
    func onsets() throws {
        var seed: UInt64 = 7
        var ref = [Double](), t = 0.25
        while t < 11.5 {
            ref.append(t)
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            t += 0.09 + Double(seed >> 40) / Double(1 << 24) * 0.45
        }
        var x = AnalysisSignals.noise(seconds: 12, sampleRate: 22050, amplitude: 0.005)
        for (i, r) in ref.enumerated() {
            // Levels spread over 24 dB.
            let amp = Float(0.06 + 0.8 * Double((i * 7919) % 11) / 11)
            let c = AnalysisSignals.clicks(at: [r], seconds: 12, sampleRate: 22050, amplitude: amp)
            for j in Int(r * 22050)..<min(x.count, Int(r * 22050) + 400) { x[j] += c[j] }
        }
        let report = try OfflineAnalyzer.analyze(left: x, sampleRate: 22050)
        let f = AnalysisSignals.fMeasure(report.onsets, ref, tolerance: 0.03)
        #expect(f >= 0.9, "onset F-measure \(f): \(report.onsets.count) found, \(ref.count) true")
    }

    @Test("silence: no tempo, beats or onsets; report finite and encodable")
    func silence() throws {
        let report = try OfflineAnalyzer.analyze(left: [Float](repeating: 0, count: 22050 * 5), sampleRate: 22050,
                                                 frameRate: Rational(30))
        #expect(report.tempo == 0 && report.beats.isEmpty && report.onsets.isEmpty)
        #expect(report.loudness.integrated == -120 && report.peak == -120 && report.dominantPitchClasses.isEmpty)
        #expect(report.chroma.allSatisfy { $0.isFinite } && report.loudness.range.isFinite)
        #expect(report.frames?.count == 150)
        #expect(report.frames!.allSatisfy { [$0.rms, $0.level, $0.bass, $0.onset, $0.loudness, $0.centroid].allSatisfy { $0.isFinite } })
        _ = try report.jsonData()
    }

    @Test("live (causal) tracking locks to a click track within a few seconds", arguments: [90.0, 128, 170])
    func live(bpm: Double) throws {
        let (x, ref) = Self.clickTrack(bpm: bpm, seconds: 12, sampleRate: 22050)
        try Self.expectLiveLock(x, sampleRate: 22050, bpm: bpm, beatsAt: ref, until: 11.8)
    }

    /// Runs `signal` through the live (causal) tracker at 60 fps and expects its tempo within 2 % of
    /// `bpm` at the end and, after 5 s, a beat on every reference beat up to `until` seconds (each
    /// in its own frame: a frame's start is at most 1/60 s before its beat; F ≥ 0.9 at ±30 ms).
    static func expectLiveLock(_ signal: [Float], sampleRate: Int, bpm: Double, beatsAt reference: [Double],
                               until: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var beats = [Double](), tempo: Float = 0
        try AnalysisSignals.run(signal, sampleRate: sampleRate, fps: Rational(60)) { _, f in
            if f.isBeat { beats.append(f.time) }
            tempo = f.tempo
        }
        #expect(abs(Double(tempo) / bpm - 1) < 0.02, "live tempo \(tempo) for \(bpm)", sourceLocation: sourceLocation)
        let later = reference.filter { $0 > 5 && $0 < until }
        let f = AnalysisSignals.fMeasure(beats.filter { $0 > 4.98 }.map { $0 + 1.0 / 120 }, later, tolerance: 0.03)
        #expect(f >= 0.9, "live beat F \(f) at \(bpm) BPM", sourceLocation: sourceLocation)
    }

    @Test("live (causal) tracking of fast music (kick on every beat, quieter off-beat hats, snare on 2 and 4): the kick's tempo, a beat on every kick",
          arguments: [150.0, 170, 190, 200])
    func liveFast(bpm: Double) throws {
        let (x, kicks) = AnalysisSignals.fastBeat(bpm: bpm, seconds: 14, sampleRate: 44100)
        try Self.expectLiveLock(x, sampleRate: 44100, bpm: bpm, beatsAt: kicks, until: 13.8)
    }

    @Test("a beat grid drives isBeat on frame floor(b·fps), phase rises between beats")
    func beatGrid() throws {
        let grid = [0.5, 1.0123, 1.5, 2.02, 2.5]
        let x = [Float](repeating: 0, count: 3 * 44100)
        let fx = try FeatureExtractor(sampleRate: 44100, fps: Rational(60))
        fx.setBeatGrid(times: grid, tempo: 120, downbeats: [1.0123, 2.02])
        fx.append(left: x)
        fx.finish()
        var f = fx.makeFeatures()
        var beatFrames = [Int](), downbeatFrames = [Int](), lastPhase: Float = -1, lastBar: Float = -1
        for i in 0..<180 {
            fx.computeFeatures(forFrame: i, into: &f)
            if f.isDownbeat { downbeatFrames.append(i) }
            if i > 61 && i < 150 && !f.isDownbeat { #expect(f.barPhase > lastBar) }
            lastBar = f.barPhase
            if f.isBeat {
                beatFrames.append(i)
                #expect(f.beatPulse == 1 && f.beatPhase == 0)
            } else if i > 31 && i < 150 {
                #expect(f.beatPhase > lastPhase && f.beatPulse < 1)
            }
            lastPhase = f.beatPhase
            #expect(f.tempo == 120 || i < 30)
        }
        #expect(beatFrames == grid.map { Rational(60).frame(at: $0) })
        #expect(downbeatFrames == [60, 121])
    }
}

@Suite("Analysis: broken input")
struct AnalysisBrokenInputTests {
    @Test("NaN and infinity in the input never reach the features or the report")
    func nonFinite() throws {
        var x = AnalysisSignals.sine(frequency: 300, seconds: 2, sampleRate: 22050)
        for i in stride(from: 100, to: x.count, by: 997) { x[i] = i % 2 == 0 ? .nan : .infinity }
        var ok = true
        try AnalysisSignals.run(x, sampleRate: 22050, fps: Rational(30)) { _, f in
            ok = ok && [f.rms, f.peak, f.level, f.bass, f.centroid, f.flux, f.loudnessMomentary, f.onset].allSatisfy { $0.isFinite }
                && (f.bands + f.bandsDecibels + f.chroma + f.waveformLeft).allSatisfy { $0.isFinite }
        }
        #expect(ok)
        let r = try OfflineAnalyzer.analyze(left: x, right: x, sampleRate: 22050)
        #expect(r.loudness.integrated.isFinite && r.peak.isFinite && r.tempo.isFinite)
        #expect(abs(r.peak - 20 * log10(0.5)) < 0.1)
        _ = try r.jsonData()
    }
}
