/// Gathering many source pixels into one: the inner loop of the blurs (radial, god rays, bokeh).
import MarbleCore

/// Sums of premultiplied channels in two 16-bit lanes per word (R,B and G,A): up to 257 taps of 255
/// never carry into the next lane.
struct TapSum {
    var rb: UInt32 = 0, ga: UInt32 = 0

    /// The mean of `count` taps as a pixel, rounded.
    @inline(__always) func mean(_ count: Int) -> UInt32 {
        let n = UInt32(max(1, count)), half = n / 2
        let r = ((rb & 0xFFFF) &+ half) / n, b = ((rb >> 16) &+ half) / n
        let g = ((ga & 0xFFFF) &+ half) / n, a = ((ga >> 16) &+ half) / n
        return r | g << 8 | b << 16 | a << 24
    }
}
