import Foundation
@testable import MarbleAnalysis
import MarbleCore
import Testing

/// Songs longer than the rhythm window (``RhythmStream``): memory stays flat, and beats go on across
/// the window seams with none lost or doubled.
@Suite("Analysis: long songs")
struct AnalysisLongSongTests {
    /// A click track generated chunk by chunk (so hours of it cost no memory): a 15 ms decaying noise
    /// burst on every beat from `start` until 50 ms before `seconds`, 6 dB up every fourth beat when
    /// `accents`, over quiet noise.
    struct ClickStream {
        let sampleRate: Int, bpm: Double, seconds: Double, start: Double, accents: Bool
        private(set) var position = 0
        private var seed: UInt32 = 12345

        init(sampleRate: Int, bpm: Double, seconds: Double, start: Double = 0.37, accents: Bool = false) {
            self.sampleRate = sampleRate; self.bpm = bpm; self.seconds = seconds; self.start = start; self.accents = accents
        }

        func beat(_ k: Int) -> Double { start + Double(k) * 60 / bpm }

        mutating func next(_ n: Int) -> [Float] {
            var x = [Float](repeating: 0, count: n)
            let sr = Double(sampleRate), len = Int(0.015 * sr)
            for i in 0..<n {
                seed = seed &* 1664525 &+ 1013904223
                x[i] = 0.01 * Float(Int32(bitPattern: seed)) / Float(Int32.max)
            }
            // Beats whose burst overlaps this chunk.
            var k = max(0, Int(((Double(position - len) / sr - start) * bpm / 60).rounded(.down)))
            while true {
                let s = Int((beat(k) * sr).rounded())
                if s >= position + n || beat(k) >= seconds - 0.05 { break }
                let amplitude: Float = accents && k % 4 == 0 ? 0.9 : 0.45
                for i in min(len, max(0, position - s))..<len where s + i < position + n {
                    let r = Float(Int32(bitPattern: UInt32(truncatingIfNeeded: (s + i) &* 2654435761))) / Float(Int32.max)
                    x[s + i - position] += amplitude * r * Float(exp(-Double(i) / (0.003 * sr)))
                }
                k += 1
            }
            position += n
            return x
        }

        /// The click times.
        var beats: [Double] {
            stride(from: start, to: seconds - 0.05, by: 60 / bpm).map { $0 }
        }
    }

    /// F-measure of sorted detections against sorted references, one-to-one within `tolerance`
    /// (linear: the tolerance is under half the spacing, so the nearest match is the only one).
    static func fMeasure(_ detected: [Double], _ reference: [Double], tolerance: Double) -> Double {
        guard !detected.isEmpty, !reference.isEmpty else { return detected.isEmpty && reference.isEmpty ? 1 : 0 }
        var i = 0, hits = 0
        for r in reference {
            while i < detected.count, detected[i] < r - tolerance { i += 1 }
            if i < detected.count, abs(detected[i] - r) <= tolerance { hits += 1; i += 1 }
        }
        let p = Double(hits) / Double(detected.count), r = Double(hits) / Double(reference.count)
        return p + r > 0 ? 2 * p * r / (p + r) : 0
    }

    static func feed(_ analyzer: OfflineAnalyzer, _ stream: inout ClickStream, until seconds: Double) {
        let end = Int(seconds * Double(stream.sampleRate))
        while stream.position < end {
            let chunk = stream.next(min(16384, end - stream.position))
            chunk.withUnsafeBufferPointer { analyzer.append(left: $0, right: nil) }
        }
    }

    @Test("20 minutes in chunks: the analyser's working storage stays bounded by its window and does not grow")
    func flatMemory() throws {
        // The default 5-minute window: its working storage is allocated once, under 2.5 MB.
        #expect(try OfflineAnalyzer(sampleRate: 48000).retainedBytes.working < 2_500_000)
        // A 1-minute window, so that 20 minutes cross 26 seams; 8 kHz keeps this fast in a debug
        // build (the envelope has 100 values per second at any rate).
        let seconds = 1200.0
        var stream = ClickStream(sampleRate: 8000, bpm: 120, seconds: seconds)
        let analyzer = try OfflineAnalyzer(sampleRate: 8000, configuration: AnalysisConfiguration(), frameRate: nil,
                                           rhythmWindow: 60, rhythmOverlap: 15)
        Self.feed(analyzer, &stream, until: 300)
        let early = analyzer.retainedBytes
        Self.feed(analyzer, &stream, until: seconds)
        let late = analyzer.retainedBytes
        // The whole envelope (6 floats per hop) would be 2.9 MB by now, and grow by 1.4 MB every 10 minutes.
        #expect(late.working < 500_000, "working storage \(late.working) bytes")
        #expect(late.working <= early.working + 16_384, "working storage grew from \(early.working) to \(late.working) bytes")
        let report = analyzer.finish()
        let found = report.beats.count + report.onsets.count
        #expect(late.results <= 64 * found + 65_536, "results \(late.results) bytes for \(found) beats and onsets")
        // Every click found once across the seams, and the tempo right.
        #expect(abs(report.tempo / 120 - 1) < 0.01, "tempo \(report.tempo)")
        let f = Self.fMeasure(report.beats, stream.beats, tolerance: 0.03)
        #expect(f == 1, "beat F-measure \(f): \(report.beats.count) beats for \(stream.beats.count) clicks")
    }

    @Test("a click track across window seams: every click found once, tempo within 1 %",
          arguments: [72.0, 100, 128, 165, 180])
    func seams(bpm: Double) throws {
        // 30 s windows overlapping by 8 s: 100 s crosses four seams.
        let seconds = 100.0
        var stream = ClickStream(sampleRate: 22050, bpm: bpm, seconds: seconds, accents: true)
        let analyzer = try OfflineAnalyzer(sampleRate: 22050, configuration: AnalysisConfiguration(), frameRate: nil,
                                           rhythmWindow: 30, rhythmOverlap: 8)
        Self.feed(analyzer, &stream, until: seconds)
        let report = analyzer.finish()
        let clicks = stream.beats
        #expect(abs(report.tempo / bpm - 1) < 0.01, "tempo \(report.tempo) for \(bpm)")
        let f = Self.fMeasure(report.beats, clicks, tolerance: 0.03)
        #expect(f == 1, "beat F-measure \(f): \(report.beats.count) beats for \(clicks.count) clicks")
        let gaps = zip(report.beats, report.beats.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { abs($0 * bpm / 60 - 1) < 0.05 }, "a beat doubled or lost: gaps \(gaps.min() ?? 0)…\(gaps.max() ?? 0) s")
        // Bars go on across the seams too: the accented clicks are the downbeats.
        #expect(report.beatsPerBar == 4)
        let accented = clicks.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
        #expect(Self.fMeasure(report.downbeats, accented, tolerance: 0.03) == 1)
    }

    @Test("a drum groove across window seams: beats on the kicks, tempo within 1 %", arguments: [96.0, 138])
    func grooveSeams(bpm: Double) throws {
        let (x, kicks) = AnalysisSignals.groove(bpm: bpm, seconds: 75, sampleRate: 22050)
        let analyzer = try OfflineAnalyzer(sampleRate: 22050, configuration: AnalysisConfiguration(), frameRate: nil,
                                           rhythmWindow: 25, rhythmOverlap: 8)
        x.withUnsafeBufferPointer { analyzer.append(left: $0, right: nil) }
        let report = analyzer.finish()
        #expect(abs(report.tempo / bpm - 1) < 0.01, "tempo \(report.tempo) for \(bpm)")
        let f = Self.fMeasure(report.beats, kicks, tolerance: 0.03)
        #expect(f == 1, "beat F \(f) at \(bpm) BPM: \(report.beats.count) beats for \(kicks.count) kicks")
    }
}
