/// A bounded ring of the most recent stereo samples, addressed by absolute sample index
/// (0 = first sample ever appended).
///
/// Memory is flat in stream length: the capacity is fixed at init and only grows (by doubling) when
/// a caller appends further ahead of what analysis still needs than the capacity allows, which a
/// caller that computes frames as it goes never does. Reads outside `[available, count)` return
/// silence, which is also how the stream start (negative indices) and the end (after `finish`) read.
final class SampleRing {
    private(set) var capacity: Int
    private var mask: Int
    private var left: UnsafeMutablePointer<Float>
    private var right: UnsafeMutablePointer<Float>
    /// Samples appended so far (absolute index of the next sample).
    private(set) var count: Int = 0
    /// True when the input was mono (right mirrors left).
    private(set) var sawStereo = false

    init(minimumCapacity: Int) {
        let c = FastMath.powerOfTwo(from: 1024, atLeast: Double(minimumCapacity))
        capacity = c
        mask = c - 1
        left = .allocate(capacity: c)
        right = .allocate(capacity: c)
        left.initialize(repeating: 0, count: c)
        right.initialize(repeating: 0, count: c)
    }

    deinit {
        left.deallocate()
        right.deallocate()
    }

    /// Oldest absolute index still held.
    var oldest: Int { max(0, count - capacity) }

    /// Appends planar samples; `r == nil` means mono. `keepFrom` is the oldest absolute index the
    /// caller still needs: the ring grows if appending would overwrite it.
    func append(_ l: UnsafeBufferPointer<Float>, _ r: UnsafeBufferPointer<Float>?, keepFrom: Int) {
        let n = l.count
        guard n > 0, let lb = l.baseAddress else { return }
        if count + n - max(0, keepFrom) > capacity { grow(toHold: count + n - max(0, keepFrom)) }
        let rb: UnsafePointer<Float>
        if let r, let base = r.baseAddress, r.count >= n { rb = base; sawStereo = true } else { rb = lb }
        var done = 0
        while done < n {
            let pos = (count &+ done) & mask
            let chunk = min(n - done, capacity - pos)
            Self.copyFinite(lb + done, left + pos, chunk)
            Self.copyFinite(rb + done, right + pos, chunk)
            done += chunk
        }
        count += n
    }

    /// Copies samples, replacing NaN and ±infinity (a broken decoder) by 0 so nothing downstream
    /// turns non-finite. Branch-free, so it vectorises like a plain copy.
    @inline(__always)
    static func copyFinite(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ n: Int) {
        for i in 0..<n {
            let bits = src[i].bitPattern
            // Exponent all ones = NaN or infinity.
            dst[i] = (bits & 0x7f80_0000) == 0x7f80_0000 ? 0 : src[i]
        }
    }

    /// Appends `n` zeros (end-of-stream padding).
    func appendSilence(_ n: Int, keepFrom: Int) {
        guard n > 0 else { return }
        if count + n - max(0, keepFrom) > capacity { grow(toHold: count + n - max(0, keepFrom)) }
        var done = 0
        while done < n {
            let pos = (count &+ done) & mask
            let chunk = min(n - done, capacity - pos)
            (left + pos).update(repeating: 0, count: chunk)
            (right + pos).update(repeating: 0, count: chunk)
            done += chunk
        }
        count += n
    }

    private func grow(toHold needed: Int) {
        let c = FastMath.powerOfTwo(from: capacity, atLeast: Double(needed))
        let nl = UnsafeMutablePointer<Float>.allocate(capacity: c)
        let nr = UnsafeMutablePointer<Float>.allocate(capacity: c)
        nl.initialize(repeating: 0, count: c)
        nr.initialize(repeating: 0, count: c)
        let start = oldest
        for i in start..<count {
            nl[i & (c - 1)] = left[i & mask]
            nr[i & (c - 1)] = right[i & mask]
        }
        left.deallocate(); right.deallocate()
        left = nl; right = nr
        capacity = c; mask = c - 1
    }

    /// Copies samples `[start, start + n)` of one channel (0 = left, 1 = right) to `dst`,
    /// zero-filling anything not held.
    @inline(__always)
    func copy(channel: Int, from start: Int, count n: Int, to dst: UnsafeMutablePointer<Float>) {
        let src = channel == 0 ? left : right
        let lo = max(start, oldest), hi = min(start + n, count)
        if lo >= hi { dst.update(repeating: 0, count: n); return }
        if lo > start { dst.update(repeating: 0, count: lo - start) }
        if hi < start + n { (dst + (hi - start)).update(repeating: 0, count: start + n - hi) }
        var i = lo
        while i < hi {
            let pos = i & mask
            let chunk = min(hi - i, capacity - pos)
            (dst + (i - start)).update(from: src + pos, count: chunk)
            i += chunk
        }
    }

    /// Writes the mono mix `(l + r) / 2 · window[i]` of `[start, start + n)` to `dst`.
    @inline(__always)
    func copyMonoWindowed(from start: Int, count n: Int, window: UnsafePointer<Float>,
                          to dst: UnsafeMutablePointer<Float>) {
        let lo = max(start, oldest), hi = min(start + n, count)
        if lo >= hi { dst.update(repeating: 0, count: n); return }
        if lo > start { dst.update(repeating: 0, count: lo - start) }
        if hi < start + n { (dst + (hi - start)).update(repeating: 0, count: start + n - hi) }
        var i = lo
        while i < hi {
            let pos = i & mask
            let chunk = min(hi - i, capacity - pos)
            let o = i - start
            let l = left + pos, r = right + pos, w = window + o, d = dst + o
            for j in 0..<chunk { d[j] = (l[j] + r[j]) * 0.5 * w[j] }
            i += chunk
        }
    }

    /// Calls `body` with contiguous pointer runs covering `[start, end)` (only held samples).
    @inline(__always)
    func forEachRun(from start: Int, to end: Int,
                    _ body: (UnsafePointer<Float>, UnsafePointer<Float>, Int) -> Void) {
        var i = max(start, oldest)
        let hi = min(end, count)
        while i < hi {
            let pos = i & mask
            let chunk = min(hi - i, capacity - pos)
            body(left + pos, right + pos, chunk)
            i += chunk
        }
    }
}
