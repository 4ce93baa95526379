import Synchronization

/// Post-commit notifications.
///
/// Each commit that changes the state appends the new snapshot to an outbox under the lock. One
/// thread at a time drains the outbox (whoever found it idle) and calls the subscribers outside the
/// lock. So subscribers see snapshots in commit order, one call at a time, and may send events from
/// their handler without deadlocking.
extension GraniteStore {
    @usableFromInline final class Subscriber: Sendable {
        @usableFromInline let id: Int
        @usableFromInline let subscription: GraniteSubscription
        @usableFromInline let handler: @Sendable (State) -> Void
        /// Called when the store goes away (ends `changes()` streams).
        let onEnd: (@Sendable () -> Void)?

        init(
            id: Int, subscription: GraniteSubscription, handler: @escaping @Sendable (State) -> Void,
            onEnd: (@Sendable () -> Void)?
        ) {
            self.id = id
            self.subscription = subscription
            self.handler = handler
            self.onEnd = onEnd
        }
    }

    /// Calls `handler` with every changed state, in commit order; first with the current state when
    /// `receiveCurrent` is true. Keep the returned subscription: cancel it to stop.
    public func subscribe(
        receiveCurrent: Bool = true, _ handler: @escaping @Sendable (State) -> Void
    ) -> GraniteSubscription {
        subscribe(receiveCurrent: receiveCurrent, handler, onEnd: nil)
    }

    func subscribe(
        receiveCurrent: Bool, _ handler: @escaping @Sendable (State) -> Void, onEnd: (@Sendable () -> Void)?
    ) -> GraniteSubscription {
        let id = core.withLock { core -> Int in
            defer { core.nextSubscriberID += 1 }
            return core.nextSubscriberID
        }
        let subscription = GraniteSubscription(
            paused: false,
            onResume: { [weak self] in self?.redeliver(to: id) },
            onCancel: { [weak self] in self?.unsubscribe(id) })
        let subscriber = Subscriber(id: id, subscription: subscription, handler: handler, onEnd: onEnd)
        let deliver = core.withLock { core -> Bool in
            core.subscribers.append(subscriber)
            guard receiveCurrent else { return false }
            return enqueueNote(Note(state: core.state, target: id), &core)
        }
        if deliver { deliverNotes() }
        return subscription
    }

    /// The state as an async sequence: the current state first, then every change in commit order.
    /// By default nothing is dropped; pass `bufferingNewest` to keep only the latest `n` unread
    /// states when the reader is slower than the writers. The stream ends when the store does.
    public func changes(bufferingNewest limit: Int? = nil) -> AsyncStream<State> {
        let policy: AsyncStream<State>.Continuation.BufferingPolicy =
            limit.map { .bufferingNewest($0) } ?? .unbounded
        let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: policy)
        let subscription = subscribe(
            receiveCurrent: true, { continuation.yield($0) }, onEnd: { continuation.finish() })
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    /// Appends a note; returns true if the caller must drain (nobody is draining yet).
    @usableFromInline func enqueueNote(_ note: Note, _ core: inout Core) -> Bool {
        core.outbox.append(note)
        if core.isDelivering { return false }
        core.isDelivering = true
        return true
    }

    /// Delivers queued notes until the outbox is empty. Only one thread runs this at a time.
    /// Delivered batches go back to the store as its spare buffer, so that steady traffic does not
    /// allocate.
    @inlinable func deliverNotes() {
        var recycled: [Note] = []
        while true {
            var (batch, subscribers) = core.withLock { core -> ([Note], [Subscriber]) in
                if core.spareOutbox.capacity < recycled.capacity { swap(&core.spareOutbox, &recycled) }
                if core.outbox.isEmpty {
                    core.isDelivering = false
                    return ([], [])
                }
                var batch = core.spareOutbox
                core.spareOutbox = []
                swap(&batch, &core.outbox)
                return (batch, core.subscribers)
            }
            if batch.isEmpty { return }
            for note in batch {
                for subscriber in subscribers where note.target == nil || note.target == subscriber.id {
                    if subscriber.subscription.shouldDeliver() { subscriber.handler(note.state) }
                }
            }
            subscribers = []
            batch.removeAll(keepingCapacity: true)
            recycled = consume batch
        }
    }

    private func redeliver(to id: Int) {
        let deliver = core.withLock { core -> Bool in
            guard core.subscribers.contains(where: { $0.id == id }) else { return false }
            return enqueueNote(Note(state: core.state, target: id), &core)
        }
        if deliver { deliverNotes() }
    }

    private func unsubscribe(_ id: Int) {
        core.withLock { core in core.subscribers.removeAll { $0.id == id } }
    }
}
