import Foundation
import MarbleKit

/// `marble render --trace FILE`: the file checked before the render, then written (Chrome's trace
/// format) with a summary per thread on stderr.
enum TraceFile {
    /// The trace must be a .json file (so never the output, whose types are media) that is not the
    /// input, in a folder that exists.
    static func check(_ path: String, input: String) throws(MarbleError) {
        guard path.lowercased().hasSuffix(".json") else {
            throw MarbleError(.option, "--trace \(path): expected a .json file (Chrome's trace format)")
        }
        try OutputFile.checkNotAnInput(path, inputs: [(path: input, role: "the input")])
        _ = try OutputFile.checkReplaceable(path)
        try OutputFile.checkFolder(of: path)
    }

    /// Writes the trace and prints, per thread, its share of the render's wall time busy (wall and
    /// CPU) and its three largest kinds of span.
    static func write(_ recording: FrameTrace.Recording, to path: String, frames: Int, wallSeconds: Double) throws(MarbleError) {
        try OutputFile.write(recording.chromeJSON(), to: path)
        let dropped = recording.lanes.reduce(0) { $0 + $1.dropped }
        Console.writeErr("trace: \(recording.spanCount) spans on \(recording.lanes.count) threads → \(path)"
                         + (dropped > 0 ? " (\(dropped) spans past the limit not kept)" : "") + "\n")
        for lane in recording.totals() {
            Console.writeErr(line(for: lane, frames: frames, wallSeconds: wallSeconds) + "\n")
        }
    }

    /// "  render    busy 61% (CPU 55%): draw + YUV 1.62 ms/frame, wait: frame to draw 0.90, …"
    static func line(for lane: FrameTrace.Recording.Totals, frames: Int, wallSeconds: Double) -> String {
        let total = max(wallSeconds, 1e-9) * 1000, perFrame = Double(max(1, frames))
        let largest = lane.wall.sorted { $0.value > $1.value }.prefix(3).map { kind, ms in
            String(format: "%@ %.2f ms/frame (CPU %.2f)", kind.name, ms / perFrame, (lane.cpu[kind] ?? 0) / perFrame)
        }
        let name = lane.lane.padding(toLength: max(10, lane.lane.count), withPad: " ", startingAt: 0)
        return String(format: "  %@ busy %3.0f%% (CPU %3.0f%%): ", name, 100 * lane.busyWall / total, 100 * lane.busyCPU / total)
            + largest.joined(separator: ", ")
    }
}
