import Foundation
import Synchronization
import MarbleCore
import MarbleMedia

/// Silence, then a 1 kHz tone, `steps` times (600 ms + 3.7 ms × step of silence, 300 ms of tone): the
/// latency signal. The silences grow so that the steps fall at every phase of the frame period.
struct StepSignal {
    let samples: [Float]
    /// Sample index of each tone's first sample.
    let onsets: [Int]

    init(rate: Int, steps: Int) {
        let loud = Int(0.3 * Double(rate))
        var s: [Float] = [], o: [Int] = []
        s.reserveCapacity(steps * (Int(0.7 * Double(rate)) + loud))
        for k in 0..<steps {
            s.append(contentsOf: repeatElement(0, count: Int((0.6 + 0.0037 * Double(k)) * Double(rate))))
            o.append(s.count)
            for i in 0..<loud { s.append(0.5 * Float(sin(2 * Double.pi * 1000 * Double(i) / Double(rate)))) }
        }
        samples = s
        onsets = o
    }
}

/// A click track: a 2 kHz blip with a 4 ms decay on every beat of `tempo`, from 0.5 s on.
struct ClickTrack {
    let samples: [Float]

    init(rate: Int, tempo: Double, seconds: Double) {
        var s = [Float](repeating: 0, count: Int(seconds * Double(rate)))
        let period = 60 / tempo
        var t = 0.5
        while t < seconds - 0.1 {
            let start = Int(t * Double(rate))
            for i in 0..<min(Int(0.03 * Double(rate)), s.count - start) {
                let x = Double(i) / Double(rate)
                s[start + i] = Float(0.8 * exp(-x / 0.004) * sin(2 * Double.pi * 2000 * x))
            }
            t += period
        }
        samples = s
    }
}

/// Plays a mono signal into the default sink (stereo float32, 10 ms writes, a 20 ms buffer) on a
/// thread of its own, after half a second of silence, and notes when each write's first sample is
/// played: the write's end plus the latency PulseAudio reports, less the write's length.
final class SignalPlayer: Sendable {
    let rate: Int
    private let signal: [Float]
    /// (first signal sample of a write, monotonic ns at which it is played)
    private let schedule = Mutex<[(sample: Int, played: UInt64)]>([])
    private let failure = Mutex<MarbleError?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(rate: Int, signal: [Float]) throws(MarbleError) {
        self.rate = rate
        self.signal = signal
    }

    /// Starts playing; `ended` is called on the player's thread after the signal and 0.5 s more.
    func start(ended: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [self] in
            do throws(MarbleError) {
                try play()
            } catch {
                failure.withLock { $0 = error }
            }
            ended()
            done.signal()
        }
    }

    /// Waits for the player; returns its error, if any.
    func finish() -> MarbleError? {
        done.wait()
        done.signal()
        return failure.withLock { $0 }
    }

    private func play() throws(MarbleError) {
        let output = try PulseAudioOutput(sampleRate: rate, device: nil, streamName: "marble bench --live", bufferSeconds: 0.02)
        let block = rate / 100
        let lead = rate / 2
        var interleaved = [Float](repeating: 0, count: 2 * block)
        var position = -lead   // negative: the silence before the signal
        let end = signal.count + lead
        var plan: [(sample: Int, played: UInt64)] = []
        plan.reserveCapacity(end / block + 2)
        while position < end {
            for i in 0..<block {
                let k = position + i
                let v: Float = k >= 0 && k < signal.count ? signal[k] : 0
                interleaved[2 * i] = v
                interleaved[2 * i + 1] = v
            }
            try interleaved.withUnsafeBufferPointer { p throws(MarbleError) in try output.write(p.baseAddress!, frames: block) }
            let latency = try output.latency()
            let now = MonotonicClock.now()
            let played = Int64(now) + Int64((latency - Double(block) / Double(rate)) * 1e9)
            plan.append((position, UInt64(max(0, played))))
            position += block
        }
        try output.drain()
        schedule.withLock { $0 = plan }
    }

    /// When signal sample `index` was played (monotonic ns), or nil if it was not.
    func playTime(ofSample index: Int) -> UInt64? {
        schedule.withLock { plan in
            let block = rate / 100
            guard let entry = plan.last(where: { $0.sample <= index }), index < entry.sample + block else { return nil }
            return entry.played + UInt64(Double(index - entry.sample) / Double(rate) * 1e9)
        }
    }
}

/// Scores the beat tracker on a captured click track (see ``LiveBench``).
enum BeatScore {
    static let tolerance = 0.070

    static func score(_ frames: [MeasuringSink.Frame], tempo: Double, fps: Double) -> LiveBench.BeatResult {
        let period = 60 / tempo
        func time(_ f: MeasuringSink.Frame) -> Double { (Double(f.index) + 0.5) / fps }
        // Clicks: frames where the level rises through a threshold. Their grid: the circular mean phase.
        var clicks: [Double] = []
        var previous: Float = 1
        for f in frames {
            if f.peak > 0.3 && previous <= 0.3 { clicks.append(time(f)) }
            previous = f.peak
        }
        guard let first = clicks.first, let last = clicks.last, clicks.count >= 4 else {
            return .init(tempo: tempo, lockSeconds: nil, fMeasure: 0, tempoError: 1)
        }
        var sx = 0.0, sy = 0.0
        for c in clicks {
            let a = 2 * Double.pi * c.truncatingRemainder(dividingBy: period) / period
            sx += cos(a); sy += sin(a)
        }
        var phase = atan2(sy, sx) / (2 * Double.pi) * period
        if phase < 0 { phase += period }
        var truth: [Double] = []
        var t = phase
        while t <= last + period / 2 {
            if t >= first - period / 2 { truth.append(t) }
            t += period
        }
        let beats = frames.filter(\.isBeat).map(time).filter { $0 <= last + tolerance }
        func matches(_ b: Double) -> Bool { truth.contains { abs($0 - b) <= tolerance } }
        // Lock: the earliest beat from which every later beat is on a click.
        var lockIndex: Int?
        for i in beats.indices.reversed() {
            if matches(beats[i]) { lockIndex = i } else { break }
        }
        guard let lock = lockIndex, beats.count - lock >= 3 else {
            return .init(tempo: tempo, lockSeconds: nil, fMeasure: 0, tempoError: 1)
        }
        let lockTime = beats[lock]
        let after = Array(beats[lock...])
        let expected = truth.filter { $0 >= lockTime - tolerance }
        var used = Set<Int>()
        var hits = 0
        for b in after {
            if let j = expected.indices.first(where: { !used.contains($0) && abs(expected[$0] - b) <= tolerance }) {
                used.insert(j)
                hits += 1
            }
        }
        let precision = Double(hits) / Double(max(1, after.count)), recall = Double(hits) / Double(max(1, expected.count))
        let f = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
        let tempos = frames.filter { time($0) >= lockTime && $0.tempo > 0 }.map { abs(Double($0.tempo) - tempo) / tempo }
        return .init(tempo: tempo, lockSeconds: lockTime - first, fMeasure: f, tempoError: LiveBench.percentile(tempos, 50))
    }
}
