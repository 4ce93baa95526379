import Synchronization

/// Loading and saving through ``GranitePersistence``.
extension GraniteStore {
    /// Whether the persisted state has been loaded (always true without persistence or with
    /// `preload`).
    public var isLoaded: Bool { core.withLock { $0.isLoaded } }

    /// Returns once the persisted state has been loaded.
    public func didLoad() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = core.withLock { core -> Bool in
                if core.isLoaded { return true }
                core.loadWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Loads off the caller's thread; then, in one lock hold, installs the loaded state and reduces
    /// the events queued meanwhile, in order, so that nothing sent before the load is lost.
    func loadInBackground() {
        guard let persistence else { return }
        Task.detached { [weak self] in
            let loaded = persistence.load()
            self?.finishLoading(loaded)
        }
    }

    private func finishLoading(_ loaded: State?) {
        var followups: [Followup] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
        core.withLock { core in
            if let loaded, loaded != core.state {
                core.state = loaded
                if !core.subscribers.isEmpty {
                    var followup = Followup()
                    followup.deliver = enqueueNote(Note(state: loaded, target: nil), &core)
                    followups.append(followup)
                }
            }
            core.isLoaded = true
            let queued = core.queuedWhileLoading
            core.queuedWhileLoading = []
            for event in queued { followups.append(commit(event, &core)) }
            waiters = core.loadWaiters
            core.loadWaiters = []
        }
        for followup in followups { perform(followup) }
        for waiter in waiters { waiter.resume() }
    }

    /// Writes the current committed state now, if it changed since the last write. Throws on I/O
    /// failure. Writes never overlap, and a later write never stores an older snapshot.
    public func save() throws {
        guard let persistence else { return }
        try lastSaved.withLock { lastSaved in
            let (snapshot, commits) = core.withLock { ($0.state, $0.commits) }
            guard commits != lastSaved || commits == 0 else { return }
            try persistence.save(snapshot)
            lastSaved = commits
        }
    }

    /// Debounced auto-save: moves the deadline; one task sleeps until the latest deadline.
    @usableFromInline func scheduleSave() {
        guard let persistence else { return }
        let deadline = clock.now + persistence.autoSaveDelay
        core.withLock { core in
            core.saveDeadline = deadline
            guard core.saveTask == nil else { return }
            core.saveTask = Task { [weak self] in await self?.runSaveTimer() }
        }
    }

    private func runSaveTimer() async {
        while true {
            guard let deadline = core.withLock({ $0.saveDeadline }) else { break }
            do { try await clock.sleep(until: deadline) } catch { break }
            let due = core.withLock { core -> Bool in
                guard let latest = core.saveDeadline else { return false }
                if latest > deadline { return false }
                core.saveDeadline = nil
                core.saveTask = nil
                return true
            }
            if due {
                saveReportingErrors()
                return
            }
        }
        core.withLock { $0.saveTask = nil }
    }

    /// Writes a pending auto-save at once (used by `stop()`).
    func flushSave() {
        guard persistence != nil else { return }
        let (pending, task) = core.withLock { core -> (Bool, Task<Void, Never>?) in
            defer { core.saveDeadline = nil; core.saveTask = nil }
            return (core.saveDeadline != nil, core.saveTask)
        }
        task?.cancel()
        if pending { saveReportingErrors() }
    }

    private func saveReportingErrors() {
        do { try save() } catch {
            persistence?.onWarning("Could not save \(persistence?.file.path ?? "state"): \(error)")
        }
    }
}
