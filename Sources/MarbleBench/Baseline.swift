import Foundation
import MarbleCore

/// The committed reference for `marble bench --guard`: each kernel's and preset's frame cost relative to
/// a trivial arithmetic reference kernel (`ReferenceKernel`) timed in the same run, and how much that ratio may grow.
///
/// Ratios rather than milliseconds: a slower or busier machine scales every kernel and the reference
/// alike, so the file stays valid on CI machines of another speed. Refresh it with
/// `marble bench --write-baseline` (release build) after a deliberate change in cost.
package struct Baseline: Sendable, Codable, Equatable {
    /// The kernel every cost is divided by.
    package var reference: String
    package var width: Int
    package var height: Int
    package var threads: Int
    package var frames: Int
    /// Timed rounds; each benchmark keeps its best median.
    package var rounds: Int
    /// Allowed growth of a ratio: 0.5 lets a kernel become 1.5x as costly (relative to `reference`).
    package var margin: Double
    /// Allowed growth in units of the reference, whichever is larger: near-trivial kernels (a fill or a
    /// copy costs a few hundredths of the reference) swing with memory contention by more than `margin`
    /// of their tiny cost.
    package var slack: Double
    /// Allowed growth in frame copies (`ReferenceKernel.copyMilliseconds`, measured in the same run),
    /// whichever is larger: a kernel that copies or blends whole frames is bound by memory bandwidth, which
    /// on a shared machine moves independently of the arithmetic reference (`stars` and `media`, a frame
    /// copy each when the picture is opaque, measured 3-4x their ratio on one CI machine and not another).
    package var copySlack: Double
    /// "release" or "debug": ratios from one are not comparable with the other.
    package var build: String
    /// Where it was measured (information only).
    package var machine: String
    /// "shader/NAME" or "preset/NAME" → median frame time / reference median frame time.
    package var ratios: [String: Double]

    package init(reference: String = "reference", width: Int = 1280, height: Int = 720, threads: Int = 1, frames: Int = 20,
                rounds: Int = 5, margin: Double = 0.5, slack: Double = 0.05, copySlack: Double = 2, build: String = BuildInfo.configuration,
                machine: String = MachineInfo.current().summary, ratios: [String: Double] = [:]) {
        self.reference = reference; self.width = width; self.height = height; self.threads = threads
        self.frames = frames; self.rounds = rounds; self.margin = margin; self.slack = slack; self.copySlack = copySlack
        self.build = build
        self.machine = machine; self.ratios = ratios
    }

    /// Where the repository keeps it.
    package static let defaultPath = "Tests/Bench/baseline.json"

    package static func load(_ path: String) throws(MarbleError) -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MarbleError(.option, "\(path): no benchmark baseline there (create it with `marble bench --write-baseline`)")
        }
        do { return try JSONDecoder().decode(Baseline.self, from: data) } catch {
            throw MarbleError(.option, "\(path): not a benchmark baseline (\(error))")
        }
    }

    package func write(to path: String) throws(MarbleError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let url = URL(fileURLWithPath: path)
        var data: Data
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            data = try encoder.encode(self)
            data.append(0x0A)
        } catch {
            throw MarbleError(.output, "\(path): cannot write the baseline (\(error.localizedDescription))")
        }
        try OutputFile.write(data, to: path)
    }
}
