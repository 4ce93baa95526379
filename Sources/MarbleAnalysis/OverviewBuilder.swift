import MarbleCore

/// Builds a ``WaveformOverview`` while a song streams through the analysis pass, without knowing its
/// length in advance: bins start one sample wide; whenever ``WaveformOverview/maximumBins`` are full,
/// neighbouring bins merge in pairs (peaks by max, squares by sum) and bins become twice as wide. The
/// result has at most that many bins and, for a song longer than that many samples, more than half as
/// many. Memory: two channels × three arrays of 4096 values, allocated once. Not thread-safe.
final class OverviewBuilder {
    private let capacity = WaveformOverview.maximumBins
    private let sampleRate: Int
    private var binSamples = 1
    private var bins = 0          // bins complete or in progress (the last may be partial)
    private var filled = 0        // samples in the bin in progress
    private var peak: [[Float]]
    private var squares: [[Float]]
    private var stereo = false

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        peak = [[Float]](repeating: [Float](repeating: 0, count: WaveformOverview.maximumBins), count: 2)
        squares = peak
    }

    /// Adds a chunk of (finite) samples; `right == nil` for mono.
    func append(_ left: UnsafeBufferPointer<Float>, _ right: UnsafeBufferPointer<Float>?) {
        if right != nil { stereo = true }
        var i = 0
        while i < left.count {
            if filled == 0 {
                if bins == capacity { merge() }
                bins += 1
            }
            let n = min(binSamples - filled, left.count - i)
            let b = bins - 1
            accumulate(channel: 0, left.baseAddress! + i, n, bin: b)
            if let r = right?.baseAddress { accumulate(channel: 1, r + i, n, bin: b) }
            filled += n
            if filled == binSamples { filled = 0 }
            i += n
        }
    }

    /// Adds samples to a bin, summing squares in sample order from the bin's running sum, so the
    /// result does not depend on how the song was cut into chunks.
    private func accumulate(channel: Int, _ samples: UnsafePointer<Float>, _ n: Int, bin: Int) {
        var p: Float = 0, s = squares[channel][bin]
        for k in 0..<n {
            let x = samples[k]
            p = max(p, abs(x))
            s += x * x
        }
        peak[channel][bin] = max(peak[channel][bin], p)
        squares[channel][bin] = s
    }

    /// Pairs of bins become one bin twice as wide.
    private func merge() {
        for c in 0..<2 {
            for b in 0..<(bins / 2) {
                peak[c][b] = max(peak[c][2 * b], peak[c][2 * b + 1])
                squares[c][b] = squares[c][2 * b] + squares[c][2 * b + 1]
            }
            for b in (bins / 2)..<capacity { peak[c][b] = 0; squares[c][b] = 0 }
        }
        bins /= 2
        binSamples *= 2
    }

    /// The overview of what was appended (nil for no samples).
    func finish() -> WaveformOverview? {
        guard bins > 0 else { return nil }
        let channels = stereo ? 2 : 1
        var peaks: [[Float]] = [], rms: [[Float]] = []
        for c in 0..<channels {
            peaks.append(Array(peak[c][0..<bins]))
            rms.append((0..<bins).map { b in
                let n = b == bins - 1 && filled > 0 ? filled : binSamples
                return (squares[c][b] / Float(n)).squareRoot()
            })
        }
        return WaveformOverview(binSeconds: Double(binSamples) / Double(sampleRate), peaks: peaks, rms: rms)
    }
}
