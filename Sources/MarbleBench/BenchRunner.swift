import Foundation
import Shaders
import MarbleCore
import MarbleRender

/// Runs `marble bench`: every shader, every preset, and the whole pipeline, at each size and thread count.
///
/// Comparable runs: the same synthetic song (``BenchSignal``) analysed by the real `FeatureExtractor`,
/// default parameters, warm-up frames before measuring, a monotonic clock, HdrHistogram percentiles.
package final class BenchRunner {
    package let configuration: BenchConfiguration
    /// Called after each benchmark (for a progress line).
    package var onResult: (BenchResult) -> Void = { _ in }
    private let signal: BenchSignal
    private let workFolder: URL

    package init(configuration: BenchConfiguration) throws(MarbleError) {
        try configuration.validate()
        self.configuration = configuration
        let seconds = Double(configuration.warmup + configuration.frames) / configuration.fps.doubleValue + 1
        signal = BenchSignal(seconds: seconds)
        workFolder = FileManager.default.temporaryDirectory.appendingPathComponent("marble-bench-\(getpid())")
        do { try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true) }
        catch { throw MarbleError(.output, "\(workFolder.path): cannot create a temporary folder") }
    }

    deinit { try? FileManager.default.removeItem(at: workFolder) }

    /// Presets the run covers: every bundled one that matches the filter.
    package var presetNames: [String] { PresetLibrary.names().filter(configuration.matches) }

    package func run() throws(MarbleError) -> BenchReport {
        let c = configuration
        var results: [BenchResult] = []
        func add(_ r: BenchResult) { results.append(r); onResult(r) }
        let song = workFolder.appendingPathComponent("song.wav").path
        try signal.write(to: song)
        let features = try signal.features(fps: c.fps, frames: c.warmup + c.frames)

        for size in c.sizes {
            for threads in c.threads {
                if c.includeShaders {
                    let picture = ShaderBench.picture(size: size, features: features[min(features.count - 1, 60)], fps: c.fps)
                    for type in ShaderLibrary.all where c.matches(type.descriptor.name) {
                        add(try ShaderBench(type: type, size: size, threads: threads)
                            .run(features: features, configuration: c, picture: picture))
                    }
                }
                if c.includePresets {
                    for name in presetNames {
                        let preset = try PresetLibrary.load(name)
                        add(try PresetBench(preset: preset, size: size, threads: threads).run(song: song, configuration: c))
                    }
                }
                if c.includeMilkDrop {
                    for scene in MilkDropBenchSet.scenes() where c.matches(scene.name) {
                        add(try PresetBench(preset: scene, size: size, threads: threads).run(song: song, configuration: c))
                    }
                }
                if c.includePipeline && c.encode && c.matches("render \(PresetLibrary.defaultName)") {
                    add(try PipelineBench(preset: PresetLibrary.defaultName, size: size, threads: threads)
                        .run(song: song, configuration: c))
                }
            }
        }
        return BenchReport(machine: .current(), configuration: c, results: results, comparisons: [],
                           allocationsCounted: AllocationCounter.isCounting)
    }
}
