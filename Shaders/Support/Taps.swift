/// Gathering many source pixels into one: the inner loop of the blurs (radial, god rays, bokeh).
import MarbleCore

/// Sums of premultiplied channels in two 16-bit lanes per word (R,B and G,A): up to 257 taps of 255
/// never carry into the next lane.
struct TapSum {
    var rb: UInt32 = 0, ga: UInt32 = 0

    @inline(__always) mutating func add(_ p: UInt32) {
        rb &+= p & 0x00FF_00FF
        ga &+= (p >> 8) & 0x00FF_00FF
    }

    /// The mean of `count` taps as a pixel, rounded.
    @inline(__always) func mean(_ count: Int) -> UInt32 {
        let n = UInt32(max(1, count)), half = n / 2
        let r = ((rb & 0xFFFF) &+ half) / n, b = ((rb >> 16) &+ half) / n
        let g = ((ga & 0xFFFF) &+ half) / n, a = ((ga >> 16) &+ half) / n
        return r | g << 8 | b << 16 | a << 24
    }
}

/// Reads the source pixel nearest to (x, y) in pixel units, clamped to the picture.
@inline(__always) func nearestPixel(_ source: TextureView, _ x: Float, _ y: Float) -> UInt32 {
    let ix = Int(roundToInt32(clamp(x - 0.5, 0, Float(source.width - 1))))
    let iy = Int(roundToInt32(clamp(y - 0.5, 0, Float(source.height - 1))))
    return source.row32(iy)[ix]
}
