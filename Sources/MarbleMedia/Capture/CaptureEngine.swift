internal import CPulse
import MarbleCore

/// The capture's logic, run on the event loop's thread: connects to the server, finds the source,
/// keeps a record stream open on it, follows the default sink, and reconnects after faults. What the
/// stream delivers goes to the `CaptureTimeline`, state changes to the `StateNotifier`.
///
/// Flow: `connect` → connection ready → `lookUpSource` (server defaults + sources) → `open` a stream →
/// stream ready (`.capturing`). A dropped connection goes back to `connect`, a missing source or a
/// failed stream back to `lookUpSource`, each after 250 ms (the ticker runs due retries); a change of
/// the default sink, when following it, runs `lookUpSource` at once. Before the first capture, with
/// `waitForServer` off, a failure ends the attempt instead (`outcome`), for `start()` to throw. When to
/// retry and when to give up is the `CaptureRetryPolicy`'s decision, on the times of the injected
/// `RealTimePacer` (the system clock in use, a test clock in tests); libpulse's timer only ticks.
///
/// Safety of @unchecked Sendable: every stored `var` is read and written only by code holding the
/// loop's lock: the loop's thread, which holds it while running callbacks and timers, or `start()` and
/// `stop()` between `lock()` and `unlock()`; the objects it owns follow the same rule. The `let`s are
/// set once.
final class CaptureEngine: @unchecked Sendable {
    /// How the first attempt ended, for a `start()` that waits for it.
    enum Outcome {
        case capturing
        case failed(MarbleError)
        case stopped
    }

    let options: CaptureOptions
    private let loop: PulseMainloop
    private let clock: RealTimePacer
    private let timeline: CaptureTimeline
    private let notifier: StateNotifier
    /// Set once the first attempt ended (captured, failed or was stopped).
    private(set) var outcome: Outcome?
    private var context: PulseContext?
    private var stream: CaptureStream?
    private var ticker: PulseTimer?
    /// The next attempt and when it is due; the start's deadline.
    private var retry = CaptureRetryPolicy(startedAt: 0)
    /// Counts device lookups, so that only the latest one's answer is used.
    private var lookups = 0
    private var stopped = false

    init(options: CaptureOptions, buffer: CaptureBuffer, status: CaptureStatus, loop: PulseMainloop,
         clock: RealTimePacer) {
        self.options = options
        self.loop = loop
        self.clock = clock
        timeline = CaptureTimeline(buffer: buffer, fragmentSeconds: options.fragmentSeconds, clock: clock)
        notifier = StateNotifier(status: status, loop: loop)
    }

    /// Whether a failure now ends the start instead of being retried.
    private var failsFast: Bool { !options.waitForServer && outcome == nil }

    // MARK: Start and stop (lock held)

    /// Starts the pacing timer and the first attempt. Returns false when `shutdown()` came first.
    func begin() -> Bool {
        guard !stopped else { return false }
        let startedAt = clock.now
        retry = CaptureRetryPolicy(startedAt: startedAt)
        timeline.begin(at: startedAt)
        ticker = PulseTimer(on: loop, after: options.fragmentSeconds, repeats: true) { [unowned self] in tick() }
        guard ticker != nil else {
            fail(MarbleError(.device, "cannot create a timer on the PulseAudio event loop (out of memory)"))
            return true
        }
        publish(.connecting)
        connect()
        return true
    }

    /// Ends the first attempt with `error` (a failing start), releasing the connection.
    func fail(_ error: MarbleError) {
        outcome = .failed(error)
        retry.cancel()
        closeStream()
        context?.disconnect()
        context = nil
        loop.signal()
    }

    /// Closes the stream and the connection and cancels the timers: no callback runs afterwards.
    /// Idempotent.
    func shutdown() {
        stopped = true
        ticker?.cancel()
        ticker = nil
        notifier.cancel()
        retry.cancel()
        closeStream()
        context?.disconnect()
        context = nil
        if outcome == nil { outcome = .stopped }
        loop.signal()
    }

    // MARK: Connection

    private func connect() {
        retry.cancel()
        guard !stopped else { return }
        guard let made = PulseContext(loop: loop) else {
            return serverLost("cannot create a PulseAudio context (out of memory)", wasReady: false)
        }
        made.onPhase = { [unowned self] context, phase in contextChanged(context, phase) }
        made.onEvent = { [unowned self] facility, type in serverEvent(facility: facility, type: type) }
        context = made
        if let words = made.connect(server: options.server) { serverLost(words, wasReady: false) }
    }

    private func contextChanged(_ changed: PulseContext, _ phase: PulseContext.Phase) {
        guard changed === context, !stopped else { return }
        switch phase {
        case .connecting: break
        case .ready:
            if options.source == nil {
                let serverAndSinks = PA_SUBSCRIPTION_MASK_SERVER.rawValue | PA_SUBSCRIPTION_MASK_SINK.rawValue
                changed.subscribe(pa_subscription_mask_t(serverAndSinks))
            }
            lookUpSource()
        case .failed(let words): serverLost(words, wasReady: changed.wasReady)
        case .terminated: serverLost("connection terminated", wasReady: changed.wasReady)
        }
    }

    /// The connection failed (`wasReady`: after it had been up): drop it and retry, or end the start.
    private func serverLost(_ words: String, wasReady: Bool) {
        closeStream()
        context?.disconnect()
        context = nil
        if failsFast {
            return fail(MarbleError(.device, "no PulseAudio server is running: \(words); start one or pass --wait"))
        }
        timeline.markDiscontinuity()
        if notifier.state != .connecting {
            let reason = wasReady ? "PulseAudio server went away: \(words)" : "no PulseAudio server is running: \(words)"
            publish(.reconnecting(reason: reason))
        }
        retry.failed(.connect, at: clock.now)
    }

    /// A subscribed event: when following the default sink, a change of the server (its default sink)
    /// or a sink coming or going means looking the monitor up again.
    private func serverEvent(facility: UInt32, type: UInt32) {
        guard options.source == nil, !stopped, context?.isReady == true else { return }
        let server = facility == PA_SUBSCRIPTION_EVENT_SERVER.rawValue
        let sinkCameOrWent = facility == PA_SUBSCRIPTION_EVENT_SINK.rawValue
            && type != PA_SUBSCRIPTION_EVENT_CHANGE.rawValue
        if server || sinkCameOrWent { lookUpSource() }
    }

    // MARK: Source and stream

    private func lookUpSource() {
        retry.cancel()
        guard let current = context, current.isReady, !stopped else { return }
        lookups += 1
        let generation = lookups
        current.lookUpDevices { [unowned self, weak current] devices in
            guard generation == lookups, let current, current === context, !stopped else { return }
            guard let devices else {
                return sourceUnavailable(MarbleError(.device, "cannot list PulseAudio sources: \(current.errorText)"))
            }
            choose(from: devices)
        }
    }

    private func choose(from devices: [CaptureDeviceInfo]) {
        let wanted: String
        if let source = options.source {
            guard devices.contains(where: { $0.name == source }) else {
                let names = devices.isEmpty ? "none" : devices.map(\.name).joined(separator: ", ")
                return sourceUnavailable(MarbleError(.option, "unknown source \"\(source)\" (available: \(names))"))
            }
            wanted = source
        } else {
            guard let monitor = devices.first(where: \.isDefaultMonitor)?.name else {
                return sourceUnavailable(MarbleError(.device, "the PulseAudio server has no default sink to capture from"))
            }
            wanted = monitor
        }
        if stream?.source != wanted { open(wanted) }
    }

    /// The source cannot be captured now: retry, or end the start.
    private func sourceUnavailable(_ error: MarbleError) {
        closeStream()
        if failsFast { return fail(error) }
        publish(.reconnecting(reason: error.message))
        retry.failed(.lookUpSource, at: clock.now)
    }

    /// Replaces the stream with one on `source`; the pacer fills the time between the two.
    private func open(_ source: String) {
        guard let context else { return }
        closeStream()
        timeline.markDiscontinuity()
        do {
            stream = try CaptureStream(
                context: context, source: source, sampleRate: options.sampleRate,
                fragmentFrames: options.fragmentFrames, movable: options.source == nil,
                onData: { [unowned self] bytes, frames in timeline.append(bytes, frames: frames) },
                onPhase: { [unowned self] stream, phase in streamChanged(stream, phase) },
                onMoved: { [unowned self] stream in streamMoved(stream) })
        } catch {
            sourceUnavailable(error)
        }
    }

    private func streamChanged(_ changed: CaptureStream, _ phase: CaptureStream.Phase) {
        guard changed === stream, !stopped else { return }
        switch phase {
        case .ready:
            publish(.capturing(source: changed.source), source: changed.source)
            if outcome == nil {
                outcome = .capturing
                loop.signal()
            }
        case .ended(let words):
            // When the connection dropped, `contextChanged` has handled it already.
            guard context?.isReady == true else { return }
            sourceUnavailable(MarbleError(.device, "cannot capture from \"\(changed.source)\": \(words)"))
        }
    }

    /// The server moved the stream (PulseAudio 14+ moves the streams of the old default sink and
    /// source to the new ones). When following the default sink, check that it is still its monitor:
    /// a new default source (a microphone plugged in) may have taken it elsewhere.
    private func streamMoved(_ moved: CaptureStream) {
        guard moved === stream, !stopped else { return }
        publish(.capturing(source: moved.source), source: moved.source)
        if options.source == nil { lookUpSource() }
    }

    private func closeStream() {
        stream?.close()
        stream = nil
    }

    // MARK: Timer and state

    /// Every fragment: fills silence when no data flows, ends a start that takes too long, runs a due
    /// retry, and delivers notifications the notifier could not schedule.
    private func tick() {
        guard !stopped else { return }
        let now = clock.now
        timeline.tick(at: now)
        switch retry.tick(at: now, failingFast: failsFast) {
        case .wait: break
        case .giveUp: return fail(MarbleError(.device, "the PulseAudio server did not answer within 5 s"))
        case .run(.connect): connect()
        case .run(.lookUpSource): lookUpSource()
        }
        notifier.deliver()
    }

    private func publish(_ state: CaptureState, source: String? = nil) {
        notifier.publish(state, source: source)
    }
}
