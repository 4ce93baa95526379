import Foundation
import MarbleCore
@testable import MarbleMedia
@testable import MarblePipeline
import TestSupport
import Testing

/// How a constant-rate file fills indices a real-time source skipped.
@Suite struct EncodingSinkTests {
    /// A slot for frame `index` whose picture is one flat grey `luma` (and neutral chroma).
    static func slot(index: Int, luma: UInt8, width: Int = 64, height: Int = 32) throws -> FrameSlot {
        let slot = try FrameSlot(width: width, height: height, features: AudioFeatures(), hasPicture: false, needs: .yuv)
        slot.index = index
        let yuv = try #require(slot.yuv)
        try yuv.prepareForWriting()
        let p = yuv.planes
        for row in 0..<height { (p.y + row * p.yStride).update(repeating: luma, count: width) }
        for row in 0..<height / 2 {
            (p.u + row * p.uStride).update(repeating: 128, count: width / 2)
            (p.v + row * p.vStride).update(repeating: 128, count: width / 2)
        }
        return slot
    }

    /// The mean luma of every frame of `path`.
    static func lumas(_ path: String) throws -> [Int] {
        let raw = try TestMedia.run("ffmpeg", ["-v", "error", "-i", path, "-vf", "scale=8:4", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        return stride(from: 0, to: raw.count, by: 32).map { start in
            raw[start..<min(raw.count, start + 32)].reduce(0) { $0 + Int($1) } / 32
        }
    }

    func write(holding: Bool, _ frames: [(index: Int, luma: UInt8)]) throws -> [Int] {
        let path = TestMedia.output("hold-\(holding)-\(UUID().uuidString.prefix(6)).mp4")
        let settings = VideoEncoder.Settings(width: 64, height: 32, fps: Rational(30), crf: 0, preset: .ultrafast,
                                             threads: 1, globalHeader: false)
        let writer = try MediaWriter(path: path, format: .mp4, settings: settings, audioFrom: nil)
        let sink = EncodingSink(writer: writer, holdsPictures: holding) { _ in MarbleError(.output, "empty") }
        for f in frames { try sink.consume(try Self.slot(index: f.index, luma: f.luma)) }
        try sink.finish(stopped: false)
        return try Self.lumas(path)
    }

    @Test("real time: a skipped frame holds the picture before it, so no picture comes before its sound")
    func holdsThePreviousPicture() throws {
        let lumas = try write(holding: true, [(0, 40), (3, 200), (4, 120)])
        // Decoded to full-range grey: 40 → 28, 200 → 214, 120 → 121.
        #expect(lumas.count == 5)
        #expect(lumas.map { abs($0 - 28) <= 2 } == [true, true, true, false, false], "\(lumas)")
        #expect(abs(lumas[3] - 214) <= 2 && abs(lumas[4] - 121) <= 2, "\(lumas)")
    }

    @Test("offline (nothing is ever skipped there): no copy is kept, a gap takes the next picture")
    func offlineFillsWithTheNext() throws {
        let lumas = try write(holding: false, [(0, 40), (3, 200)])
        #expect(lumas.count == 4)
        #expect(lumas.map { abs($0 - 214) <= 2 } == [false, true, true, true], "\(lumas)")
    }
}
