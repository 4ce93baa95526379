import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

/// MediaWriter with sound handed over as samples (a live recording's sink), and with a file's
/// sound on the SoundThread: read back with ffprobe and AudioDecoder.
@Suite("MediaWriter", .serialized)
struct MediaWriterTests {
    static let fps = 30
    static let settings = VideoEncoder.Settings(width: 320, height: 180, fps: Rational(fps), crf: 30,
                                                preset: .ultrafast, threads: 2, globalHeader: false)

    /// Writes `frames` grey frames and `sound` (planar, at `rate`) the way a live sink does: before each
    /// frame, the sound that has arrived by the end of it, in blocks that do not line up with frames.
    func record(_ path: String, format: OutputFormat, frames: Int, rate: Int, sound: [[Float]],
                lead: Double = 0) throws -> MediaWriter {
        let writer = try MediaWriter(path: path, format: format, settings: Self.settings,
                                         sound: .samples(sampleRate: rate, channels: sound.count, bitrate: nil))
        let picture = try greyFrame(width: 320, height: 180)
        let sizes = [1777, 613, 2048, 97]
        var next = 0, k = 0
        for frame in 0..<frames {
            let due = min(sound[0].count, Int((Double(frame + 1) / Double(Self.fps) + lead) * Double(rate)))
            while next < due {
                let n = min(sizes[k % sizes.count], due - next)
                try sound[0].withUnsafeBufferPointer { l in
                    let left = UnsafeBufferPointer(rebasing: l[next..<next + n])
                    guard sound.count == 2 else { return try writer.appendSound(left: left, right: nil) }
                    try sound[1].withUnsafeBufferPointer { r in
                        try writer.appendSound(left: left, right: UnsafeBufferPointer(rebasing: r[next..<next + n]))
                    }
                }
                next += n
                k += 1
            }
            try writer.write(picture)
        }
        return writer
    }

    /// A quiet 440 Hz tone with a click at each of `clicks` (seconds).
    func toneWithClicks(_ clicks: [Double], rate: Int, seconds: Double) -> [Float] {
        TestSignal.sine(440, amplitude: 0.02, rate: rate, seconds: seconds).enumerated().map { i, v in
            let t = Double(i) / Double(rate)
            return clicks.reduce(v) { $0 + TestSignal.click(at: $1, t) }
        }
    }

    @Test("recorded samples: H.264 + AAC (or VP9 + Opus), N frames at CFR, sound as long as the video, clicks in sync",
          arguments: [(OutputFormat.mp4, 48_000, 2), (.mp4, 44_100, 1), (.webm, 44_100, 2), (.mkv, 48_000, 1)])
    func samples(format: OutputFormat, rate: Int, channels: Int) throws {
        let frames = 45, seconds = Double(frames) / Double(Self.fps)
        let clicks = [0.4 + 0.3 / 48_000, 1.2 + 0.7 / 30]  // off the sample and frame grids
        let tone = toneWithClicks(clicks, rate: rate, seconds: seconds)
        let path = TestMedia.output("rec.\(format.rawValue)")
        let writer = try record(path, format: format, frames: frames, rate: rate, sound: Array(repeating: tone, count: channels))
        try writer.finish(trimAudio: false)
        #expect(writer.warnings.isEmpty, "\(writer.warnings)")

        let probe = try Probe(path)
        #expect(probe.warnings.isEmpty, "ffprobe: \(probe.warnings)")
        #expect(probe.video?.codec == (format == .webm ? "vp9" : "h264"))
        #expect(probe.audio?.codec == (format == .webm ? "opus" : "aac"))
        #expect(probe.video?.frames == frames)
        #expect(probe.video?.rate == "30/1")
        let frameLength = format == .webm ? 960.0 / 48_000 : 1024.0 / Double(rate)
        if format == .mp4 {
            let a = try #require(probe.audio?.duration)
            #expect(abs(a - seconds) <= frameLength, "audio \(a) s for \(seconds) s of video")
        }
        // Where the sound starts against the pictures, in the decoded sound: MP4 and MOV say it exactly
        // (an edit list drops the AAC priming), and so does WebM for Opus (CodecDelay). Matroska keeps
        // AAC's priming, and libavformat moves the pictures later by as much (as `ffmpeg` does too):
        // there the sound is where the stream start times say.
        let shift = format == .mkv ? try startTime(path, "v") - startTime(path, "a") : 0
        let sound = try DecodedSound(path)
        #expect(sound.channels.count == channels)
        #expect(abs(sound.seconds - shift - seconds) <= frameLength, "decoded \(sound.seconds) s for \(seconds) s of video")
        for click in clicks {
            let offset = sound.clickOffset(0, at: click + shift)
            #expect(abs(offset) <= 0.001, "\(format.rawValue): the click at \(click) s is \(offset * 1000) ms off")
        }
    }

    /// A stream's start time (seconds) as ffprobe reads it; `stream` is `v` or `a`.
    func startTime(_ path: String, _ stream: String) throws -> Double {
        let out = try TestMedia.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries",
                                                "stream=start_time", "-of", "csv=p=0", path])
        return try #require(Double(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("recorded sound is muxed as the frames come, so the muxer never holds the pictures back")
    func muxedAsItComes() throws {
        let path = TestMedia.output("growing.mp4")
        let writer = try MediaWriter(path: path, format: .mp4, settings: Self.settings,
                                         sound: .samples(sampleRate: 48_000, channels: 2, bitrate: nil))
        let picture = try greyFrame(width: 320, height: 180)
        let block = TestSignal.sine(1000, amplitude: 0.5, rate: 48_000, seconds: 0.1)
        var sizes: [Int64] = []
        for frame in 0..<(6 * Self.fps) {
            if frame % 3 == 0 { try block.withUnsafeBufferPointer { try writer.appendSound(left: $0, right: $0) } }
            try writer.write(picture)
            if frame % Self.fps == Self.fps - 1 { sizes.append(try #require(writer.muxedBytes)) }
        }
        try writer.finish(trimAudio: false)
        #expect(writer.muxedBytes == nil)
        // 160 kbit/s of sound is 20 kB a second: every second reaches the file during that second.
        // (Sound held back would hold the pictures in the interleaver too, and nothing would arrive.)
        for (before, after) in zip(sizes, sizes.dropFirst()) {
            #expect(after - before > 15_000, "muxed bytes at each second: \(sizes)")
        }
        let a = try #require(try Probe(path).audio?.duration)
        #expect(abs(a - 6) <= 1024.0 / 48_000)
    }

    @Test("abort() leaves neither the file nor its temporary file")
    func abort() throws {
        let path = TestMedia.output("aborted.mp4")
        let writer = try record(path, format: .mp4, frames: 20, rate: 48_000,
                                sound: [TestSignal.sine(440, amplitude: 0.3, rate: 48_000, seconds: 1)])
        let folder = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
        let partial = { try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".\(name).partial") } }
        #expect(try !partial().isEmpty, "the temporary file exists while writing")
        writer.abort()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try partial().isEmpty)
    }

    @Test("less sound than video is padded with silence, more is cut: the sound ends with the video",
          arguments: [0.9, 1.0 + 1.9])
    func padAndTrim(soundSeconds: Double) throws {
        let frames = 30, seconds = 1.0
        let path = TestMedia.output("short.mp4")
        let tone = TestSignal.sine(1000, amplitude: 0.5, rate: 48_000, seconds: soundSeconds)
        // With more sound than video, it arrives up to 1.9 s early (within the drift limit).
        let writer = try record(path, format: .mp4, frames: frames, rate: 48_000, sound: [tone, tone],
                                lead: soundSeconds > seconds ? 1.9 : 0)
        try writer.finish(trimAudio: false)
        let a = try #require(try Probe(path).audio?.duration)
        #expect(abs(a - seconds) <= 1024.0 / 48_000, "audio \(a) s for \(seconds) s of video")
        let sound = try DecodedSound(path)
        #expect(abs(sound.seconds - seconds) <= 1024.0 / 48_000)
        #expect(abs(sound.level(1, from: 0.1, to: 0.8) - decibels(0.5 / 2.squareRoot())) <= 1)
        if soundSeconds < seconds {
            #expect(sound.level(0, from: soundSeconds + 0.03, to: seconds) < -50, "the end is silence")
        }
    }

    @Test("sound that stalls for longer than the drift limit is filled with silence, and the file stays whole")
    func stalledSound() throws {
        let frames = 150, seconds = 5.0, rate = 48_000
        let path = TestMedia.output("stall.mp4")
        let writer = try MediaWriter(path: path, format: .mp4, settings: Self.settings,
                                         sound: .samples(sampleRate: rate, channels: 1, bitrate: nil))
        let picture = try greyFrame(width: 320, height: 180)
        let block = TestSignal.sine(1000, amplitude: 0.5, rate: rate, seconds: 0.1)
        for frame in 0..<frames {
            // Sound for the first half second, then nothing until 4 s, then sound again.
            let t = Double(frame) / Double(Self.fps)
            if (t < 0.5 || t >= 4) && frame % 3 == 0 {
                try block.withUnsafeBufferPointer { try writer.appendSound(left: $0, right: nil) }
            }
            try writer.write(picture)
        }
        try writer.finish(trimAudio: false)
        #expect(writer.warnings.count == 1, "\(writer.warnings)")
        #expect(writer.warnings.first?.contains("1 time(s), first at 2.53 s; 2.03 s filled with silence") == true, "\(writer.warnings)")
        let probe = try Probe(path)
        #expect(probe.warnings.isEmpty, "ffprobe: \(probe.warnings)")
        let a = try #require(probe.audio?.duration)
        #expect(abs(a - seconds) <= 1024.0 / Double(rate), "audio \(a) s")
        // At 2.53 s (frame 76) the sound was more than 2 s behind: silence filled it up to the video's
        // time, and the sound that came back at 4 s continues from there; the end is padded.
        let sound = try DecodedSound(path)
        #expect(sound.level(0, from: 0.1, to: 0.45) > -10)
        #expect(sound.level(0, from: 0.55, to: 2.5) < -50, "the gap is silent")
        #expect(sound.level(0, from: 2.6, to: 3.45) > -10, "the sound resumes after the filled gap")
        #expect(sound.level(0, from: 3.6, to: seconds) < -50, "the end is padded with silence")
    }

    @Test("a writer without sample sound refuses samples")
    func noSamples() throws {
        let path = TestMedia.output("silent.mp4")
        let writer = try MediaWriter(path: path, format: .mp4, settings: Self.settings, sound: .none)
        defer { writer.abort() }
        let block: [Float] = [0, 0, 0]
        #expect(throws: MarbleError.self) {
            try block.withUnsafeBufferPointer { try writer.appendSound(left: $0, right: nil) }
        }
    }

    /// Where each packet of `path` starts in the file and at what time (seconds), in file order.
    func packetsInFileOrder(_ path: String) throws -> [(stream: Int, time: Double)] {
        let csv = String(decoding: try TestMedia.run("ffprobe", [
            "-v", "error", "-show_entries", "packet=stream_index,dts_time,pos", "-of", "csv=p=0", path,
        ]), as: UTF8.self)
        return csv.split(separator: "\n").compactMap { line -> (Int, Double, Int)? in
            let f = line.split(separator: ",").map(String.init)
            guard f.count >= 3, let s = Int(f[0]), let t = Double(f[1]), let p = Int(f[2]) else { return nil }
            return (s, t, p)
        }.sorted { $0.2 < $1.2 }.map { ($0.0, $0.1) }
    }

    @Test("a file's sound follows the video closely however fast the pictures come, so the bytes never depend on timing")
    func fileSoundInterleaving() throws {
        let input = try TestMedia.tone("flac", seconds: 30)
        var settings = Self.settings
        settings.width = 64
        settings.height = 36
        var outputs: [Data] = []
        for run in 0..<2 {
            let path = TestMedia.output("follow\(run).mp4")
            let writer = try MediaWriter(path: path, format: .mp4, settings: settings, audioFrom: input)
            let picture = try greyFrame(width: 64, height: 36)
            for _ in 0..<(30 * Self.fps) { try writer.write(picture) }
            try writer.finish(trimAudio: false)
            // In file order, no packet is further behind the other stream than the sound's lag limit
            // (1 s) plus x264's few frames of delay: libavformat never had to force packets out early.
            // (Without the limit the sound trailed by over 10 s here, and packets landed 19 s late.)
            var latest = [Double](repeating: -.infinity, count: 2), worst = 0.0
            for p in try packetsInFileOrder(path) {
                worst = max(worst, latest[1 - p.stream] - p.time)
                latest[p.stream] = max(latest[p.stream], p.time)
            }
            #expect(worst <= 1.5, "a packet lands \(worst) s behind the other stream")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(outputs[0] == outputs[1], "the same frames and sound gave different bytes")
    }
}
