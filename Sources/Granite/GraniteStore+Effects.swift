import Synchronization

/// Running, cancelling, debouncing and throttling effects.
///
/// Every effect task is registered under the lock, with a token, before it can run; it unregisters
/// itself when it returns. An event it sends is reduced only while its token is registered, and
/// the check and the reduction happen under the same lock hold, so after a cancellation returns no
/// result of the cancelled work can land.
extension GraniteStore {
    /// The number of effect tasks that have started and not yet returned.
    public var runningEffectCount: Int { core.withLock { $0.running.count } }

    /// The ids of the effects running now (unnamed effects are not listed).
    public var runningEffectIDs: [GraniteEffectID] {
        core.withLock { core in core.running.values.compactMap(\.id) }
    }

    /// Cancels every effect running under `id` and drops any throttled work pending under it.
    public func cancel(id: GraniteEffectID) {
        start(.cancel(id: id))
    }

    /// Cancels every in-flight effect of this store.
    public func cancelAllEffects() {
        let tasks = core.withLock { core -> [Task<Void, Never>] in
            let tasks = core.running.values.map(\.task)
            core.running.removeAll()
            core.throttles.removeAll()
            return tasks
        }
        for task in tasks { task.cancel() }
    }

    /// Starts the items of `effect` in order, all under one lock hold.
    @usableFromInline func start(_ effect: GraniteEffect<Event>) {
        let cancelled = core.withLock { core -> [Task<Void, Never>] in
            var cancelled: [Task<Void, Never>] = []
            for item in effect.items { startItem(item, &core, &cancelled) }
            return cancelled
        }
        for task in cancelled { task.cancel() }
    }

    private func startItem(
        _ item: GraniteEffect<Event>.Item, _ core: inout Core, _ cancelled: inout [Task<Void, Never>]
    ) {
        switch item {
        case .run(let run):
            if run.cancelInFlight, let id = run.id { cancelLocked(id, &core, &cancelled) }
            startLocked(run, &core)
        case .cancel(let id):
            cancelLocked(id, &core, &cancelled)
        case .throttle(let id, let interval, let latest, let inner):
            throttleLocked(id, interval: interval, latest: latest, inner, &core, &cancelled)
        }
    }

    /// Registers and starts one task. The start time is read here, synchronously, so that delays
    /// measured from it are deterministic under a test clock.
    @discardableResult
    private func startLocked(_ run: GraniteEffect<Event>.Run, _ core: inout Core) -> Int {
        let token = core.nextToken
        core.nextToken += 1
        let startTime = clock.now
        let send = GraniteSend<Event>(
            deliver: { [weak self] event in self?.send(event, fromEffect: token) },
            clock: clock, startTime: startTime)
        // The task holds the store weakly: a store that goes away cancels its effects (deinit).
        let task = Task { [weak self] in
            do {
                if let delay = run.delay { try await send.sleep(until: startTime + delay) }
                try Task.checkCancellation()
                try await run.operation(send)
            } catch {
                if !(error is CancellationError) && !Task.isCancelled {
                    if let onError = run.onError {
                        await onError(error, send)
                    } else {
                        Self.reportUnhandled(error, id: run.id)
                    }
                }
            }
            self?.effectFinished(token)
        }
        core.running[token] = Running(id: run.id, task: task)
        return token
    }

    private func effectFinished(_ token: Int) {
        core.withLock { core in _ = core.running.removeValue(forKey: token) }
    }

    private func cancelLocked(
        _ id: GraniteEffectID, _ core: inout Core, _ cancelled: inout [Task<Void, Never>]
    ) {
        for (token, running) in core.running where running.id == id {
            core.running[token] = nil
            cancelled.append(running.task)
        }
        core.throttles[id]?.pending = nil
        core.throttles[id]?.timerToken = nil
    }

    /// Leading edge at once; with `latest`, the last effect of the interval at its end.
    private func throttleLocked(
        _ id: GraniteEffectID, interval: Duration, latest: Bool, _ inner: GraniteEffect<Event>,
        _ core: inout Core, _ cancelled: inout [Task<Void, Never>]
    ) {
        let now = clock.now
        var slot = core.throttles[id] ?? ThrottleSlot()
        let quiet = slot.lastStart.map { now - $0 >= interval } ?? true
        if slot.timerToken == nil && quiet {
            slot.lastStart = now
            core.throttles[id] = slot
            startThrottled(inner, id: id, &core, &cancelled)
            return
        }
        guard latest else { return }
        slot.pending = inner
        if slot.timerToken == nil {
            let deadline = (slot.lastStart ?? now) + interval
            let timer = GraniteEffect<Event>.Run(
                id: id, cancelInFlight: false, delay: nil,
                operation: { [weak self] send in
                    try await send.sleep(until: deadline)
                    self?.throttleIntervalEnded(id, at: deadline)
                },
                onError: nil)
            slot.timerToken = startLocked(timer, &core)
        }
        core.throttles[id] = slot
    }

    private func throttleIntervalEnded(_ id: GraniteEffectID, at time: Duration) {
        let cancelled = core.withLock { core -> [Task<Void, Never>] in
            var cancelled: [Task<Void, Never>] = []
            guard var slot = core.throttles[id], slot.timerToken != nil else { return cancelled }
            slot.timerToken = nil
            let pending = slot.pending
            slot.pending = nil
            if pending != nil { slot.lastStart = time }
            core.throttles[id] = slot
            if let pending { startThrottled(pending, id: id, &core, &cancelled) }
            return cancelled
        }
        for task in cancelled { task.cancel() }
    }

    /// Starts throttled work; its unnamed runs take the throttle's id so that cancelling the id
    /// cancels them too.
    private func startThrottled(
        _ effect: GraniteEffect<Event>, id: GraniteEffectID,
        _ core: inout Core, _ cancelled: inout [Task<Void, Never>]
    ) {
        for item in effect.items {
            if case .run(var run) = item, run.id == nil {
                run.id = id
                startItem(.run(run), &core, &cancelled)
            } else {
                startItem(item, &core, &cancelled)
            }
        }
    }

    private static func reportUnhandled(_ error: any Error, id: GraniteEffectID?) {
        let name = id.map { " '\($0)'" } ?? ""
        GraniteLog.standardError("Granite: effect\(name) of \(Center.self) failed: \(error)")
    }
}
