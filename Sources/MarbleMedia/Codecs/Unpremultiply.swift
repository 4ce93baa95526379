import MarbleCore

/// Premultiplied RGBA8 to straight RGBA8, as editors and PNG expect alpha: one row at a time, through a
/// 64 KB table of every (alpha, channel) pair, so a pixel costs three loads and no division.
///
/// A channel c of a pixel with alpha a (0 < a < 255) becomes min(255, (c·255 + a/2) / a), the rounded
/// inverse of premultiplying; opaque pixels are copied, and a fully transparent pixel is (0, 0, 0, 0).
/// Allocates nothing (the table is built once, on first use).
package enum Unpremultiply {
    /// Row `a` (alpha) of 256 entries: the straight value of each premultiplied channel value.
    static let table: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256 * 256)
        for a in 1..<256 {
            for c in 0..<256 { t[a << 8 | c] = UInt8(min(255, (c * 255 + a / 2) / a)) }
        }
        return t
    }()

    /// Converts `count` pixels of `source` (premultiplied, packed R, G, B, A) into `destination` (straight).
    /// The two may be the same memory.
    @inline(__always)
    package static func row(_ source: UnsafePointer<UInt32>, _ destination: UnsafeMutablePointer<UInt32>, count: Int) {
        table.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            for x in 0..<count {
                let p = source[x]
                let a = p >> 24
                if a == 255 {
                    destination[x] = p
                } else {
                    let base = Int(truncatingIfNeeded: a) &<< 8
                    let r = UInt32(t[base | Int(truncatingIfNeeded: p & 0xFF)])
                    let g = UInt32(t[base | Int(truncatingIfNeeded: (p >> 8) & 0xFF)])
                    let b = UInt32(t[base | Int(truncatingIfNeeded: (p >> 16) & 0xFF)])
                    destination[x] = r | g << 8 | b << 16 | a << 24
                }
            }
        }
    }

    /// Every row of `view` into `destination`, rows `stride` bytes apart (the whole picture).
    package static func picture(_ view: TextureView, into destination: UnsafeMutableRawPointer, stride: Int) {
        for y in 0..<view.height {
            row(view.row32(y), (destination + y &* stride).assumingMemoryBound(to: UInt32.self), count: view.width)
        }
    }
}
