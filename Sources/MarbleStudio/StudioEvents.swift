import Synchronization

/// The render queue's changes, fanned out to every open page (`/api/events`): each subscriber gets its
/// own stream, which keeps only the newest 256 changes if a page reads slowly.
package final class StudioEvents: Sendable {
    private let subscribers = Mutex<(next: Int, streams: [Int: AsyncStream<RenderStatus>.Continuation])>((0, [:]))

    package init() {}

    /// A stream of the changes from now on, and the number to end it with.
    package func subscribe() -> (id: Int, stream: AsyncStream<RenderStatus>) {
        let (stream, continuation) = AsyncStream<RenderStatus>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = subscribers.withLock { s in
            s.next += 1
            s.streams[s.next] = continuation
            return s.next
        }
        return (id, stream)
    }

    package func unsubscribe(_ id: Int) {
        subscribers.withLock { $0.streams.removeValue(forKey: id) }?.finish()
    }

    package func publish(_ status: RenderStatus) {
        for continuation in subscribers.withLock({ Array($0.streams.values) }) { continuation.yield(status) }
    }

    /// Pages listening now.
    package var count: Int { subscribers.withLock { $0.streams.count } }

    /// Ends every stream (the studio stops).
    package func finish() {
        for continuation in subscribers.withLock({ s in defer { s.streams = [:] }; return Array(s.streams.values) }) { continuation.finish() }
    }
}
