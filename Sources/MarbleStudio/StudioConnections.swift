import Synchronization

/// The sockets open now, each with the way to close it, so that a stopping studio closes them instead
/// of waiting for the pages to go (a page keeps its sockets open as long as it is open).
package final class StudioConnections: Sendable {
    private let open = Mutex<(next: Int, closers: [Int: @Sendable () async -> Void], closed: Bool)>((0, [:], false))

    package init() {}

    /// Registers a socket; nil when the studio is stopping already (the caller closes it at once).
    package func add(_ close: @escaping @Sendable () async -> Void) -> Int? {
        open.withLock { o in
            guard !o.closed else { return nil }
            o.next += 1
            o.closers[o.next] = close
            return o.next
        }
    }

    package func remove(_ id: Int) {
        _ = open.withLock { $0.closers.removeValue(forKey: id) }
    }

    /// Sockets open now.
    package var count: Int { open.withLock { $0.closers.count } }

    /// Closes every socket open, and every one that opens from now on.
    package func closeAll() async {
        let closers = open.withLock { o in
            o.closed = true
            defer { o.closers = [:] }
            return Array(o.closers.values)
        }
        await withTaskGroup(of: Void.self) { group in
            for close in closers { group.addTask { await close() } }
        }
    }
}
