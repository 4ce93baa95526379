import Synchronization

/// What a pipeline run did: frames consumed, dropped and skipped, time per stage, and (for capture
/// sources) how long frames took from their sound's arrival to a finished picture.
public struct PipelineStatistics: Sendable {
    /// Frames every sink consumed.
    public var frames = 0
    /// Index of the last frame consumed (−1 before the first).
    public var lastIndex = -1
    /// Frames not drawn because they would have been late (real time only), plus those the most
    /// behind of several outputs missed (see ``outputs``).
    public var dropped = 0
    /// Frames dropped by the source (not drawn at all).
    public var sourceDropped = 0
    /// Each output: frames it took, and frames it missed because it was behind (several outputs in
    /// real time: each keeps its own pace).
    public var outputs: [OutputCount] = []

    /// One output's frame counts.
    public struct OutputCount: Sendable, Equatable {
        /// The output's name in summaries, as its sink gives it.
        public var label: String
        /// Frames the output took.
        public var consumed: Int
        /// Frames the output missed because it was behind.
        public var dropped: Int
    }
    /// The outputs that failed during the run and were closed while the others went on
    /// (`SinkFailureRule.closesSink`): their label and what happened, one line each.
    public var failedOutputs: [FailedOutput] = []

    /// An output closed on its own: the sink's label and its error.
    public struct FailedOutput: Sendable, Equatable {
        public var label: String
        public var message: String
    }
    /// Frames not drawn on purpose while the input was idle (silence).
    public var idleSkipped = 0
    /// Seconds of wall time from the start of the run to its end.
    public var wallSeconds = 0.0
    /// Milliseconds summed over frames: the source's work, drawing (conversion included), conversion
    /// alone, and the sinks.
    public var sourceMilliseconds = 0.0
    /// Drawing, colour conversion included (summed over frames).
    public var renderMilliseconds = 0.0
    /// RGBA → YUV conversion alone (summed over frames).
    public var convertMilliseconds = 0.0
    /// The sinks' work (summed over frames).
    public var sinkMilliseconds = 0.0
    /// Milliseconds from the arrival of a frame's newest sample to its finished picture, one value
    /// per frame that has an arrival time (capture sources), newest last; at most ``latencyCapacity``.
    public var latencies: [Double] = []
    /// How many latencies ``latencies`` keeps (the newest ones).
    public static let latencyCapacity = 4096
    private var latencyCursor = 0

    /// Zero everywhere: nothing run yet.
    public init() {}

    /// Reads the sinks' counters (the pipeline's thread; the workers' counters are atomics).
    mutating func collect(from workers: [SinkWorker]) {
        outputs = workers.map { OutputCount(label: $0.sink.label, consumed: $0.consumed, dropped: $0.dropped) }
        sinkMilliseconds = workers.reduce(0) { $0 + $1.busyMilliseconds }
        dropped = sourceDropped + (outputs.map(\.dropped).max() ?? 0)
    }

    /// Counts a consumed frame; `previousIndex` is the index of the one before it.
    mutating func record(_ slot: FrameSlot, previousIndex: Int) {
        frames += 1
        lastIndex = slot.index
        if slot.sourceTime > 0 && slot.readyTime >= slot.sourceTime {
            let ms = Double(slot.readyTime - slot.sourceTime) / 1e6
            // A ring once full: the statistics of a long live run stay bounded.
            if latencies.count < Self.latencyCapacity {
                if latencies.capacity < Self.latencyCapacity { latencies.reserveCapacity(Self.latencyCapacity) }
                latencies.append(ms)
            } else {
                latencies[latencyCursor] = ms
                latencyCursor = (latencyCursor + 1) % Self.latencyCapacity
            }
        }
    }

    /// The `p`-th percentile (0…100) of ``latencies``, or nil when there are none.
    public func latencyPercentile(_ p: Double) -> Double? {
        guard !latencies.isEmpty else { return nil }
        let sorted = latencies.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[max(0, min(sorted.count - 1, rank))]
    }
}

/// Counters the source thread raises and the sink thread reads.
final class PipelineCounters: Sendable {
    private let state = Mutex((late: 0, idle: 0))

    func add(late: Int, idle: Int) {
        guard late != 0 || idle != 0 else { return }
        state.withLock { $0.late += late; $0.idle += idle }
    }

    func copy(into statistics: inout PipelineStatistics) {
        let s = state.withLock { $0 }
        statistics.sourceDropped = s.late
        statistics.dropped = s.late
        statistics.idleSkipped = s.idle
    }

    var dropped: Int { state.withLock { $0.late } }
}
