import Synchronization
import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline

/// A capture device as a frame source: the live, causal configuration of the frame path.
///
/// The capture's sample stream is the clock. Frame n (at n / fps on the live timeline, whose 0 is the
/// first sample after the session started) is due once the samples up to its end,
/// (n + 1) / fps, have arrived; so a frame is ready one fragment, one analysis hop and one render after
/// its sound reached the capture, and a recording's picture and sound are in step by construction.
/// Every frame is analysed, in order (smoothing and beat tracking never see a gap); when the source
/// thread fell behind by more than ``lagAllowance`` frames, only the newest due frame is drawn and the
/// others count as late. The allowance is 0 for a display (a picture is current or not shown); a
/// recording alone may allow a fraction of a second, so a moment of load costs it no frame.
///
/// Idle: after ``idleAfter`` seconds of silence (no sample above ``silenceThreshold``), only every
/// ``idleStride``-th frame is drawn, so an unchanging picture does not keep the cores busy; the first
/// sound brings the full rate back at once.
///
/// Safety of @unchecked Sendable: used by the pipeline's source thread only, but for ``isIdle``
/// (an atomic) and the constants.
package final class CaptureFrameSource: FrameSource, @unchecked Sendable {
    let buffer: CaptureBuffer
    let fps: Rational
    /// The sample index (in the buffer's stream) of the live timeline's 0.
    private(set) var startSample: Int
    private let fromStart: Bool
    /// Frames to produce before ending (a `--duration`), or nil to run until cancelled.
    let frameLimit: Int?
    /// How many frames the source may fall behind the capture before it skips to the newest due one.
    let lagAllowance: Int
    /// Read once per frame: the sensitivity chosen now (keys +/-).
    private let sensitivity: @Sendable () -> Float
    private let extractor: FeatureExtractor
    private var scratch: AudioFeatures
    /// Samples (per channel, from `startSample`) handed to the extractor so far.
    private var appended = 0
    /// The last frame analysed.
    private var analysed = -1
    /// The relative index of the newest sample above the silence threshold (the start counts as loud).
    private var lastLoud = 0
    /// Zeros, for samples lost to a stall.
    private let silence = [Float](repeating: 0, count: 4096)

    static let silenceThreshold: Float = 1e-4   // −80 dBFS
    let idleAfter: Double
    /// ``idleAfter`` in samples (Int.max: never idle).
    private let idleSamples: Int
    let idleStride: Int

    package init(buffer: CaptureBuffer, fps: Rational, configuration: AnalysisConfiguration = AnalysisConfiguration(),
         frameLimit: Int? = nil, lagAllowance: Int = 0, idleAfter: Double = 2, idleFramesPerSecond: Double = 5,
         sensitivity: @escaping @Sendable () -> Float = { 1 }, fromStart: Bool = false,
         needs: OptionalFeatures = []) throws(MarbleError) {
        self.buffer = buffer
        self.fps = fps
        self.frameLimit = frameLimit
        // The capture must still hold the sound of the oldest frame allowed to wait.
        let held = Int(Double(buffer.capacity) / Double(buffer.sampleRate) * fps.doubleValue / 2)
        self.lagAllowance = min(max(0, lagAllowance), held)
        self.sensitivity = sensitivity
        self.idleAfter = idleAfter
        idleStride = max(1, Int((fps.doubleValue / idleFramesPerSecond).rounded()))
        // Never idle for an infinite (or absurd) delay: the product is checked before it becomes an Int.
        let idle = idleAfter * Double(buffer.sampleRate)
        idleSamples = idle.isFinite && idle >= 0 && idle < 1e15 ? Int(idle) : Int.max
        extractor = try FeatureExtractor(sampleRate: buffer.sampleRate, fps: fps, configuration: configuration)
        try extractor.request(needs)   // the optional features the presets read
        scratch = extractor.makeFeatures()
        // Live, the timeline starts now; a playlist's starts with its first sample.
        startSample = fromStart ? 0 : buffer.written
        self.fromStart = fromStart
    }

    /// Live, starts the timeline again at the newest sample: called just before the pipeline runs, so
    /// the sound captured while the outputs opened (an encoder, a stream's connection: a few frames)
    /// is not a backlog the first frames skip. Before the first frame only; returns the new start.
    @discardableResult
    package func startTimelineNow() -> Int {
        if !fromStart && analysed < 0 && appended == 0 { startSample = buffer.written }
        return startSample
    }

    package var hasPictures: Bool { false }
    package var warnings: [String] { [] }
    package func makeFeatures() -> AudioFeatures { extractor.makeFeatures() }

    /// Whether the input has been silent for longer than ``idleAfter`` (any thread).
    var isIdle: Bool { idleFlag.load(ordering: .relaxed) }
    private let idleFlag = Atomic<Bool>(false)

    package func nextDueFrame(cancel: CancellationFlag) throws(MarbleError) -> DueFrame? {
        var late = 0, idle = 0
        while !cancel.isCancelled {
            let next = analysed + 1
            if let frameLimit, next >= frameLimit { return nil }
            take()
            guard extractor.samplesNeeded(forFrame: next) <= appended else {
                // A feed that ended (a playlist played through) ends the frames with its last whole one.
                if buffer.hasEnded && buffer.written <= startSample + appended { return nil }
                _ = buffer.wait(after: startSample + appended, timeout: 0.05)
                continue
            }
            let newer = extractor.samplesNeeded(forFrame: next + 1 + lagAllowance) <= appended
            if newer && frameLimit.map({ next + 1 < $0 }) ?? true {
                // Another frame is due already: this one would be late. Analyse it, draw the next.
                extractor.computeFeatures(forFrame: next, into: &scratch)
                analysed = next
                late += 1
                continue
            }
            let silent = appended - lastLoud > idleSamples
            idleFlag.store(silent, ordering: .relaxed)
            if silent && next % idleStride != 0 && frameLimit != next + 1 {
                extractor.computeFeatures(forFrame: next, into: &scratch)
                analysed = next
                idle += 1
                continue
            }
            return DueFrame(index: next, lateSkipped: late, idleSkipped: idle, isLast: frameLimit == next + 1)
        }
        return nil
    }

    package func produce(_ due: DueFrame, into slot: FrameSlot?) throws(MarbleError) {
        analysed = due.index
        guard let slot else {
            extractor.computeFeatures(forFrame: due.index, into: &scratch)
            return
        }
        slot.index = due.index
        slot.time = fps.seconds(ofFrame: due.index)
        extractor.computeFeatures(forFrame: due.index, into: &slot.features)
        slot.features.time = slot.time
        slot.features.applySensitivity(sensitivity())
        let newest = startSample + extractor.samplesNeeded(forFrame: due.index) - 1
        slot.sourceTime = buffer.arrivalTime(ofSample: newest) ?? 0
    }

    /// Moves what the capture delivered since the last call into the analyser.
    private func take() {
        let available = buffer.written
        var from = startSample + appended
        guard available > from else { return }
        let oldest = available - buffer.capacity
        if from < oldest {
            // The ring no longer holds the oldest samples (a stall of seconds): they count as
            // silence, so the analyser's stream stays as long as the live timeline.
            appendSilence(oldest - from)
            from = oldest
        }
        var cursor = from - startSample
        buffer.read(from: from, upTo: available) { left, right in
            extractor.append(left: left, right: right)
            for i in 0..<left.count where abs(left[i]) > Self.silenceThreshold || abs(right[i]) > Self.silenceThreshold {
                lastLoud = cursor + i
            }
            cursor += left.count
        }
        appended = available - startSample
    }

    private func appendSilence(_ count: Int) {
        silence.withUnsafeBufferPointer { zeros in
            var missing = count
            while missing > 0 {
                let n = min(missing, zeros.count)
                let run = UnsafeBufferPointer(rebasing: zeros[0..<n])
                extractor.append(left: run, right: run)
                missing -= n
            }
        }
    }
}
