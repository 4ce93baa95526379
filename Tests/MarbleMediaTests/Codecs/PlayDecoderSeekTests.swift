import Foundation
@testable import MarbleMedia
import TestSupport
import Testing

/// Seeking, as `marble play` uses it: decoding resumes exactly at the target sample.
@Suite("marble play: AudioDecoder.seek")
struct PlayDecoderSeekTests {
    /// A ramp whose value is the time in tenths: sample at t seconds ≈ t / 10.
    func ramp(_ ext: String, codec: [String]) throws -> String {
        try TestMedia.make("ramp.\(ext)", ["-f", "lavfi", "-i", "aevalsrc=t/10:s=8000:d=10"] + codec)
    }

    @Test("lossless formats land on the exact sample", arguments: [("wav", ["-c:a", "pcm_f32le"]), ("flac", [])])
    func exact(ext: String, codec: [String]) throws {
        let d = try AudioDecoder(path: try ramp(ext, codec: codec))
        for target in [3.0, 7.25, 1.0] {
            try d.seek(to: target)
            var first: Float = -1
            _ = try d.decodeNext { l, _ in first = l[0] }
            #expect(d.chunkStart == Int(target * 8000), "\(ext) → \(target)")
            #expect(abs(first - Float(target / 10)) < 1e-3, "\(ext) → \(target): first sample \(first)")
        }
    }

    @Test("seeking past the end ends the stream")
    func pastTheEnd() throws {
        let d = try AudioDecoder(path: try ramp("wav", codec: ["-c:a", "pcm_f32le"]))
        try d.seek(to: 60)
        var count = 0
        while try d.decodeNext({ l, _ in count += l.count }) {}
        #expect(count == 0)
    }
}
