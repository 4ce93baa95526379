import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

@Suite("AudioDecoder")
struct AudioDecoderTests {
    /// Decodes a whole file and returns (sample rate, channels, samples per channel, peak).
    func decodeAll(_ path: String) throws -> (rate: Int, channels: Int, samples: Int, peak: Float) {
        let d = try AudioDecoder(path: path)
        var peak: Float = 0
        while try d.decodeNext({ l, r in
            for x in l { peak = max(peak, abs(x)) }
            if let r { for x in r { peak = max(peak, abs(x)) } }
        }) {}
        return (d.sampleRate, d.channels, d.samplesDelivered, peak)
    }

    @Test("every input format decodes to the right length", arguments: [
        ("wav", ["-c:a", "pcm_s16le"]), ("wav", ["-c:a", "pcm_f32le"]), ("flac", []), ("mp3", ["-c:a", "libmp3lame"]),
        ("ogg", ["-c:a", "libvorbis"]), ("opus", ["-c:a", "libopus"]), ("m4a", ["-c:a", "aac"]),
    ])
    func formats(ext: String, codec: [String]) throws {
        let path = try TestMedia.tone(ext, seconds: 1.5, rate: ext == "opus" ? 48_000 : 44_100, codec: codec)
        let r = try decodeAll(path)
        let seconds = Double(r.samples) / Double(r.rate)
        // Lossy codecs add priming/padding; the decoder trims to the stated duration where the
        // container states it exactly (AAC in MP4, Opus and Vorbis in Ogg). MP3 may keep a frame.
        let tolerance = ext == "mp3" ? 0.06 : 0.005
        #expect(abs(seconds - 1.5) <= tolerance, "\(ext): decoded \(seconds) s")
        #expect(r.channels == 2)
        #expect(r.peak > 0.3 && r.peak <= 1.01)
    }

    @Test("sample rates from 8 kHz to 192 kHz", arguments: [8_000, 22_050, 48_000, 96_000, 192_000])
    func sampleRates(rate: Int) throws {
        let r = try decodeAll(try TestMedia.tone("flac", seconds: 0.5, rate: rate))
        #expect(r.rate == rate)
        #expect(abs(Double(r.samples) / Double(rate) - 0.5) < 0.002)
    }

    @Test("mono stays mono, 5.1 is downmixed to stereo", arguments: [(1, 1), (2, 2), (6, 2)])
    func channels(input: Int, expected: Int) throws {
        let r = try decodeAll(try TestMedia.tone("wav", seconds: 0.3, channels: input))
        #expect(r.channels == expected)
        #expect(r.peak > 0.2)
    }

    @Test("a file without audio is refused with a clear message")
    func noAudio() throws {
        let path = try TestMedia.make("silent-video.mp4", ["-f", "lavfi", "-i", "testsrc2=s=64x48:d=0.5", "-c:v", "libx264"])
        let error = #expect(throws: MarbleError.self) { try AudioDecoder(path: path) }
        #expect(error?.message.contains("has no audio stream") == true)
    }

    @Test("missing and undecodable files are refused")
    func badFiles() throws {
        #expect(throws: MarbleError.self) { try AudioDecoder(path: "/nonexistent/song.mp3") }
        let garbage = TestMedia.output("garbage.mp3")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: URL(fileURLWithPath: garbage))
        #expect(throws: MarbleError.self) { try AudioDecoder(path: garbage) }
    }

    @Test("a file that breaks off decodes what is there, with a warning or a short length")
    func truncated() throws {
        let full = try TestMedia.tone("mp3", seconds: 2, codec: ["-c:a", "libmp3lame"])
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let cut = TestMedia.output("cut.mp3")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let r = try decodeAll(cut)
        let seconds = Double(r.samples) / Double(r.rate)
        #expect(seconds > 0.5 && seconds < 1.5)
    }
}
