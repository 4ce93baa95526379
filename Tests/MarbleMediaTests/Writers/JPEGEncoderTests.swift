import Foundation
import Testing
import MarbleCore
@testable import MarbleMedia

@Suite struct JPEGEncoderTests {
    /// A picture red on the left half and blue on the right, opaque.
    private func halves(width: Int, height: Int) -> Texture {
        let t = Texture(width: width, height: height)
        let v = t.view
        for y in 0..<height {
            let row = v.row(y)
            for x in 0..<width {
                let left = x < width / 2
                row[x * 4] = left ? 230 : 20
                row[x * 4 + 1] = 20
                row[x * 4 + 2] = left ? 20 : 230
                row[x * 4 + 3] = 255
            }
        }
        return t
    }

    @Test func encodesAPictureFFmpegReadsBack() throws {
        let encoder = try JPEGEncoder(width: 64, height: 36, quality: 90)
        let bytes = try encoder.encode(halves(width: 64, height: 36).view)
        #expect(bytes.starts(with: [0xFF, 0xD8]))            // SOI
        #expect(Array(bytes.suffix(2)) == [0xFF, 0xD9])       // EOI
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jpeg-\(UUID().uuidString).jpg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try StillImage.size(path: path) == (width: 64, height: 36))
        let back = Texture(width: 64, height: 36)
        try StillImage.decode(path: path, into: back)
        let row = back.view.row(18)
        // Far from the edge, the colours come back within JPEG's error.
        #expect(abs(Int(row[8 * 4]) - 230) < 16 && abs(Int(row[8 * 4 + 2]) - 20) < 16)
        #expect(abs(Int(row[56 * 4]) - 20) < 16 && abs(Int(row[56 * 4 + 2]) - 230) < 16)
    }

    @Test func theEncoderIsReusedAndQualityChangesTheSize() throws {
        // Detail (a pseudo-random pattern), where the quantiser matters; flat halves are all header.
        let picture = Texture(width: 320, height: 180)
        var seed: UInt32 = 12345
        for y in 0..<180 {
            let row = picture.view.row(y)
            for x in 0..<(320 * 4) {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                row[x] = x % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: seed >> 24)
            }
        }
        let low = try JPEGEncoder(width: 320, height: 180, quality: 10)
        let high = try JPEGEncoder(width: 320, height: 180, quality: 95)
        let first = try high.encode(picture.view)
        #expect(try high.encode(picture.view) == first)       // the same picture, the same bytes
        #expect(try low.encode(picture.view).count < first.count)
    }

    @Test func refusesSizesAndQualitiesOutOfRange() {
        #expect(throws: MarbleError.self) { try JPEGEncoder(width: 15, height: 36) }
        #expect(throws: MarbleError.self) { try JPEGEncoder(width: 65, height: 36) }
        #expect(throws: MarbleError.self) { try JPEGEncoder(width: 64, height: 36, quality: 0) }
        #expect(throws: MarbleError.self) { try JPEGEncoder(width: 64, height: 36, quality: 101) }
    }
}
