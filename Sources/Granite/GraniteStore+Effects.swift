import Synchronization

/// Running and cancelling effects.
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

    /// Cancels every effect running under `id`.
    public func cancel(id: GraniteEffectID) {
        start(.cancel(id: id))
    }

    /// Cancels every in-flight effect of this store.
    public func cancelAllEffects() {
        let tasks = core.withLock { core -> [Task<Void, Never>] in
            let tasks = core.running.values.map(\.task)
            core.running.removeAll()
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
        }
    }

    /// Registers and starts one task. The start time is read here, synchronously, so that sleeps
    /// measured from it (``GraniteSend/startTime``) are deterministic under a test clock.
    private func startLocked(_ run: GraniteEffect<Event>.Run, _ core: inout Core) {
        let token = core.nextToken
        core.nextToken += 1
        let startTime = clock.now
        let send = GraniteSend<Event>(
            deliver: { [weak self] event in self?.send(event, fromEffect: token) },
            clock: clock, startTime: startTime)
        // The task holds the store weakly: a store that goes away cancels its effects (deinit).
        let task = Task { [weak self] in
            do {
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
    }

    private static func reportUnhandled(_ error: any Error, id: GraniteEffectID?) {
        let name = id.map { " '\($0)'" } ?? ""
        GraniteLog.standardError("Granite: effect\(name) of \(Center.self) failed: \(error)")
    }
}
