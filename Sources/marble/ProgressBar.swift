import Foundation
import MarbleKit

/// A one-line progress bar with ETA and speed on stderr, drawn only when stderr is a terminal.
struct ProgressBar {
    let enabled: Bool
    private var width: Int { 28 }

    init(quiet: Bool) { enabled = !quiet && Console.stderrIsTerminal }

    func update(_ p: RenderProgress) {
        guard enabled else { return }
        let speed = p.wallSeconds > 0 ? p.mediaSeconds / p.wallSeconds : 0
        var line = ""
        if p.phase == .analysing {
            let fraction = p.expectedSeconds.map { min(1, p.mediaSeconds / max(0.001, $0)) }
            line = fraction.map { String(format: "analysing the song (tempo, beats) %3d%%", Int($0 * 100)) }
                ?? "analysing the song (tempo, beats) " + TimeFormat.clock(p.mediaSeconds)
        } else if p.phase == .replaying, let first = p.expectedFrames, first > 0 {
            line = String(format: "replaying the frames before the segment %3d%%", Int(Double(p.frames) / Double(first) * 100))
        } else if let total = p.expectedFrames, total > 0 {
            let fraction = min(1, Double(p.frames) / Double(total))
            let filled = Int(fraction * Double(width))
            let eta = speed > 0 ? (Double(total - p.frames) / Double(max(1, p.frames))) * p.wallSeconds : .nan
            line = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "]"
            line += String(format: " %3d%%  %d/%d frames  %.2fx  ETA %@", Int(fraction * 100), p.frames, total, speed, TimeFormat.clock(eta))
        } else {
            line = String(format: "%d frames  %@  %.2fx", p.frames, TimeFormat.clock(p.mediaSeconds), speed)
        }
        Console.showProgress(line)
    }

    func clear() {
        guard enabled else { return }
        Console.clearProgress()
    }
}

/// Raises a cancellation flag on any of the ``StopSignals`` (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT,
/// SIGUSR1/SIGUSR2, SIGALRM, SIGPIPE from another process): the job stops at the next frame and removes
/// or finishes its output. A second signal ends the process at once, after deleting the temporary files
/// still being written, so no `.NAME.partial-TAG` is left behind.
final class InterruptHandler {
    let flag = CancellationFlag()
    private let watch: StopSignals.Watch

    init() {
        let flag = self.flag
        watch = StopSignals.watch { _ in
            if flag.isCancelled {
                OutputFile.removeTemporaryFiles()
                _exit(130)
            }
            flag.cancel()
        }
    }
}
