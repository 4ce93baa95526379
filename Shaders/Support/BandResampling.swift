/// Maps the analyser's band levels onto a different number of display slots (bars, rings).

/// Resamples `bands` onto `count` slots written to `out`, each clamped to 0…1 (NaN → 0).
///
/// Fewer slots than bands: each slot takes the loudest band it covers (a peak must not vanish between
/// bars). More slots than bands: linear interpolation at the slot centre. No bands: zeros.
func resampleBands(_ bands: [Float], into out: UnsafeMutablePointer<Float>, count: Int) {
    let bandCount = bands.count
    guard bandCount > 0 else { out.update(repeating: 0, count: count); return }
    bands.withUnsafeBufferPointer { b in
        if bandCount >= count {
            for i in 0..<count {
                let start = i * bandCount / count
                let end = max(start + 1, (i + 1) * bandCount / count)
                var loudest: Float = 0
                for j in start..<end { loudest = max(loudest, clamp01(b[j])) }
                out[i] = loudest
            }
        } else {
            let ratio = Float(bandCount) / Float(count)
            for i in 0..<count {
                let p = clamp((Float(i) + 0.5) * ratio - 0.5, 0, Float(bandCount - 1))
                let j = Int(p)
                let k = min(j + 1, bandCount - 1)
                out[i] = clamp01(mix(b[j], b[k], p - Float(j)))
            }
        }
    }
}
