import Foundation
import Testing

/// Golden images: one PAM file per image (P7, RGB_ALPHA, the bytes as rendered, `<name>.pam`) in a
/// `GoldenImages` folder next to the tests that use them (ShadersTests: Golden/GoldenImages;
/// MarbleKitTests: Render/Golden/GoldenImages and MilkDrop/GoldenImages).
///
/// Why PAM: a 7-line text header and the raw bytes, so the store needs no decoder and an image is
/// compared byte for byte with what was rendered; git compresses the files in its packs. ImageMagick,
/// GIMP and FFmpeg read PAM; `Scripts/golden-pngs.sh` writes PNG copies for any other viewer.
///
/// Why read by path (`#filePath`) and not as `Bundle.module` resources: an update writes the new image
/// into the source folder, and the tests read that same file, so no build-time copy can be stale; the
/// folders are `exclude`d from their targets in Package.swift, so SwiftPM neither warns about nor copies
/// them. (The tests read Samples/sample.ogg the same way.)
///
/// Regenerate with `Scripts/update-goldens.sh [suite]`, which runs the suites with
/// `MARBLE_UPDATE_GOLDEN=1` and lists what changed: mismatching or missing images are rewritten and each
/// rewrite records an issue naming how many pixels changed and by how much at most, so an updating run
/// never reads as a pass.
public struct GoldenStore: Sendable {
    /// The folder of `<name>.pam` files.
    public let folder: URL

    /// A store reading and writing the PAM files in `folder`.
    public init(folder: URL) {
        self.folder = folder
    }

    public static var updating: Bool { ProcessInfo.processInfo.environment["MARBLE_UPDATE_GOLDEN"] == "1" }

    public static func encode(_ bytes: [UInt8], width: Int, height: Int) -> Data {
        var data = Data("P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        data.append(contentsOf: bytes)
        return data
    }

    public static func decode(_ data: Data) -> (bytes: [UInt8], width: Int, height: Int)? {
        guard let end = data.range(of: Data("ENDHDR\n".utf8)) else { return nil }
        let header = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        var width = 0, height = 0
        for line in header.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, parts[0] == "WIDTH" { width = Int(parts[1]) ?? 0 }
            if parts.count == 2, parts[0] == "HEIGHT" { height = Int(parts[1]) ?? 0 }
        }
        let bytes = [UInt8](data[end.upperBound...])
        guard bytes.count == width * height * 4 else { return nil }
        return (bytes, width, height)
    }

    /// The file of image `name`.
    public func file(_ name: String) -> URL {
        folder.appendingPathComponent(name + ".pam")
    }

    /// The stored image `name`, decoded, or nil.
    public func image(_ name: String) -> (bytes: [UInt8], width: Int, height: Int)? {
        (try? Data(contentsOf: file(name))).flatMap(Self.decode)
    }

    /// Compares RGBA `bytes` with the stored image `name` within `tolerance` per channel.
    public func check(_ name: String, _ bytes: [UInt8], width: Int, height: Int, tolerance: Int = 2,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let stored = image(name)
        var worst: (difference: Int, index: Int)?
        if let stored, stored.width == width, stored.height == height, stored.bytes.count == bytes.count {
            worst = (0, 0)
            for i in bytes.indices {
                let d = abs(Int(stored.bytes[i]) - Int(bytes[i]))
                if d > worst!.difference { worst = (d, i) }
            }
        }
        if let worst, worst.difference <= tolerance { return }
        if Self.updating {
            let change = Self.change(from: stored, to: bytes, width: width, height: height)
            do {
                try Self.encode(bytes, width: width, height: height).write(to: file(name), options: .atomic)
                Issue.record(Comment(rawValue: "golden \(name) rewritten: \(change) (MARBLE_UPDATE_GOLDEN=1)"),
                             sourceLocation: sourceLocation)
            } catch {
                Issue.record(Comment(rawValue: "golden \(name): cannot write \(file(name).path): \(error)"),
                             sourceLocation: sourceLocation)
            }
        } else if let stored, let worst {
            let pixel = worst.index / 4
            let message = "golden \(name): max difference \(worst.difference) at x \(pixel % width), y \(pixel / width), "
                + "channel \(worst.index % 4): \(stored.bytes[worst.index]) vs \(bytes[worst.index])"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        } else if stored != nil {
            Issue.record("golden \(name): size differs from the stored image", sourceLocation: sourceLocation)
        } else {
            Issue.record("golden \(name) missing: run Scripts/update-goldens.sh (MARBLE_UPDATE_GOLDEN=1)",
                         sourceLocation: sourceLocation)
        }
    }

    /// What an update changes, in words: "new image", the sizes when they differ, else how many pixels
    /// differ in any channel and the largest difference of a channel.
    static func change(from stored: (bytes: [UInt8], width: Int, height: Int)?, to bytes: [UInt8],
                       width: Int, height: Int) -> String {
        guard let stored else { return "new image (\(width)x\(height))" }
        guard stored.width == width, stored.height == height, stored.bytes.count == bytes.count else {
            return "size \(stored.width)x\(stored.height) → \(width)x\(height)"
        }
        var pixels = 0, largest = 0
        for pixel in stride(from: 0, to: bytes.count, by: 4) {
            var differs = false
            for i in pixel..<pixel + 4 {
                let d = abs(Int(stored.bytes[i]) - Int(bytes[i]))
                if d > 0 { differs = true }
                largest = max(largest, d)
            }
            if differs { pixels += 1 }
        }
        return "\(pixels) of \(width * height) pixels changed, by at most \(largest)"
    }
}
