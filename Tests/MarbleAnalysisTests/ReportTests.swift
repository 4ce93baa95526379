import Foundation
@testable import MarbleAnalysis
import MarbleCore
@testable import MarbleMedia
import Testing

@Suite("Analysis: report")
struct AnalysisReportTests {
    @Test("JSON has the documented keys; summary names tempo, loudness and pitch classes")
    func json() throws {
        let sr = 22050
        // An A-major triad (A3, C#4, E4) with a 120 BPM click.
        let chord = zip(zip(AnalysisSignals.sine(frequency: 220, amplitude: 0.2, seconds: 6, sampleRate: sr),
                            AnalysisSignals.sine(frequency: 277.18, amplitude: 0.2, seconds: 6, sampleRate: sr)),
                        AnalysisSignals.sine(frequency: 329.63, amplitude: 0.2, seconds: 6, sampleRate: sr)).map { $0.0 + $0.1 + $1 }
        let clicks = AnalysisSignals.clicks(at: AnalysisSignals.beatTimes(bpm: 120, seconds: 6), seconds: 6, sampleRate: sr)
        let x = zip(chord, clicks).map { $0 + $1 }
        let report = try OfflineAnalyzer.analyze(left: x, sampleRate: sr, frameRate: Rational(30))
        #expect(Set(report.dominantPitchClasses) == ["A", "C#", "E"], "\(report.dominantPitchClasses) \(report.chroma)")
        let object = try JSONSerialization.jsonObject(with: report.jsonData()) as! [String: Any]
        for key in ["duration", "tempo", "beats", "onsets", "loudness", "peak", "dominantPitchClasses", "chroma", "frames", "sampleRate"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        let loudness = object["loudness"] as! [String: Any]
        #expect(loudness["integrated"] is Double && loudness["range"] is Double)
        #expect((object["frames"] as! [Any]).count == 180)
        #expect(abs((object["duration"] as! Double) - 6) < 1e-9)
        let back = try JSONDecoder().decode(AnalysisReport.self, from: report.jsonData())
        #expect(back.beats.count == report.beats.count)
        let text = report.summary()
        #expect(text.contains("Tempo      120.0 BPM") && text.contains("LUFS") && text.contains("Pitch      ") && text.contains("C#"), "\(text)")
    }

    @Test("the summary rounds the whole duration to tenths (no \"0:60.0\" or \"0:010.0\")")
    func summaryDuration() {
        func line(_ duration: Double) -> String {
            let r = AnalysisReport(duration: duration, sampleRate: 44100, tempo: 0, beats: [], downbeats: [], beatsPerBar: 0,
                                   onsets: [], loudness: .init(integrated: -120, range: 0, momentaryMax: -120, shortTermMax: -120),
                                   peak: -120, dominantPitchClasses: [], chroma: [], frames: nil, frameRate: nil)
            return String(r.summary().split(separator: "\n")[0])
        }
        #expect(line(59.96) == "Duration   1:00.0 (59.96 s, 44100 Hz)")
        #expect(line(119.99) == "Duration   2:00.0 (119.99 s, 44100 Hz)")
        #expect(line(9.97) == "Duration   0:10.0 (9.97 s, 44100 Hz)")
        #expect(line(192.44) == "Duration   3:12.4 (192.44 s, 44100 Hz)")
    }

    @Test("TimeFormat.clock: seconds, hours, tenths, and nonsense")
    func clock() {
        #expect(TimeFormat.clock(0) == "0:00")
        #expect(TimeFormat.clock(59.6) == "1:00")
        #expect(TimeFormat.clock(3723) == "1:02:03")
        #expect(TimeFormat.clock(3599.96, tenths: true) == "1:00:00.0")
        #expect(TimeFormat.clock(-1) == "--:--" && TimeFormat.clock(.nan) == "--:--")
    }

    @Test("streaming in chunks gives the same report as one call")
    func chunks() throws {
        let (x, _) = AnalysisRhythmTests.clickTrack(bpm: 110, seconds: 6, sampleRate: 22050)
        let whole = try OfflineAnalyzer.analyze(left: x, sampleRate: 22050)
        let a = try OfflineAnalyzer(sampleRate: 22050)
        var i = 0
        while i < x.count {
            let n = min(777, x.count - i)
            x[i..<(i + n)].withUnsafeBufferPointer { a.append(left: $0, right: nil) }
            i += n
        }
        #expect(a.finish() == whole)
    }

    @Test("the benchmark runs and reports a speed")
    func benchmark() throws {
        let r = try AnalysisBenchmark.run(seconds: 2, repetitions: 1)
        #expect(r.seconds > 0 && r.realTimeFactor > 1)
    }
}
