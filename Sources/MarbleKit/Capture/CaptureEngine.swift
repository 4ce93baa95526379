import CPulse

/// The capture's logic, run on the event loop's thread: connects to the server, finds the source,
/// keeps a record stream open on it, follows the default sink, reconnects after faults, and paces the
/// buffer's timeline (`CapturePacer`).
///
/// Flow: `connect` → connection ready → `lookUpSource` (server defaults + sources) → `open` a stream →
/// stream ready (`.capturing`). A dropped connection goes back to `connect`, a missing source or a
/// failed stream back to `lookUpSource`, each after 250 ms (the ticker runs due retries); a change of
/// the default sink, when following it, runs `lookUpSource` at once. Before the first capture, with
/// `waitForServer` off, a failure ends the attempt instead (`outcome`), for `start()` to throw.
///
/// Safety of @unchecked Sendable: every stored `var` is read and written only by code holding the
/// loop's lock: the loop's thread, which holds it while running callbacks and timers, or `start()` and
/// `stop()` between `lock()` and `unlock()`. The `let`s are set once; `buffer` and `status` are
/// thread-safe themselves.
final class CaptureEngine: @unchecked Sendable {
    /// How the first attempt ended, for a `start()` that waits for it.
    enum Outcome {
        case capturing
        case failed(MarbleError)
        case stopped
    }

    /// Nanoseconds between attempts.
    static let retryDelay: UInt64 = 250_000_000
    /// How long a failing-fast `start()` waits for the server before giving up.
    static let startTimeout: UInt64 = 5_000_000_000

    let options: CaptureOptions
    let buffer: CaptureBuffer
    let status: CaptureStatus
    private let loop: PulseMainloop
    /// Set once the first attempt ended (captured, failed or was stopped).
    private(set) var outcome: Outcome?
    private var context: PulseContext?
    private var stream: CaptureStream?
    private var pacer: CapturePacer
    private var ticker: PulseTimer?
    private var notifier: PulseTimer?
    private var pendingNotifications: [CaptureState] = []
    private enum Step { case connect, lookUpSource }
    /// The next attempt and when it is due.
    private var retry: (due: UInt64, step: Step)?
    /// Counts device lookups, so that only the latest one's answer is used.
    private var lookups = 0
    private var startedAt: UInt64 = 0
    private var stopped = false

    init(options: CaptureOptions, buffer: CaptureBuffer, status: CaptureStatus, loop: PulseMainloop) {
        self.options = options
        self.buffer = buffer
        self.status = status
        self.loop = loop
        pacer = CapturePacer(sampleRate: options.sampleRate, fragmentSeconds: options.fragmentSeconds, start: 0)
    }

    /// Whether a failure now ends the start instead of being retried.
    private var failsFast: Bool { !options.waitForServer && outcome == nil }

    // MARK: Start and stop (lock held)

    /// Starts the pacing timer and the first attempt. Returns false when `shutdown()` came first.
    func begin() -> Bool {
        guard !stopped else { return false }
        startedAt = MonotonicClock.now()
        pacer = CapturePacer(sampleRate: options.sampleRate, fragmentSeconds: options.fragmentSeconds, start: startedAt)
        pacer.markDiscontinuity()
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
        retry = nil
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
        notifier?.cancel()
        notifier = nil
        pendingNotifications.removeAll()
        retry = nil
        closeStream()
        context?.disconnect()
        context = nil
        if outcome == nil { outcome = .stopped }
        loop.signal()
    }

    // MARK: Connection

    private func connect() {
        retry = nil
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
                changed.subscribe(pa_subscription_mask_t(PA_SUBSCRIPTION_MASK_SERVER.rawValue | PA_SUBSCRIPTION_MASK_SINK.rawValue))
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
        pacer.markDiscontinuity()
        if status.state != .connecting {
            let reason = wasReady ? "PulseAudio server went away: \(words)" : "no PulseAudio server is running: \(words)"
            publish(.reconnecting(reason: reason))
        }
        retry = (MonotonicClock.now() + Self.retryDelay, .connect)
    }

    /// A subscribed event: when following the default sink, a change of the server (its default sink)
    /// or a sink coming or going means looking the monitor up again.
    private func serverEvent(facility: UInt32, type: UInt32) {
        guard options.source == nil, !stopped, context?.isReady == true else { return }
        let server = facility == PA_SUBSCRIPTION_EVENT_SERVER.rawValue
        let sinkCameOrWent = facility == PA_SUBSCRIPTION_EVENT_SINK.rawValue && type != PA_SUBSCRIPTION_EVENT_CHANGE.rawValue
        if server || sinkCameOrWent { lookUpSource() }
    }

    // MARK: Source and stream

    private func lookUpSource() {
        retry = nil
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
        retry = (MonotonicClock.now() + Self.retryDelay, .lookUpSource)
    }

    /// Replaces the stream with one on `source`; the pacer fills the time between the two.
    private func open(_ source: String) {
        guard let context else { return }
        closeStream()
        pacer.markDiscontinuity()
        do {
            stream = try CaptureStream(
                context: context, source: source, sampleRate: options.sampleRate,
                fragmentFrames: options.fragmentFrames, movable: options.source == nil,
                onData: { [unowned self] bytes, frames in received(bytes, frames: frames) },
                onPhase: { [unowned self] stream, phase in streamChanged(stream, phase) },
                onMoved: { [unowned self] stream in
                    if stream === self.stream { publish(.capturing(source: stream.source), source: stream.source) }
                })
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

    private func closeStream() {
        stream?.close()
        stream = nil
    }

    // MARK: Data, pacing, notifications

    /// A block from the stream (nil bytes: a hole, captured as silence).
    private func received(_ bytes: UnsafeRawPointer?, frames: Int) {
        let admission = pacer.admit(frames: frames, at: MonotonicClock.now())
        if admission.silence > 0 { buffer.appendSilence(count: admission.silence) }
        let kept = frames - admission.drop
        guard kept > 0 else { return }
        if let bytes {
            buffer.append(interleaved: bytes + admission.drop * CaptureOptions.bytesPerFrame, frames: kept)
        } else {
            buffer.appendSilence(count: kept)
        }
    }

    /// Every fragment: fills silence when no data flows, ends a start that takes too long, runs a due
    /// retry, and delivers notifications.
    private func tick() {
        guard !stopped else { return }
        let now = MonotonicClock.now()
        let due = pacer.silenceDue(at: now)
        if due > 0 { buffer.appendSilence(count: due) }
        if failsFast, now - startedAt > Self.startTimeout {
            return fail(MarbleError(.device, "the PulseAudio server did not answer within 5 s"))
        }
        if let retry, now >= retry.due {
            self.retry = nil
            switch retry.step {
            case .connect: connect()
            case .lookUpSource: lookUpSource()
            }
        }
        deliverNotifications()
    }

    /// Records a change of state and schedules its notification. The handler runs later, from a timer
    /// of its own (or the ticker), never nested in the code that changed the state, so it may call
    /// `stop()`.
    private func publish(_ state: CaptureState, source: String? = nil) {
        guard status.update(state, source: source) else { return }
        pendingNotifications.append(state)
        if notifier == nil {
            notifier = PulseTimer(on: loop, after: 0, repeats: false) { [unowned self] in
                notifier = nil
                deliverNotifications()
            }
        }
    }

    private func deliverNotifications() {
        while !stopped, !pendingNotifications.isEmpty {
            status.notify(pendingNotifications.removeFirst())
        }
    }
}
