import Foundation
import Testing
import TestSupport

/// Errors get the exit code the README's table gives them, as one line, before any work: an output
/// name that can never be written is 1 (not 75 after the whole render), options that contradict each
/// other are 2, a result lost on stdout is 1 with a message, an input the analysis cannot read is 1;
/// sound beyond full scale is clipped with a warning instead of failing the encoder.
@Suite("marble: exit codes that mean what the README says", .ownThread)
struct ExitCodeTests {
    let folder: URL
    let song: String

    init() throws {
        folder = try CLI.subfolder("exit-codes")
        song = folder.appendingPathComponent("song.wav").path
        if !FileManager.default.fileExists(atPath: song) {
            try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=1:r=8000", song])
        }
    }

    func expectOneLine(_ r: CLI.Result, status: Int32, mentions: String, _ what: String) {
        #expect(r.status == status, "\(what): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.hasPrefix("marble: error: "), "\(what): \(r.stderr)")
        #expect(r.stderr.contains(mentions), "\(what): \(r.stderr)")
    }

    @Test("an output name that can never be a file is exit 1 before anything is drawn: a trailing '/', a 300-byte name")
    func unwritableNames() throws {
        let tooLong = String(repeating: "a", count: 300) + ".mp4"
        for (output, mentions) in [("dir.mp4/", "ends with '/'"), (tooLong, "the file name is 304 bytes"), ("still.png/", "ends with '/'")] {
            let path = folder.appendingPathComponent("names").path + "/" + output
            try FileManager.default.createDirectory(atPath: folder.appendingPathComponent("names").path, withIntermediateDirectories: true)
            var arguments = ["render", song, "-o", path, "--size", "64x36", "-q"]
            if output.hasPrefix("still") { arguments += ["--at", "0.5"] }
            expectOneLine(try CLI.run(arguments), status: 1, mentions: mentions, output)
            if !output.hasPrefix("still") {
                expectOneLine(try CLI.run(["play", song, "-o", path]), status: 1, mentions: mentions, "play -o \(output)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("names").path).isEmpty)
        }
    }

    @Test("--preset beside --milkdrop is an options error (it used to be ignored)", arguments: [
        ["render", "SONG", "-o", "OUT", "--preset", "spectrum", "--milkdrop", "MILK"],
        ["play", "SONG", "--preset", "spectrum", "--milkdrop", "MILK", "-o", "OUT"],
        ["live", "--preset", "spectrum", "--milkdrop", "MILK", "-o", "OUT", "--duration", "1"],
    ])
    func presetBesideMilkDrop(template: [String]) throws {
        let milk = folder.appendingPathComponent("plain.milk").path
        try "[preset00]\nzoom=1.01\n".write(toFile: milk, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("preset-\(template[0]).mp4").path
        let arguments = template.map { $0 == "SONG" ? song : $0 == "MILK" ? milk : $0 == "OUT" ? out : $0 }
        expectOneLine(try CLI.run(arguments), status: 2, mentions: "--preset and --milkdrop", template[0])
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("a result that cannot be written to stdout is exit 1 with the reason (effects > /dev/full)")
    func fullStandardOutput() throws {
        let p = Process()
        p.executableURL = CLI.executable
        p.arguments = ["effects", "--json"]
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let err = Pipe()
        p.standardError = err
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 1, "\(stderr)")
        #expect(stderr == "marble: error: standard output: the result could not be written (No space left on device)\n", "\(stderr)")
    }

    @Test("a sound at 384 kHz is a bad input (exit 1, naming the file), for render and analyze")
    func sampleRateOutOfRange() throws {
        let high = folder.appendingPathComponent("384k.wav").path
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=0.2:r=384000", high])
        expectOneLine(try CLI.run(["render", high, "-o", folder.appendingPathComponent("384k.mp4").path, "-q"]),
                      status: 1, mentions: "384k.wav: its sound is at 384000 Hz", "render")
        expectOneLine(try CLI.run(["analyze", high]), status: 1, mentions: "384000 Hz", "analyze")
    }

    /// A WAV of 32-bit floats, one in a hundred 1e30: the AAC encoder refused it ("Invalid argument",
    /// exit 75). Now it is clipped to full scale, said in one warning, and the render succeeds.
    @Test("samples far beyond ±1 are clipped before encoding, with one warning; the file's sound is at full scale")
    func hugeSamples() throws {
        let wav = folder.appendingPathComponent("huge.wav").path
        var samples = [Float](repeating: 0, count: 16_000)
        for i in samples.indices { samples[i] = i % 100 == 0 ? 1e30 : 0.5 * Float(i % 50) / 50 - 0.25 }
        try Self.floatWAV(samples, rate: 16_000).write(to: URL(fileURLWithPath: wav))
        let out = folder.appendingPathComponent("huge.mp4").path
        let r = try CLI.run(["render", wav, "-o", out, "--size", "64x36", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "marble: warning: \(wav): 160 sound samples beyond ±1 (peak 1e+30) were clipped to ±1 before encoding\n", "\(r.stderr)")
        // Decoded again: full scale, give or take the codec's ringing (unclipped, the encoder refused it).
        let decoded = try TestMedia.run("ffmpeg", ["-v", "error", "-i", out, "-map", "0:a", "-f", "f32le", "-"])
        let peak = decoded.withUnsafeBytes { raw in raw.bindMemory(to: Float.self).reduce(Float(0)) { max($0, abs($1)) } }
        #expect(peak > 0.5 && peak < 2, "peak \(peak)")
    }

    /// A mono IEEE-float WAV of `samples` at `rate` Hz.
    static func floatWAV(_ samples: [Float], rate: UInt32) -> Data {
        var data = Data()
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 4)
        data.append(contentsOf: Array("RIFF".utf8)); put(36 + bytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8)); put(UInt32(16)); put(UInt16(3)); put(UInt16(1))
        put(rate); put(rate * 4); put(UInt16(4)); put(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); put(bytes)
        for s in samples { put(s.bitPattern) }
        return data
    }
}
