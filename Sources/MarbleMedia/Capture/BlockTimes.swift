/// When each block of a `CaptureBuffer` was appended: a fixed ring of (first sample index, monotonic
/// time) pairs, oldest overwritten, looked up by binary search. Allocated once; not thread-safe on its
/// own (the buffer calls it under its lock).
struct BlockTimes {
    private var firstSamples: [Int]
    private var times: [UInt64]
    /// Ring position of the oldest entry, and how many entries are held.
    private var head = 0
    private var count = 0

    init(capacity: Int) {
        firstSamples = [Int](repeating: 0, count: max(1, capacity))
        times = [UInt64](repeating: 0, count: max(1, capacity))
    }

    /// Records a block starting at `firstSample` (which must exceed the previous block's).
    mutating func record(firstSample: Int, time: UInt64) {
        let capacity = firstSamples.count
        let at = (head + count) % capacity
        firstSamples[at] = firstSample
        times[at] = time
        if count < capacity { count += 1 } else { head = (head + 1) % capacity }
    }

    /// The time of the last block starting at or before `index`; nil when `index` is older than every
    /// block held. (The caller checks that `index` was written.)
    func time(ofSample index: Int) -> UInt64? {
        guard count > 0 else { return nil }
        let capacity = firstSamples.count
        guard firstSamples[head] <= index else { return nil }
        // Last entry (in age order) whose first sample is ≤ index.
        var low = 0, high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if firstSamples[(head + middle) % capacity] <= index { low = middle } else { high = middle - 1 }
        }
        return times[(head + low) % capacity]
    }
}
