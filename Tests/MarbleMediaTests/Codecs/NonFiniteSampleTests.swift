import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

/// A float file with NaN and infinite samples (a broken export) decodes to silence in their place, with
/// one warning, and encodes to AAC (which refuses non-finite input with "Invalid argument").
@Suite("AudioDecoder: NaN and infinite samples")
struct NonFiniteSampleTests {
    /// A mono 32-bit float WAV (format 3) of `samples`.
    static func floatWAV(_ samples: [Float], rate: Int = 8_000) throws -> String {
        var data = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(36 + samples.count * 4)
        data.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16)
        u16(3); u16(1); u32(rate); u32(rate * 4); u16(4); u16(32)
        data.append(contentsOf: Array("data".utf8)); u32(samples.count * 4)
        for s in samples { withUnsafeBytes(of: s.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        let path = TestMedia.folder.appendingPathComponent("nonfinite-\(samples.count).wav").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    static let broken: [Float] = (0..<8_000).map { i in
        switch i % 1000 {
        case 0: .nan
        case 1: .infinity
        case 2: -.infinity
        default: 0.5 * sin(Float(i) * 0.1)
        }
    }

    @Test("every decoded sample is finite, the bad ones are counted, one warning names the file")
    func decodesToSilence() throws {
        let path = try Self.floatWAV(Self.broken)
        let decoder = try AudioDecoder(path: path)
        var total = 0, allFinite = true
        while try decoder.decodeNext({ l, _ in
            total += l.count
            allFinite = allFinite && l.allSatisfy(\.isFinite)
        }) {}
        #expect(total == Self.broken.count)
        #expect(allFinite)
        #expect(decoder.nonFiniteSamples == 24)
        #expect(decoder.warnings.count == 1)
        #expect(decoder.warnings.first?.contains(path) == true)
    }

    @Test("a file with them encodes to AAC in MP4")
    func encodes() throws {
        let path = try Self.floatWAV(Self.broken)
        let out = TestMedia.output("nonfinite.mp4")
        let writer = try MediaWriter(
            path: out, format: .mp4,
            settings: VideoEncoder.Settings(width: 64, height: 36, fps: Rational(10), crf: 30, preset: .ultrafast, threads: 1, globalHeader: true),
            sound: .file(path: path, bitrate: nil))
        let picture = try YUVFrame(width: 64, height: 36)
        for _ in 0..<10 { try writer.write(picture) }
        try writer.finish(trimAudio: true)
        let probe = try Probe(out)
        #expect(probe.audio?.codec == "aac")
    }
}
