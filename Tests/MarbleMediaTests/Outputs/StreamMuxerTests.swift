import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

/// Network streams through a real MediaWriter into real servers on loopback: nginx's RTMP module
/// (which records what it received, read back with ffprobe) and an `ffmpeg` UDP reader. The server is
/// killed, restarted and frozen (SIGSTOP) under a running stream to check that the writer never blocks,
/// drops up to a keyframe and reconnects.
@Suite("StreamMuxer", .ownThread, .serialized)
struct StreamMuxerTests {
    static let fps = 30
    static let width = 160, height = 96
    static var settings: VideoEncoder.Settings {
        var s = VideoEncoder.Settings(width: width, height: height, fps: Rational(fps), crf: 30, preset: .ultrafast,
                                      threads: 1, globalHeader: false)
        s.bitrate = 500
        s.keyframeSeconds = 1
        s.zeroLatency = true
        return s
    }

    /// What a run of ``send`` saw.
    struct Run {
        var longestWrite = 0.0
        var frames = 0
    }

    /// Sends `frames` frames of noise (so the encoder spends its bitrate) with a tone, at real-time
    /// pace when `paced`. `each(frame, elapsed)` runs before each frame (to kill or freeze the server).
    func send(_ writer: MediaWriter, frames: Int, paced: Bool, startFrame: Int = 0,
              each: (Int, Double) throws -> Void = { _, _ in }) throws -> Run {
        let picture = try YUVFrame(width: Self.width, height: Self.height)
        let samples = 48_000 / Self.fps
        let tone = (0..<samples).map { Float(0.2 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        var run = Run()
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        // A live source's pace, on the system clock: the muxer's stall and reconnect timing runs on it.
        let pacer = RealTimePacer.system()
        for frame in startFrame..<startFrame + frames {
            if paced { pacer.wait(until: UInt64(frame - startFrame) * 1_000_000_000 / UInt64(Self.fps)) }
            try each(frame, pacer.seconds)
            try picture.prepareForWriting()
            let p = picture.planes
            for y in 0..<Self.height {
                for x in 0..<Self.width {
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    (p.y + y * p.yStride)[x] = UInt8(truncatingIfNeeded: seed >> 56) / 2 + 64
                }
            }
            for y in 0..<Self.height / 2 {
                (p.u + y * p.uStride).update(repeating: 128, count: Self.width / 2)
                (p.v + y * p.vStride).update(repeating: 128, count: Self.width / 2)
            }
            let t0 = MonotonicClock.now()
            try tone.withUnsafeBufferPointer { try writer.appendSound(left: $0, right: $0) }
            try writer.write(picture)
            run.longestWrite = max(run.longestWrite, Double(MonotonicClock.now() - t0) / 1e9)
            run.frames += 1
        }
        return run
    }

    func writer(_ url: String) throws -> MediaWriter {
        let stream = try #require(try StreamURL(url))
        return try MediaWriter(targets: [.stream(stream)], format: .mp4, settings: Self.settings,
                               sound: .samples(sampleRate: 48_000, channels: 2, bitrate: 128))
    }

    /// One ffprobe entry (e.g. `stream=start_time` of `v`) for a file.
    /// Starts an ffmpeg reader on `input` (copying what arrives into an MPEG-TS file), sends `frames`
    /// paced frames to `url`, finishes, and reads back what the reader wrote.
    func readBack(reading input: String, port: Int, sendingTo url: String, frames: Int) throws
        -> (file: String, probe: Probe, run: Run, writer: MediaWriter) {
        let out = TestMedia.output("received.ts")
        let reader = try ChildProcess.spawn("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", input,
                                                       "-c", "copy", "-f", "mpegts", out])
        // The reader binds its UDP port (SRT too runs over UDP) before anything is sent: polled, ffmpeg
        // telling nothing, with a deadline that only guards against a hang.
        #expect(pollProcess { RTMPServer.udpPortIsBound(port) }, "the reader never bound port \(port)")
        let writer = try writer(url)
        let run = try send(writer, frames: frames, paced: true)
        try writer.finish(trimAudio: false)
        ChildProcess.reap(reader)
        return (out, try Probe(out), run, writer)
    }

    func entries(_ path: String, _ stream: String, _ entry: String) throws -> [String] {
        let out = try TestMedia.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", entry,
                                                "-of", "csv=p=0", path])
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Waits until nginx has closed the recordings of `key` after the publisher left (it holds none
    /// open any more). Polled, nginx telling nothing, with a deadline that only guards against a hang.
    func settle(_ server: RTMPServer, _ key: String) {
        _ = pollProcess { !server.isRecording(key) && !server.recordings(key).isEmpty }
    }

    @Test("RTMP into nginx: the recording holds H.264 + AAC at 30 fps, as long as what was sent, in sync",
          .enabled(if: RTMPServer.available))
    func rtmp() throws {
        let server = try RTMPServer()
        let writer = try writer(server.url("a"))
        let frames = 90
        let run = try send(writer, frames: frames, paced: false)
        try writer.finish(trimAudio: false)
        let status = writer.streams[0].current
        #expect(status.state == .closed)
        #expect(status.framesDropped == 0)
        #expect(status.bytesSent > 50_000, "\(status)")
        settle(server, "a")
        let file = try #require(server.recordings("a").last)
        let probe = try Probe(file)
        #expect(probe.video?.codec == "h264")
        #expect(probe.audio?.codec == "aac")
        #expect(probe.video?.rate == "30/1")
        #expect(probe.video?.frames == frames)
        let duration = try #require(probe.formatDuration)
        #expect(abs(duration - 3) <= 0.2, "recorded \(duration) s of 3 s")
        let v = try #require(Double(entries(file, "v", "stream=start_time").first ?? ""))
        let a = try #require(Double(entries(file, "a", "stream=start_time").first ?? ""))
        #expect(abs(v - a) <= 1.0 / Double(Self.fps), "video starts at \(v) s, audio at \(a) s")
        let bitrate = try TestMedia.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=size",
                                                    "-of", "csv=p=0", file])
        let bytes = String(decoding: bitrate, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }.reduce(0, +)
        print("rtmp: \(run.frames) frames, longest write \(run.longestWrite) s; recorded \(duration) s, "
              + "video \(Double(bytes * 8) / duration / 1000) kbit/s from packet sizes, ffprobe's bit_rate "
              + "\(probe.video?.bitRate ?? -1) (asked 500 kbit/s), start v \(v) s a \(a) s, \(status.bytesSent) bytes sent")
    }

    @Test("UDP: an ffmpeg reader gets H.264 + AAC, with SPS/PPS repeated at every keyframe",
          .enabled(if: ChildProcess.which("ffmpeg") != nil))
    func udp() throws {
        let port = try RTMPServer.freePort()
        let (out, probe, _, _) = try readBack(reading: "udp://127.0.0.1:\(port)?timeout=2000000&fifo_size=100000",
                                              port: port, sendingTo: "udp://127.0.0.1:\(port)", frames: 90)
        #expect(probe.video?.codec == "h264")
        #expect(probe.audio?.codec == "aac")
        #expect((probe.video?.frames ?? 0) >= 80, "\(String(describing: probe.video?.frames)) frames read")
        // A viewer can join at any keyframe only if the SPS (NAL type 7) comes in band before each:
        // the encoder puts it out of band (global header), the MPEG-TS muxer repeats it.
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        let sps = Data([0, 0, 0, 1, 0x67])
        var count = 0, from = data.startIndex
        while let r = data.range(of: sps, in: from..<data.endIndex) { count += 1; from = r.upperBound }
        #expect(count >= 3, "SPS in band \(count) times in 3 s with a keyframe a second")
        print("udp: \(probe.video?.frames ?? 0) video frames read, SPS in band \(count) times")
    }

    @Test("SRT (caller) into an ffmpeg listener: H.264 + AAC arrive", .enabled(if: ChildProcess.which("ffmpeg") != nil))
    func srt() throws {
        let port = try RTMPServer.freePort()
        let (_, probe, _, writer) = try readBack(reading: "srt://127.0.0.1:\(port)?mode=listener",
                                                 port: port, sendingTo: "srt://127.0.0.1:\(port)", frames: 60)
        #expect(probe.video?.codec == "h264")
        #expect(probe.audio?.codec == "aac")
        #expect((probe.video?.frames ?? 0) >= 50, "\(String(describing: probe.video?.frames)) frames read")
        #expect(writer.streams[0].current.framesDropped == 0)
    }

    @Test("the server restarts mid-stream: the writer never blocks, the stream reconnects and resumes at a keyframe",
          .enabled(if: RTMPServer.available))
    func reconnect() throws {
        let server = try RTMPServer()
        let writer = try writer(server.url("c"))
        let status = writer.streams[0]
        var killedAt = 0.0, backAt = 0.0, sendingAt: Double?
        let run = try send(writer, frames: 8 * Self.fps, paced: true) { frame, elapsed in
            if frame == 2 * Self.fps { server.stop(); killedAt = elapsed }
            if frame == 3 * Self.fps { try server.start(); backAt = elapsed }
            let s = status.current
            if backAt > 0, sendingAt == nil, s.reconnects >= 1, s.state == .sending { sendingAt = elapsed }
        }
        let s = status.current
        try writer.finish(trimAudio: false)
        #expect(s.reconnects >= 1, "\(s)")
        #expect(s.state == .sending, "\(s)")
        // The writer did not wait for the dead server: it dropped frames instead (a blocking one would
        // have held them all).
        #expect(s.framesDropped > 0, "\(s)")
        let resumed = try #require(sendingAt)
        print("reconnect: killed at \(killedAt) s, back at \(backAt) s, sending again at \(resumed) s "
              + "(\(resumed - backAt) s after the server returned); lastReconnectSeconds \(s.lastReconnectSeconds ?? -1), "
              + "\(s.framesDropped) frames dropped, longest write \(run.longestWrite) s")
        settle(server, "c")
        let files = server.recordings("c")
        #expect(files.count >= 2, "\(files)")
        let after = try #require(files.last)
        let types = try entries(after, "v", "frame=pict_type")
        #expect(types.first == "I", "the recording after the restart starts with \(types.prefix(3))")
        #expect(types.count >= 3 * Self.fps, "\(types.count) frames after the restart")
        let decoded = try TestMedia.run("ffmpeg", ["-v", "error", "-i", after, "-f", "null", "-"])
        #expect(decoded.isEmpty)
    }

    @Test("a refused connection fails at start, in one line naming the URL")
    func refused() throws {
        let url = "rtmp://127.0.0.1:\(try RTMPServer.freePort())/live/x"
        do {
            _ = try writer(url)  // throws at once: a retry loop would hang here (no wall-clock verdict)
            Issue.record("no error for \(url)")
        } catch let error as MarbleError {
            #expect(error.kind == .output)
            #expect(error.message.contains("cannot connect"), "\(error.message)")
            #expect(error.message.contains(url))
            #expect(!error.message.contains("\n"))
            print("refused: \(error.message)")
        }
        do {
            _ = try writer("rtmp://no-such-host.invalid/live/x")
            Issue.record("no error for an unknown host")
        } catch let error as MarbleError {
            #expect(error.message == "rtmp://no-such-host.invalid/live/x: cannot connect (unknown host no-such-host.invalid)")
        }
    }

    @Test("a frozen server (SIGSTOP): writes stay fast, frames are dropped, the stream sends again after",
          .enabled(if: RTMPServer.available))
    func stalled() throws {
        let server = try RTMPServer()
        let writer = try writer(server.url("e"))
        let status = writer.streams[0]
        var resumedAt = 0.0, droppedWhileFrozen = 0
        // Frozen for 6 s: the sockets' buffers take a second or two of stream (the sender keeps its own
        // small: ~0.5 s of bitrate; nginx's receive buffer holds ~128 kB), then the queue's 2 s fill up.
        var firstDrop: Double?
        let run = try send(writer, frames: 11 * Self.fps, paced: true) { frame, elapsed in
            if frame == 1 * Self.fps { server.pause() }
            if firstDrop == nil && status.current.framesDropped > 0 { firstDrop = elapsed }
            if frame == 7 * Self.fps { droppedWhileFrozen = status.current.framesDropped; server.resume(); resumedAt = elapsed }
        }
        let s = status.current
        try writer.finish(trimAudio: false)
        print("stalled: first drop at \(firstDrop ?? -1) s (frozen at 1 s); \(s), dropped while frozen \(droppedWhileFrozen), resumed at \(resumedAt) s, longest write \(run.longestWrite) s")
        // Writes did not wait for the frozen server: frames were dropped while it was frozen (a
        // blocking writer would have dropped none, only waited).
        #expect(droppedWhileFrozen > 0, "\(s)")
        #expect(s.state == .sending, "\(s)")
        let sentAfter = s.bytesSent
        #expect(sentAfter > 0)
    }

    @Test("stream URLs: what is a stream, what is a path, what cannot work")
    func urls() throws {
        let rtmp = try #require(try StreamURL("rtmp://example.com/live/key"))
        #expect(rtmp.kind == .rtmp && rtmp.host == "example.com" && rtmp.port == nil && rtmp.muxerName == "flv")
        let udp = try #require(try StreamURL("udp://239.0.0.1:5000?ttl=2"))
        #expect(udp.kind == .udp && udp.port == 5000 && udp.muxerName == "mpegts")
        let v6 = try #require(try StreamURL("srt://[::1]:9000"))
        #expect(v6.host == "::1" && v6.port == 9000)
        // The scheme in any case; FFmpeg is given it in lower case (its protocol names are).
        let upper = try #require(try StreamURL("RTMP://Example.com/Live/Key"))
        #expect(upper.kind == .rtmp && upper.text == "RTMP://Example.com/Live/Key" && upper.address == "rtmp://Example.com/Live/Key")
        #expect(throws: MarbleError(.option, "udp://[::1: an IPv6 host needs its closing ']' (udp://[::1]:PORT)")) {
            try StreamURL("udp://[::1")
        }
        #expect(try StreamURL("/tmp/out.mp4") == nil)
        #expect(try StreamURL("out.flv") == nil)
        for bad in ["udp://127.0.0.1", "udp://127.0.0.1:0", "udp://127.0.0.1:70000", "rtmp://host", "rtmp://host/",
                    "http://x", "udp://:5000", "srt://host:port"] {
            #expect(throws: MarbleError.self, "\(bad)") { try StreamURL(bad) }
            do { _ = try StreamURL(bad) } catch { #expect(error.kind == .option && error.message.hasPrefix(bad)) }
        }
    }
}
