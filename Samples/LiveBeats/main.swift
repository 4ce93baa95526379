// Beats as live mode hears them: the causal analysis (no look-ahead, no first pass) of a file played
// through as if it were captured, or of what PulseAudio is playing now (--capture, Ctrl-C to stop).
//
//   swift run LiveBeats [song]                    (default: Samples/sample.ogg)
//   swift run LiveBeats --capture
import Foundation
import MarbleKit

/// Writes a line at once (unbuffered, even into a pipe).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// One line per beat: its time, the tempo the tracker follows, and the level.
func report(_ f: AudioFeatures) {
    guard f.isBeat else { return }
    say(String(format: "%7.2f s  beat%@  %5.1f BPM  level %.2f", f.time, f.isDownbeat ? " (downbeat)" : "", f.tempo, f.level))
}

let fps = Rational(60)
let arguments = CommandLine.arguments.dropFirst()
do {
    if arguments.first == "--capture" {
        let capture = try AudioCapture(options: CaptureOptions())
        try capture.start()
        let extractor = try FeatureExtractor(sampleRate: capture.sampleRate, fps: fps)
        var features = extractor.makeFeatures()
        let start = capture.buffer.written
        var fed = start, frame = 0
        say("listening to \(capture.sourceName ?? "the default monitor")")
        while true {
            let written = capture.buffer.wait(after: fed, timeout: 1)
            capture.buffer.read(from: fed, upTo: written) { left, right in extractor.append(left: left, right: right) }
            fed = written
            while extractor.samplesNeeded(forFrame: frame) <= fed - start {
                extractor.computeFeatures(forFrame: frame, into: &features)
                features.time = fps.seconds(ofFrame: frame)
                report(features)
                frame += 1
            }
        }
    } else {
        try MediaAnalysis.followCausally(path: arguments.first ?? "Samples/sample.ogg", fps: fps) { features in
            report(features)
            return true
        }
    }
} catch {
    FileHandle.standardError.write(Data("live-beats: \(error.message)\n".utf8))
    exit(1)
}
