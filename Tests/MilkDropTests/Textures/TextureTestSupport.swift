import Foundation
import MarbleCore
@testable import MilkDrop

/// The four sampler modes by their MilkDrop prefixes.
enum Modes {
    static let fw = SamplerMode(bilinear: true, wraps: true)
    static let fc = SamplerMode(bilinear: true, wraps: false)
    static let pw = SamplerMode(bilinear: false, wraps: true)
    static let pc = SamplerMode(bilinear: false, wraps: false)
}

/// Packs bytes as the textures store them (R in the low byte).
func packed(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32 = 255) -> UInt32 { r | g << 8 | b << 16 | a << 24 }

/// A texture of the given packed texels, row by row (slice by slice).
func texture(_ width: Int, _ height: Int, depth: Int = 1, _ texels: [UInt32]) -> OwnedTexture {
    precondition(texels.count == width * height * depth)
    return OwnedTexture(width: width, height: height, depth: depth) { out in
        for i in 0..<texels.count { out[i] = texels[i] }
    }
}

/// One lane read at (u, v[, w]): r, g, b, a in 0…1.
func read(_ t: any ShaderTexture, _ mode: SamplerMode, _ u: Float, _ v: Float, _ w: Float? = nil) -> SIMD4<Float> {
    var uu = u, vv = v, ww = w ?? 0
    var out = [Float](repeating: -1, count: 4)
    withUnsafePointer(to: &uu) { up in withUnsafePointer(to: &vv) { vp in withUnsafePointer(to: &ww) { wp in
        out.withUnsafeMutableBufferPointer { o in
            let p = o.baseAddress!
            t.sample(mode: mode, count: 1, u: up, v: vp, w: w == nil ? nil : wp, r: p, g: p + 1, b: p + 2, a: p + 3)
        }
    } } }
    return SIMD4(out[0], out[1], out[2], out[3])
}

/// A texel's bytes as 0…1 floats.
func unit(_ p: UInt32) -> SIMD4<Float> {
    SIMD4(Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF), Float(p >> 24)) / 255
}

func close(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ tolerance: Float = 1e-6) -> Bool {
    let d = a - b
    return max(max(abs(d[0]), abs(d[1])), max(abs(d[2]), abs(d[3]))) <= tolerance
}

/// A fresh empty directory for one test.
func temporaryFolder(_ tag: String) -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("milk-\(tag)-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The tests' own image format, trivially parsed: the text `W H R G B A`, an image of one colour.
/// It counts the images it decoded, so a test can tell that a refused size never got that far.
final class FlatImageLoader: ShaderImageLoader, @unchecked Sendable {
    // Safety of @unchecked Sendable: `decoded` is only touched by the test's own thread.
    var decoded = 0

    struct Unreadable: Error {}

    private func fields(_ path: String) throws -> [Int] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw Unreadable() }
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        guard numbers.count == 6 else { throw Unreadable() }
        return numbers
    }

    func size(ofImageAt path: String) throws -> (width: Int, height: Int) {
        let f = try fields(path)
        return (f[0], f[1])
    }

    func decode(imageAt path: String, into texture: Texture) throws {
        let f = try fields(path)
        guard f[0] == texture.width && f[1] == texture.height else { throw Unreadable() }
        decoded += 1
        texture.fill(RGBA8(r: UInt8(f[2]), g: UInt8(f[3]), b: UInt8(f[4]), a: UInt8(f[5])))
    }

    /// Writes an image file of this format.
    static func write(_ path: String, width: Int = 2, height: Int = 2, r: Int, g: Int = 0, b: Int = 0, a: Int = 255) {
        try! "\(width) \(height) \(r) \(g) \(b) \(a)\n".write(toFile: path, atomically: true, encoding: .utf8)
    }
}
