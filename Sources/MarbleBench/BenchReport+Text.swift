import Foundation

extension BenchReport {
    static let columns = ["benchmark", "kind", "size", "thr", "p50 ms", "p95 ms", "p99 ms", "max ms", "fps",
                          "budget", "allocs/frame"]

    /// The terminal table: aligned columns, stages of presets indented under them.
    package func table() -> String {
        var lines = [header]
        if results.isEmpty { lines = [machine.summary] }
        var cells: [[String]] = results.isEmpty ? [] : [Self.columns]
        for row in rows(includeStages: true) {
            let s = row.stats
            cells.append([row.isStage ? "  " + row.label : row.label, row.kind, row.size, row.threads,
                          Self.number(s.p50), Self.number(s.p95), Self.number(s.p99), Self.number(s.max),
                          row.fps.map { Self.number($0) } ?? "", share(s), allocations(s.allocationsPerFrame)])
        }
        let widths = (0..<Self.columns.count).map { c in cells.map { $0[c].count }.max() ?? 0 }
        // (no rows at all when only --compare-ffmpeg ran)
        for (i, row) in cells.enumerated() {
            let text = row.enumerated().map { c, cell in
                c == 0 || c == 1 ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
            lines.append(text)
            if i == 0 { lines.append(String(repeating: "-", count: text.count)) }
        }
        if !comparisons.isEmpty { lines += [""] + comparisonLines() }
        if !results.isEmpty {
            lines.append(allocationsCounted
                ? "allocations: mallocs on every thread, counted by the allocation counter (checked with a deliberate allocation at start)"
                : "allocations: n/a (libMarbleAllocationCounter.so was not loaded before libc)")
        }
        lines.append(String(format: "peak RSS: %.0f MB", results.map(\.peakRSSMegabytes).max() ?? MachineInfo.peakRSSMegabytes()))
        return lines.joined(separator: "\n")
    }

    func comparisonLines() -> [String] {
        var lines = ["vs FFmpeg (same song → MP4, x264 + AAC \(FFmpegComparison.audioKilobits) kbit/s; speed = song seconds / wall seconds, median of \(comparisons[0].rounds) alternating rounds; CPU = user + system seconds):"]
        for c in comparisons {
            lines.append(String(format: "  %@ %dx%d@%.0f %@: ours %.2fx real time (%.1f s, CPU %.1f s), ffmpeg %.2fx (%.1f s, CPU %.1f s) → ratio %.2f",
                                c.filter, c.width, c.height, c.fps, c.encoderPreset, c.oursSpeed, c.oursSeconds, c.oursCPUSeconds,
                                c.ffmpegSpeed, c.ffmpegSeconds, c.ffmpegCPUSeconds, c.ratio))
        }
        for c in comparisons where c.filter == comparisons[0].filter {
            if let speed = c.encoderOnlySpeed {
                lines.append(String(format: "  encoders alone (black frames through x264, the song through AAC) %dx%d@%.0f: %.2fx real time (CPU %.1f s), ratio %.2f against %@: about the most any visualiser could reach; ours reaches %.0f%% of its speed",
                                    c.width, c.height, c.fps, speed, c.encoderOnlyCPUSeconds, c.ratioCeiling ?? 0, c.filter, 100 * (c.shareOfCeiling ?? 0)))
            }
            if let speed = c.ownPicturesSpeed {
                lines.append(String(format: "  encoders alone on our own pictures (drawn beforehand; our encoding sink timed%@) %dx%d@%.0f: %.2fx real time (CPU %.1f s); ours reaches %.0f%% of its speed",
                                    c.ownPicturesSameBytes == true ? ", the render's bytes" : ", NOT the render's bytes",
                                    c.width, c.height, c.fps, speed, c.ownPicturesCPUSeconds, 100 * (c.shareOfOwnCeiling ?? 0)))
            }
        }
        return lines
    }

    /// The table of docs/BENCHMARKS.md: the machine, then one Markdown table (stages as "preset · stage" rows).
    package func markdown() -> String {
        var out = "Measured on \(machine.cpu), \(machine.cores) cores, \(machine.os) (\(machine.swiftBuild) build)"
        if !results.isEmpty {
            out += String(format: ", %d frames after %d warm-up; budget %.1f ms per frame at %@ fps",
                          configuration.frames, configuration.warmup, budget, configuration.fps.description)
        }
        out += (machine.load.map { String(format: "; load average %.2f when the run started", $0) } ?? "") + ".\n"
        if !results.isEmpty {
            out += "\n| benchmark | kind | size | threads | p50 ms | p95 ms | p99 ms | max ms | fps | of budget | allocs/frame |\n"
            out += "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        }
        var parent = ""
        for row in rows(includeStages: true) {
            let s = row.stats
            if !row.isStage { parent = row.label }
            let label = row.isStage ? "\(parent) · \(row.label)" : "**\(row.label)**"
            out += "| \(label) | \(row.kind) | \(row.size) | \(row.threads) | \(Self.number(s.p50)) | \(Self.number(s.p95)) | "
            out += "\(Self.number(s.p99)) | \(Self.number(s.max)) | \(row.fps.map { Self.number($0) } ?? "") | \(share(s)) | "
            out += "\(allocations(s.allocationsPerFrame)) |\n"
        }
        if !comparisons.isEmpty {
            out += String(format: "\nSame %.0f s song → MP4 (x264 CRF %d, AAC %d kbit/s), median of %d alternating rounds; speed = song seconds / wall seconds; CPU = user + system seconds of the whole job.\n",
                          comparisons[0].songSeconds, configuration.crf, FFmpegComparison.audioKilobits, comparisons[0].rounds)
            out += "Encoders alone (the ceiling): the same number of black frames through the same x264 settings and the song through the same AAC encoder, nothing drawn: about the fastest any song → MP4 job with these encoders runs here, so FFmpeg's time over it is about the highest ratio reachable. On our pictures: every frame of our render drawn beforehand into memory, then only our encoding sink (x264, AAC, muxer) timed: the ceiling of this preset, whose pictures x264 takes longer to encode than black.\n"
            out += "\n| vs FFmpeg filter | size | encoder | ours (x real time) | FFmpeg (x real time) | ceiling (x real time) | ours / FFmpeg | ceiling / FFmpeg | ours / ceiling | ceiling on our pictures (x real time) | ours / that | ours CPU s | FFmpeg CPU s | ceiling CPU s | on our pictures CPU s |\n"
            out += "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
            func optional(_ v: Double?, _ format: String) -> String { v.map { String(format: format, $0) } ?? "" }
            for c in comparisons {
                out += String(format: "| %@ | %dx%d@%.0f | x264 %@ | %.2f | %.2f | %@ | %.2f | %@ | %@ | %@ | %@ | %.1f | %.1f | %@ | %@ |\n", c.filter, c.width, c.height,
                              c.fps, c.encoderPreset, c.oursSpeed, c.ffmpegSpeed, optional(c.encoderOnlySpeed, "%.2f"), c.ratio,
                              optional(c.ratioCeiling, "%.2f"), optional(c.shareOfCeiling.map { $0 * 100 }, "%.0f %%"),
                              optional(c.ownPicturesSpeed, "%.2f"), optional(c.shareOfOwnCeiling.map { $0 * 100 }, "%.0f %%"),
                              c.oursCPUSeconds, c.ffmpegCPUSeconds, optional(c.encoderOnlySeconds > 0 ? c.encoderOnlyCPUSeconds : nil, "%.1f"),
                              optional(c.ownPicturesSeconds > 0 ? c.ownPicturesCPUSeconds : nil, "%.1f"))
            }
        }
        return out
    }
}
