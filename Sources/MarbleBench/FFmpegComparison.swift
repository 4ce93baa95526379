import Foundation
import MarbleCore
import MarbleKit
import MarbleMedia
import MarbleRender

/// `marble bench --compare-ffmpeg`: the same song → video job through our `RenderJob` and through the
/// `ffmpeg` command with one of its audio→video filters, at the same size, rate and encoder settings
/// (x264 at the chosen preset and CRF, AAC sound at FFmpeg's default 128 kbit/s, MP4). Runs alternate (ours, FFmpeg's, ours, …) so that
/// a noisy neighbour hurts both sides alike; each side's median wall time (and CPU time) over the rounds counts.
package struct FFmpegComparison {
    package static let filters = ["showcqt", "showfreqs", "showwaves"]
    /// The filters timed (`--compare-filter`; all of ``filters`` when none is named).
    package var compared: [String] = FFmpegComparison.filters
    /// The sizes compared when none is given: 720p, 1080p and 2160p.
    package static let defaultSizes = [BenchConfiguration.Size(1280, 720), BenchConfiguration.Size(1920, 1080),
                                      BenchConfiguration.Size(3840, 2160)]

    package var sizes: [BenchConfiguration.Size]
    package var fps: Rational
    package var encoderPreset: EncoderPreset
    package var crf: Int
    package var threads: Int
    package var songSeconds: Double
    package var rounds: Int
    package var preset: String
    /// Called before each timed run, e.g. to print "ffmpeg showcqt 1920x1080…".
    package var onRun: (String) -> Void = { _ in }

    package init(sizes: [BenchConfiguration.Size], fps: Rational, encoderPreset: EncoderPreset = .ultrafast, crf: Int = 20,
                threads: Int = StripScheduler.availableCores, songSeconds: Double = 10, rounds: Int = 3,
                preset: String = PresetLibrary.defaultName) {
        self.sizes = sizes; self.fps = fps; self.encoderPreset = encoderPreset; self.crf = crf
        self.threads = threads; self.songSeconds = songSeconds; self.rounds = rounds; self.preset = preset
    }

    /// Our sound's bitrate in the comparison: what `ffmpeg -c:a aac` uses when given none (our own
    /// default, 160, costs the AAC encoder about a quarter more time).
    package static let audioKilobits = 128

    /// The `ffmpeg` executable on PATH, or nil.
    package static func ffmpegPath() -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// The FFmpeg command line for one filter (the reference command of the issue, plus our CRF).
    package func arguments(filter: String, size: BenchConfiguration.Size, song: String, output: String) -> [String] {
        let rate = filter == "showcqt" ? "fps=\(fps)" : "rate=\(fps)"
        return ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", song, "-filter_complex",
                "[0:a]\(filter)=s=\(size.width)x\(size.height):\(rate),format=yuv420p[v]", "-map", "[v]", "-map", "0:a",
                "-c:v", "libx264", "-preset", encoderPreset.rawValue, "-crf", "\(crf)", "-c:a", "aac", output]
    }

    /// The encoders alone: as many black frames as the song has, at this size and rate, through the
    /// same x264 settings, and the song's sound through the same AAC encoder, into MP4. Black is about
    /// the cheapest picture x264 encodes, so this is the floor under any song → MP4 job with these
    /// encoders on this machine, whatever draws the pictures.
    package func encoderOnlyArguments(size: BenchConfiguration.Size, song: String, output: String) -> [String] {
        let frames = max(1, Int((songSeconds * fps.doubleValue).rounded(.up)))
        return ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                "color=c=black:s=\(size.width)x\(size.height):r=\(fps)", "-i", song, "-map", "0:v", "-map", "1:a",
                "-frames:v", "\(frames)", "-pix_fmt", "yuv420p",
                "-c:v", "libx264", "-preset", encoderPreset.rawValue, "-crf", "\(crf)", "-c:a", "aac", output]
    }

    package func run(ffmpeg: String) throws(MarbleError) -> [FFmpegComparisonResult] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marble-compare-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let song = folder.appendingPathComponent("song.wav").path
        try BenchSignal(seconds: songSeconds).write(to: song)
        var results: [FFmpegComparisonResult] = []
        let rounds = max(1, self.rounds)
        for size in sizes {
            var ours: [Timing] = []
            var theirs = [String: [Timing]]()
            var encoderOnly: [Timing] = [], ownPictures: [Timing] = []
            let oursFile = folder.appendingPathComponent("ours.mp4").path, ownFile = folder.appendingPathComponent("own.mp4").path
            let frames = fps.frameCount(covering: songSeconds)
            var own: OwnPicturesCeiling?
            if OwnPicturesCeiling.fits(size: size, frames: frames) {
                onRun("drawing every frame of \(preset) \(size) into memory")
                own = try OwnPicturesCeiling(options: renderOptions(song: song, size: size, output: ownFile))
            } else {
                onRun("\(size): \(frames) frames do not fit in half of the memory available: no encoders alone on our pictures")
            }
            for _ in 0..<rounds {
                onRun("marble render \(preset) \(size)")
                ours.append(try runOurs(song: song, size: size, output: oursFile))
                if let own {
                    onRun("encoders alone on our pictures \(size)")
                    ownPictures.append(try own.encode())
                }
                for filter in compared {
                    onRun("ffmpeg \(filter) \(size)")
                    let out = folder.appendingPathComponent("\(filter).mp4").path
                    theirs[filter, default: []].append(try Self.time(ffmpeg, arguments(filter: filter, size: size, song: song, output: out)))
                }
                onRun("ffmpeg encoders alone \(size)")
                let out = folder.appendingPathComponent("encoders-only.mp4").path
                encoderOnly.append(try Self.time(ffmpeg, encoderOnlyArguments(size: size, song: song, output: out)))
            }
            own = nil   // the frames' memory back before the next size
            let sameBytes = ownPictures.isEmpty ? nil : FileManager.default.contentsEqual(atPath: oursFile, andPath: ownFile)
            for filter in compared {
                let other = theirs[filter] ?? []
                results.append(FFmpegComparisonResult(
                    filter: filter, width: size.width, height: size.height, fps: fps.doubleValue,
                    encoderPreset: encoderPreset.rawValue, songSeconds: songSeconds,
                    oursSeconds: Self.median(ours.map(\.wall)), ffmpegSeconds: Self.median(other.map(\.wall)),
                    oursCPUSeconds: Self.median(ours.map(\.cpu)), ffmpegCPUSeconds: Self.median(other.map(\.cpu)),
                    encoderOnlySeconds: Self.median(encoderOnly.map(\.wall)),
                    encoderOnlyCPUSeconds: Self.median(encoderOnly.map(\.cpu)),
                    ownPicturesSeconds: ownPictures.isEmpty ? 0 : Self.median(ownPictures.map(\.wall)),
                    ownPicturesCPUSeconds: ownPictures.isEmpty ? 0 : Self.median(ownPictures.map(\.cpu)),
                    ownPicturesSameBytes: sameBytes, rounds: rounds))
            }
        }
        return results
    }

    /// One timed run: wall and CPU seconds.
    struct Timing {
        var wall: Double
        var cpu: Double
    }

    /// The CI guard's verdict (`--min-ceiling-share`, or with `ownPictures` `--min-own-ceiling-share`): one
    /// line per size ("ok" or "FAIL": our share of the encoders alone's speed, on black frames or on our
    /// own pictures, against `share`), and the sizes below it. A size measured without that ceiling is
    /// left out.
    package static func ceilingShares(_ comparisons: [FFmpegComparisonResult], atLeast share: Double,
                                      ownPictures: Bool = false) -> (lines: [String], below: [String]) {
        var seen = Set<String>(), lines: [String] = [], below: [String] = []
        for c in comparisons where seen.insert("\(c.size) \(c.encoderPreset)").inserted {
            guard let reached = ownPictures ? c.shareOfOwnCeiling : c.shareOfCeiling else { continue }
            let ok = reached >= share
            lines.append(String(format: "%@ %@ x264 %@: ours reaches %.0f%% of the encoders alone's speed %@ (at least %.0f%% asked)",
                                ok ? "ok  " : "FAIL", c.size, c.encoderPreset, reached * 100,
                                ownPictures ? "on our own pictures" : "on black frames", share * 100))
            if !ok { below.append(c.size) }
        }
        return (lines, below)
    }

    /// The median (the mean of the middle two for an even count); infinity for none.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .infinity }
        let sorted = values.sorted(), middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// User + system CPU seconds so far of this process (`RUSAGE_SELF`, every thread) or of its
    /// finished children (`RUSAGE_CHILDREN`).
    static func cpuSeconds(children: Bool) -> Double {
        var usage = rusage()
        guard getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    func runOurs(song: String, size: BenchConfiguration.Size, output: String) throws(MarbleError) -> Timing {
        let o = renderOptions(song: song, size: size, output: output)
        let cpu = Self.cpuSeconds(children: false)
        let start = MonotonicClock.now()
        _ = try RenderJob(options: o).run()
        return Timing(wall: MonotonicClock.milliseconds(since: start) / 1000, cpu: Self.cpuSeconds(children: false) - cpu)
    }

    /// Our render of the comparison: the preset at this size, rate, encoder settings and sound bitrate.
    func renderOptions(song: String, size: BenchConfiguration.Size, output: String) -> RenderOptions {
        var o = RenderOptions(input: song, output: output)
        o.width = size.width
        o.height = size.height
        o.fps = fps
        o.preset = preset
        o.encoderPreset = encoderPreset
        o.crf = crf
        o.threads = threads
        o.audioBitrate = Self.audioKilobits
        return o
    }

    /// Runs a tool to completion and returns its wall and CPU time. The child does not inherit
    /// `LD_PRELOAD` (the allocation counter is ours, not FFmpeg's).
    static func time(_ tool: String, _ arguments: [String]) throws(MarbleError) -> Timing {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = nil
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let cpu = cpuSeconds(children: true)
        let start = MonotonicClock.now()
        do { try process.run() } catch { throw MarbleError(.media, "cannot run \(tool): \(error)") }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let seconds = MonotonicClock.milliseconds(since: start) / 1000
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
            throw MarbleError(.media, "\(URL(fileURLWithPath: tool).lastPathComponent) failed (exit \(process.terminationStatus)): \(text)")
        }
        return Timing(wall: seconds, cpu: cpuSeconds(children: true) - cpu)
    }
}
