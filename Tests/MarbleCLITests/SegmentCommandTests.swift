import Foundation
import Testing
import TestSupport

/// `render --segment` and `join`, against the one-pass render of the same command: lossless pieces
/// decode to the same frames, default ones keep the frame count, timestamps and sound; the same bytes
/// whatever the threads or kernels; every way a set of pieces can be wrong is refused by name.
@Suite("marble render --segment and marble join", .ownThread, .serialized)
struct SegmentCommandTests {
    let folder: URL
    /// A song whose bars follow a heavily smoothed binding: a piece that started its smoothing afresh
    /// would draw its first frames differently from the one-pass render.
    let song: String
    let preset: String

    init() throws {
        folder = try CLI.subfolder("segments")
        song = folder.appendingPathComponent("song.flac").path
        preset = folder.appendingPathComponent("smoothed.yaml").path
        if !FileManager.default.fileExists(atPath: song) {
            // 44.1 kHz: at 24 fps a frame is 1837.5 samples. 3.1 s is not a whole number of frames at any rate tested.
            try CLI.ffmpeg(["-f", "lavfi", "-i", "aevalsrc=0.3*sin(2*PI*110*t)+0.6*lt(mod(t\\,0.5)\\,0.04)*sin(2*PI*70*t)|0.3*sin(2*PI*165*t):s=44100:d=3.1",
                            "-c:a", "flac", song])
        }
        try """
        name: smoothed
        layers:
          - shader: solid
            parameters: { color: "#101020" }
          - shader: bars
            parameters: { count: 16 }
            bind:
              height: { feature: level, amount: 0.9, base: 0.1, smoothing: 0.97 }
        """.write(toFile: preset, atomically: true, encoding: .utf8)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func render(_ output: String, _ extra: [String]) throws {
        let r = try CLI.run(["render", song, "-o", output, "--size", "64x36", "--preset", preset, "-q"] + extra)
        #expect(r.status == 0, "\(extra): \(r.stderr)")
    }

    /// The per-frame hashes of the decoded video (framemd5's last column), in presentation order.
    func frameHashes(_ file: String) throws -> [String] {
        let text = String(decoding: try TestMedia.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]), as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) }
    }

    /// The video packets' presentation timestamps in seconds, sorted (the frame grid the file plays).
    func videoTimes(_ file: String) throws -> [String] {
        let text = String(decoding: try TestMedia.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time",
                                                                    "-of", "csv=p=0", file]), as: UTF8.self)
        return text.split(separator: "\n").map(String.init).sorted { Double($0)! < Double($1)! }
    }

    /// The sound stream's packets, hashed (copied or encoded, they must be the one-pass render's).
    func soundHash(_ file: String) throws -> String {
        String(decoding: try TestMedia.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:a", "-c", "copy", "-f", "md5", "-"]), as: UTF8.self)
    }

    func md5(_ file: String) throws -> String {
        String(decoding: try TestMedia.run("md5sum", [file]), as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".partial-") }
    }

    /// Every piece count at the frame rate whose frames fall between samples (30000/1001), and the
    /// count of several boundaries at each other rate (26 renders rather than 42 for all four at all three).
    @Test("lossless pieces, joined, decode to the one-pass render's frames: N = 1, 2, 3, 7 at 30000/1001 fps, 7 at 24, 3 at 60",
          arguments: [("30000/1001", [1, 2, 3, 7]), ("24", [7]), ("60", [3])])
    func losslessProof(fps: String, counts: [Int]) throws {
        let tag = fps.replacingOccurrences(of: "/", with: "_")
        let reference = path("ref-\(tag).mp4")
        try render(reference, ["--fps", fps, "--crf", "0"])
        let expected = try frameHashes(reference)
        #expect(expected.count > 70)
        // Consecutive frames must differ (the bars move), or the comparison would prove little.
        #expect(Set(expected).count > expected.count / 2)
        for n in counts {
            var pieces: [String] = []
            for k in 1...n {
                let piece = path("lossless-\(tag)-\(k)of\(n).mp4")
                try render(piece, ["--fps", fps, "--crf", "0", "--segment", "\(k)/\(n)"])
                pieces.append(piece)
            }
            let joined = path("joined-\(tag)-\(n).mp4")
            let r = try CLI.run(["join"] + pieces.reversed() + ["-o", joined, "-q"])
            #expect(r.status == 0, "\(r.stderr)")
            let hashes = try frameHashes(joined)
            #expect(hashes.count == expected.count, "N=\(n) at \(fps)")
            let firstDifference = zip(hashes, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(firstDifference == nil, "N=\(n) at \(fps): frame \(firstDifference ?? -1) differs from the one-pass render's")
            #expect(try soundHash(joined) == soundHash(reference))
        }
    }

    @Test("default settings: frame count, timestamps and sound of the joined file are the one-pass render's")
    func defaultSettings() throws {
        let reference = path("ref-default.mp4")
        try render(reference, ["--fps", "30000/1001"])
        var pieces: [String] = []
        for k in 1...3 {
            pieces.append(path("default-\(k).mp4"))
            try render(pieces.last!, ["--fps", "30000/1001", "--segment", "\(k)/3"])
        }
        // A piece alone is video only, and its timestamps continue the whole render's.
        let probe = String(decoding: try TestMedia.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,start_time",
                                                                   "-of", "csv=p=0", pieces[1]]), as: UTF8.self)
        #expect(probe.split(separator: "\n").count == 1 && probe.hasPrefix("video,"), "\(probe)")
        let firstTime = try videoTimes(pieces[1]).first.flatMap(Double.init) ?? -1
        let secondPieceStart = Double(try videoTimes(pieces[0]).count) * 1001 / 30000
        #expect(abs(firstTime - secondPieceStart) < 1e-3, "piece 2 starts at \(firstTime) s, not \(secondPieceStart) s")

        let joined = path("joined-default.mp4")
        let r = try CLI.run(["join", pieces[2], pieces[0], pieces[1], "--audio", song, "-o", joined])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("joined 3 pieces: 93 frames"), "\(r.stderr)")
        #expect(try videoTimes(joined) == videoTimes(reference))
        #expect(try soundHash(joined) == soundHash(reference))
        let streams = String(decoding: try TestMedia.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,start_time,nb_frames",
                                                                     "-of", "csv=p=0", joined]), as: UTF8.self)
        let expected = String(decoding: try TestMedia.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,start_time,nb_frames",
                                                                      "-of", "csv=p=0", reference]), as: UTF8.self)
        #expect(streams == expected)
        // Every picture decodes (no broken reference at a join).
        #expect(try frameHashes(joined).count == 93)
    }

    /// Matroska keeps no decoding times, so the first pictures of an H.264 piece with B-frames come
    /// out of it without one; the joiner gives them theirs (it used to fail with "Invalid argument").
    @Test("MKV pieces with B-frames (default settings) join into MKV and MP4 on the one-pass render's frame times")
    func matroskaPieces() throws {
        let reference = path("ref-mkv.mkv")
        try render(reference, ["--fps", "30"])
        let pieces = [path("mkv-1.mkv"), path("mkv-2.mkv")]
        for (k, piece) in pieces.enumerated() { try render(piece, ["--fps", "30", "--segment", "\(k + 1)/2"]) }
        for joined in [path("joined-mkv.mkv"), path("joined-mkv.mp4")] {
            let r = try CLI.run(["join"] + pieces + ["-o", joined, "-q"])
            #expect(r.status == 0, "\(r.stderr)")
            // Matroska counts in milliseconds, MP4 in its own ticks: the same times within half a millisecond.
            let times = try videoTimes(joined).compactMap(Double.init), expected = try videoTimes(reference).compactMap(Double.init)
            #expect(times.count == expected.count && zip(times, expected).allSatisfy { abs($0 - $1) < 5e-4 }, "\(joined)")
            #expect(try frameHashes(joined).count == 93)
        }
    }

    @Test("the same bytes with --threads 1, --threads 8, and the portable kernels: MP4, WebM, and a piece")
    func sameBytesAnyMachine() throws {
        for (ext, extra) in [("mp4", [String]()), ("webm", []), ("mkv", ["--segment", "2/3"])] {
            var sums: [String] = []
            for (threads, portable) in [("1", false), ("8", false), ("3", true)] {
                let out = path("threads-\(threads)-\(portable).\(ext)")
                var arguments = ["render", song, "-o", out, "--size", "64x36", "--preset", preset, "-q", "--threads", threads] + extra
                if portable { arguments = ["MARBLE_PORTABLE_KERNELS=1", CLI.executable.path] + arguments }
                let r = portable ? try runEnv(arguments) : try CLI.run(arguments)
                #expect(r.status == 0, "\(r.stderr)")
                sums.append(try md5(out))
            }
            #expect(Set(sums).count == 1, "\(ext): \(sums)")
        }
        // The encoder's thread count is part of the output: another count, other bytes (so it is pinned).
        let other = path("encoder-threads-2.mp4")
        try render(other, ["--encoder-threads", "2"])
        #expect(try md5(other) != md5(path("threads-1-false.mp4")))
    }

    func runEnv(_ arguments: [String]) throws -> CLI.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        let err = Pipe()
        p.standardError = err
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLI.Result(status: p.terminationStatus, stdout: "", stderr: String(decoding: e, as: UTF8.self))
    }

    @Test("join refuses missing, doubled, foreign, cut-short and unlabelled pieces, and another sound, by name; nothing is written")
    func joinRefuses() throws {
        var pieces: [String] = []
        for k in 1...3 {
            pieces.append(path("check-\(k).mp4"))
            try render(pieces.last!, ["--fps", "30", "--segment", "\(k)/3"])
        }
        let otherSong = path("other.flac")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=300:d=3.1", otherSong])
        let foreignInput = path("foreign-input.mp4"), foreignSettings = path("foreign-settings.mp4")
        let r1 = try CLI.run(["render", otherSong, "-o", foreignInput, "--size", "64x36", "--preset", preset, "--fps", "30", "--segment", "2/3", "-q"])
        #expect(r1.status == 0, "\(r1.stderr)")
        try render(foreignSettings, ["--fps", "30", "--segment", "2/3", "--crf", "30"])
        let doubled = path("check-2-again.mp4")
        try? FileManager.default.removeItem(atPath: doubled)
        try FileManager.default.copyItem(atPath: pieces[1], toPath: doubled)
        let oneShot = path("one-shot.mp4")
        try render(oneShot, [])
        // A piece cut short after the fact: its label still says 31 frames.
        let short = path("check-2-short.mp4")
        try CLI.ffmpeg(["-i", pieces[1], "-map", "0", "-map_metadata", "0", "-movflags", "+use_metadata_tags", "-c", "copy", "-frames:v", "12", short])

        let out = path("refused.mp4")
        let cases: [([String], Int32, String)] = [
            ([pieces[0], pieces[2]], 1, "frames 31-61 of 93 are missing: segment 2/3 is not among the pieces"),
            ([pieces[0], pieces[1]], 1, "segment 3/3 is not among the pieces"),
            (pieces + [doubled], 1, "both hold frames 31-61"),
            ([pieces[0], foreignInput, pieces[2]], 1, "rendered from another input"),
            ([pieces[0], foreignSettings, pieces[2]], 1, "from another render"),
            ([pieces[0], short, pieces[2]], 1, "check-2-short.mp4: holds 12 frames, its label 31"),
            (pieces + [oneShot], 1, "one-shot.mp4: not a piece of a marble render"),
            (pieces + ["--audio", otherSong], 1, "not the file the pieces were rendered from"),
            (pieces + ["--audio", song, "--no-audio"], 2, "--audio and --no-audio"),
            ([], 2, "give the pieces"),
        ]
        for (arguments, status, message) in cases {
            let r = try CLI.run(["join"] + arguments + ["-o", out])
            #expect(r.status == status, "\(message): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(message)")
        }
        // The output may not be one of the pieces.
        let before = try md5(pieces[1])
        let r = try CLI.run(["join"] + pieces + ["-o", pieces[1]])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(try md5(pieces[1]) == before)
        #expect(try leftovers().isEmpty)
        // Without --audio the sound is the pieces' input; --no-audio writes none.
        let silent = path("silent.mkv")
        let s = try CLI.run(["join"] + pieces + ["--no-audio", "-o", silent])
        #expect(s.status == 0, "\(s.stderr)")
        #expect(s.stderr.contains("no sound"), "\(s.stderr)")
    }

    @Test("join never writes over an input it knows of, however spelled: a piece, --audio, the pieces' input even with --no-audio (exit 2, untouched)")
    func joinKeepsItsInputs() throws {
        // The pieces' input is an .mp4, so it is a name a join could be asked to write.
        let source = path("keep-song.mp4")
        try CLI.ffmpeg(["-i", song, "-c:a", "aac", source])
        var pieces: [String] = []
        for k in 1...2 {
            pieces.append(path("keep-\(k).mp4"))
            let r = try CLI.run(["render", source, "-o", pieces.last!, "--size", "64x36", "--preset", preset, "--fps", "30", "--segment", "\(k)/2", "-q"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        for name in ["keep-link.mp4", "keep-hard.mp4", "keep-piece-link.mp4"] { try? FileManager.default.removeItem(atPath: path(name)) }
        try FileManager.default.createSymbolicLink(atPath: path("keep-link.mp4"), withDestinationPath: source)
        #expect(link(source, path("keep-hard.mp4")) == 0)
        try FileManager.default.createSymbolicLink(atPath: path("keep-piece-link.mp4"), withDestinationPath: pieces[1])
        let before = try [source, pieces[0], pieces[1]].map(md5)
        let names = ["keep-1.mp4", "keep-2.mp4"]  // relative to the folder
        let cases: [([String], String, String)] = [
            (names + ["--no-audio"], "keep-song.mp4", "is the pieces' input"),
            (names + ["--no-audio"], "./keep-song.mp4", "is the pieces' input"),
            (names + ["--no-audio"], "keep-link.mp4", "is the pieces' input"),
            (names + ["--no-audio"], "keep-hard.mp4", "is the pieces' input"),
            (names + ["--audio", "keep-hard.mp4"], "./keep-hard.mp4", "is the sound"),
            (names, source, "is the sound"),
            (names, "keep-piece-link.mp4", "is a piece"),
            (["./keep-1.mp4", folder.path + "/keep-2.mp4"], "sub/../keep-1.mp4", "is a piece"),
        ]
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
        for (arguments, output, message) in cases {
            let r = try CLI.run(in: folder, ["join"] + arguments + ["-o", output])
            #expect(r.status == 2, "\(output): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(output): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        #expect(try [source, pieces[0], pieces[1]].map(md5) == before)
        #expect(try leftovers().isEmpty)
    }

    @Test("join refuses a FIFO or a device as a piece, as --audio or as the pieces' input before reading it, and a piece whose file ends inside a picture, by name")
    func joinRefusesStreamsAndCutFiles() throws {
        let source = path("stream-song.flac")
        try? FileManager.default.removeItem(atPath: source)
        try FileManager.default.copyItem(atPath: song, toPath: source)
        var pieces: [String] = []
        for k in 1...2 {
            pieces.append(path("stream-\(k).mp4"))
            let r = try CLI.run(["render", source, "-o", pieces.last!, "--size", "64x36", "--preset", preset, "--fps", "30", "--segment", "\(k)/2", "-q"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let fifo = path("stream-fifo.mp4")
        try? FileManager.default.removeItem(atPath: fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        // The last picture's bytes cut by 20: the file still lists it (its index is at the start).
        let data = try Data(contentsOf: URL(fileURLWithPath: pieces[1]))
        let cut = path("stream-2-cut.mp4")
        try data.prefix(data.count - 20).write(to: URL(fileURLWithPath: cut))
        let out = path("stream-joined.mp4")
        let cases: [([String], String)] = [
            ([pieces[0], fifo], "stream-fifo.mp4: is a FIFO, not a regular file; a piece must be a file"),
            (pieces + ["--audio", "/dev/zero"], "/dev/zero: is a character device, not a regular file; the --audio sound must be a file"),
            (pieces + ["--audio", fifo], "stream-fifo.mp4: is a FIFO"),
            ([pieces[0], cut], "stream-2-cut.mp4: cut short: frame 47 of its 47 is incomplete"),
        ]
        for (arguments, message) in cases {
            let r = try CLI.run(in: folder, ["join"] + arguments + ["-o", out])
            #expect(r.status == 1, "\(message): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        // The input the labels name, become a FIFO: refused without waiting for a writer.
        let kept = path("stream-song-kept.flac")
        try? FileManager.default.removeItem(atPath: kept)
        try FileManager.default.moveItem(atPath: source, toPath: kept)
        #expect(mkfifo(source, 0o600) == 0)
        let r = try CLI.run(in: folder, ["join"] + pieces + ["-o", out])
        #expect(r.status == 1 && r.stderr.contains("stream-song.flac: is a FIFO"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try leftovers().isEmpty)
    }

    @Test("render --segment: bad pieces are option errors (exit 2) before anything is written")
    func segmentOptions() throws {
        let out = path("bad-piece.mp4")
        let cases: [([String], String)] = [
            (["--segment", "0/3"], "--segment 0/3: K must be between 1 and 3"),
            (["--segment", "4/3"], "--segment 4/3"),
            (["--segment", "94/94", "--fps", "30"], "the render has only 93 frames"),
            (["--frames", "0-93", "--fps", "30"], "--frames 0-93: the render has 93 frames (0-92)"),
            (["--segment", "1/2", "--frames", "0-5"], "give one of them"),
            (["--encoder-threads", "0"], "--encoder-threads 0"),
        ]
        for (extra, message) in cases {
            let r = try CLI.run(["render", song, "-o", out, "--size", "64x36", "-q"] + extra)
            #expect(r.status == 2, "\(extra): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let png = try CLI.run(["render", song, "-o", path("piece.png"), "--segment", "1/2"])
        #expect(png.status == 2 && png.stderr.contains("a .png is one frame"), "\(png.stderr)")
        // --frames renders exactly the frames asked for.
        let range = path("range.mp4")
        try render(range, ["--frames", "10-19", "--fps", "30"])
        #expect(try videoTimes(range).count == 10)
        let start = try videoTimes(range).first.flatMap(Double.init) ?? -1
        #expect(abs(start - 10.0 / 30) < 1e-3, "the range starts at \(start) s")
        // Explicit ranges join like K/N pieces; a gap is named by its frames.
        let head = path("range-head.mp4"), tail = path("range-tail.mp4"), whole = path("range-joined.mp4")
        try render(head, ["--frames", "0-9", "--fps", "30"])
        try render(tail, ["--frames", "20-92", "--fps", "30"])
        let gap = try CLI.run(["join", head, range, tail, "-o", whole])
        #expect(gap.status == 0, "\(gap.stderr)")
        #expect(try videoTimes(whole).count == 93)
        let missing = try CLI.run(["join", head, tail, "-o", path("range-gap.mp4")])
        #expect(missing.status == 1 && missing.stderr.contains("frames 10-19 of 93 are missing: no piece holds them"), "\(missing.stderr)")
    }

    @Test("a video input's pictures stay with their frames in every piece (later pieces seek to a keyframe and decode on)")
    func videoInput() throws {
        let clip = path("clip.mp4")
        // Keyframes every 1.2 s, B-frames: the pieces starting at 2, 4 and 6 s seek, then decode forward.
        try CLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=96x64:r=25:d=8", "-f", "lavfi", "-i", "sine=f=330:r=44100:d=8",
                        "-shortest", "-c:v", "libx264", "-g", "30", "-bf", "2", "-c:a", "aac", clip])
        let reference = path("clip-ref.mkv")
        let r = try CLI.run(["render", clip, "-o", reference, "--size", "64x36", "--fps", "24", "--crf", "0", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        var pieces: [String] = []
        for k in 1...4 {
            pieces.append(path("clip-\(k).mkv"))
            let p = try CLI.run(["render", clip, "-o", pieces.last!, "--size", "64x36", "--fps", "24", "--crf", "0", "--segment", "\(k)/4", "-q"])
            #expect(p.status == 0, "\(p.stderr)")
        }
        let joined = path("clip-joined.mkv")
        let j = try CLI.run(["join"] + pieces + ["-o", joined, "-q"])
        #expect(j.status == 0, "\(j.stderr)")
        let hashes = try frameHashes(joined), expected = try frameHashes(reference)
        #expect(hashes.count == expected.count && hashes == expected, "the joined pictures differ from the one-pass render's")
    }

    @Test("a looping --background video is where a render from the start has it, in every piece")
    func loopingBackground() throws {
        let loop = path("loop.mp4"), long = path("long-song.flac")
        // 1.32 s of video (33 frames at 25 fps) loops about 6 times under an 8 s song: later pieces
        // start several passes in (the period is learnt, then the pass before is decoded on).
        try CLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=96x64:r=25:d=1.32", "-c:v", "libx264", "-g", "8", "-bf", "2", loop])
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=8", "-c:a", "flac", long])
        let common = ["--size", "64x36", "--fps", "24", "--crf", "0", "--background", loop, "-q"]
        let reference = path("loop-ref.mkv")
        let r = try CLI.run(["render", long, "-o", reference] + common)
        #expect(r.status == 0, "\(r.stderr)")
        var pieces: [String] = []
        for k in 1...4 {
            pieces.append(path("loop-\(k).mkv"))
            let p = try CLI.run(["render", long, "-o", pieces.last!, "--segment", "\(k)/4"] + common)
            #expect(p.status == 0, "\(p.stderr)")
        }
        let joined = path("loop-joined.mkv")
        let j = try CLI.run(["join"] + pieces + ["-o", joined, "-q"])
        #expect(j.status == 0, "\(j.stderr)")
        let hashes = try frameHashes(joined), expected = try frameHashes(reference)
        let firstDifference = zip(hashes, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(hashes.count == expected.count && firstDifference == nil, "frame \(firstDifference ?? -1) differs")
    }

    @Test("a stopped piece leaves no file (exit 130): a piece is whole or absent")
    func stoppedPiece() throws {
        let long = path("long.flac")
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=200:d=120", long])
        let out = path("stopped-piece.mp4")
        let (p, _, err) = try CLI.start(["render", long, "-o", out, "--size", "320x180", "--segment", "2/2", "-q"])
        // Wait until the piece's file is being written (its temporary name appears), then stop it.
        _ = try pollProcess { try !leftovers().isEmpty || !p.isRunning }
        kill(p.processIdentifier, SIGTERM)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130, "\(message)")
        #expect(message.contains("segment 2/2 not written"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try leftovers().isEmpty)
    }

    @Test("a write that fails while rendering is exit 75 (retry), and leaves nothing behind")
    func failedWriteIsRetryable() throws {
        let out = path("too-big.mp4")
        // A file-size limit makes writes fail part-way (EFBIG), as a full disk would; SIGXFSZ is ignored
        // so the write returns the error instead of killing the process.
        let script = "trap '' XFSZ; ulimit -f 16; exec \"$0\" render \"$1\" -o \"$2\" --size 320x180 --crf 0 -q"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", script, CLI.executable.path, song, out]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 75, "\(message)")
        #expect(message.split(separator: "\n").count == 1, "\(message)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try leftovers().isEmpty)
    }
}
