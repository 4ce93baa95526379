import Foundation
import Testing
import TestSupport

/// Several outputs from one render, for real: `marble play` of a playlist at real-time pace into a
/// recording and an RTMP stream published to nginx on loopback (read back with ffprobe), a stream
/// that stalls while the recording goes on, bad stream URLs.
@Suite("marble play / live: files and streams at once (nginx-rtmp on loopback)", .ownThread)
struct OutputsCommandTests {
    /// Two songs at different rates (44.1 and 48 kHz), 1.5 s each.
    static func songs() throws -> [String] {
        [try TestMedia.tone("wav", seconds: 1.5, rate: 44_100), try TestMedia.tone("wav", seconds: 1.5, rate: 48_000)]
    }

    @Test("a playlist streamed to RTMP and recorded at once: one continuous timeline, H.264 + AAC on both, in step")
    func streamAndRecord() throws {
        let server = try RTMPServer()
        defer { server.stop() }
        let songs = try Self.songs()
        let m3u = CLI.path("two-songs.m3u")
        try "#EXTM3U\n# a comment\n\(songs[0])\n\(songs[1])\n".write(toFile: m3u, atomically: true, encoding: .utf8)
        let file = CLI.path("channel.mp4")
        let r = try CLI.run(["play", m3u, "-o", server.url("set"), "-o", file, "--size", "160x96", "--fps", "30",
                             "--bitrate", "400", "--encoder-preset", "ultrafast", "--threads", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        // The recording: both songs, back to back (3 s), picture and sound the same length.
        let recorded = try Probe(file)
        #expect(recorded.video?.codec == "h264" && recorded.audio?.codec == "aac")
        let frames = try #require(recorded.video?.frames)
        #expect(abs(frames - 90) <= 1, "\(frames) frames for 3 s at 30 fps")
        #expect(abs((recorded.audio?.duration ?? 0) - 3.0) < 0.1, "sound \(recorded.audio?.duration ?? 0) s")
        // The stream, as nginx received it: the same encoding.
        let flv = try #require(server.recordings("set").last)
        let streamed = try Probe(flv)
        #expect(streamed.video?.codec == "h264" && streamed.audio?.codec == "aac")
        #expect(streamed.video?.rate == "30/1")
        let streamedFrames = try #require(streamed.video?.frames)
        #expect(abs(streamedFrames - frames) <= 1, "streamed \(streamedFrames) frames, recorded \(frames)")
        #expect(r.stderr.contains(server.url("set")) && r.stderr.contains("0 frames dropped"), "\(r.stderr)")
    }

    @Test("a stream that stalls drops frames and says so; the recording beside it keeps every frame")
    func stalledStreamDoesNotStallRecording() throws {
        let server = try RTMPServer()
        defer { server.stop() }
        // Noise, so the picture changes all over each frame and the stream spends its bitrate: the
        // stall must outlast the kernel's socket buffers and the stream's own 2 s queue.
        let song = try TestMedia.make("noise-12.wav", ["-f", "lavfi", "-i", "anoisesrc=d=12:c=pink:r=48000:a=0.5", "-ac", "2"])
        let file = CLI.path("stalled-beside.mkv")
        let (process, _, err) = try CLI.start(["play", song, "-o", server.url("stall"), "-o", file, "--size", "320x180",
                                                "--fps", "30", "--bitrate", "3000", "--encoder-preset", "ultrafast"])
        // Frozen once the stream is published (nginx opened its recording), however long starting took.
        #expect(PlayTools.eventually(timeout: 30) { !server.recordings("stall").isEmpty }, "the stream never started")
        server.pause()  // nginx frozen: the connection stalls, its buffers fill
        // Until marble gives the stalled connection up (its queue dropped) and says so.
        let told = CLI.read(err, until: "\(server.url("stall")): reconnecting")
        server.resume()
        let stderr = told + String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        let recorded = try Probe(file)
        #expect(abs((recorded.video?.frames ?? 0) - 360) <= 1, "the recording has every frame: \(recorded.video?.frames ?? 0)")
        let line = try #require(stderr.split(separator: "\n").first { $0.contains(server.url("stall")) && $0.contains("sent") }, "\(stderr)")
        #expect(stderr.contains("reconnecting"), "the stall was reported as it happened: \(stderr)")
        let dropped = Int(line.split(separator: ",").first { $0.contains("frames dropped") }?
            .split(separator: " ").first ?? "") ?? 0
        #expect(dropped > 0, "the stalled stream dropped frames: \(line)")
    }

    @Test("a refused connection and bad stream URLs: one line, a non-zero exit, nothing left behind")
    func badStreams() throws {
        let song = try TestMedia.tone("wav", seconds: 1.5)
        let file = CLI.path("not-made.mp4")
        let refused = try CLI.run(["play", song, "-o", "rtmp://127.0.0.1:9/live/x", "-o", file])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("cannot connect") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file), "no recording is left when a stream cannot start")
        for (url, says) in [("udp://127.0.0.1", "needs a port"), ("udp://127.0.0.1:70000", "between 1 and 65535"),
                            ("rtmp://127.0.0.1", "application"), ("http://127.0.0.1:80/x", "not a stream")] {
            let r = try CLI.run(["play", song, "-o", url])
            #expect(r.status != 0 && r.stderr.contains(says) && r.stderr.split(separator: "\n").count == 1, "\(url): \(r.stderr)")
        }
    }

    @Test("UDP: MPEG-TS a reader started first receives, with both streams")
    func udp() throws {
        let port = 20_000 + Int(getpid() % 20_000)
        let ts = CLI.path("udp-read.ts")
        try? FileManager.default.removeItem(atPath: ts)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The reader gives up after 60 s without a packet: only a guard against a hang, since it must
        // wait for marble to start, which takes a few seconds on a loaded machine (3 s was too short).
        reader.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-timeout", "60000000",
                            "-i", "udp://127.0.0.1:\(port)?timeout=60000000", "-c", "copy", "-t", "2.5", ts]
        reader.standardError = FileHandle.nullDevice
        try reader.run()
        #expect(PlayTools.eventually(timeout: 60) { RTMPServer.udpPortIsBound(port) }, "the reader never listened")
        let r = try CLI.run(["play", try TestMedia.tone("wav", seconds: 3, rate: 48_000), "-o", "udp://127.0.0.1:\(port)",
                             "--size", "160x96", "--fps", "30", "--encoder-preset", "ultrafast"])
        #expect(r.status == 0, "\(r.stderr)")
        reader.waitUntilExit()
        let probe = try Probe(ts)
        #expect(probe.video?.codec == "h264" && probe.audio?.codec == "aac")
        #expect((probe.video?.frames ?? 0) >= 60, "\(probe.video?.frames ?? 0) frames read from UDP")
    }
}
