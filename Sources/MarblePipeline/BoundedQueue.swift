import Foundation

/// A fixed-capacity blocking FIFO between pipeline stages (back-pressure: a fast stage waits for a
/// slow one, so memory stays flat). Closing wakes every waiter; `pop` then drains what is left.
///
/// Safety of @unchecked Sendable: every stored property is read and written only with `condition` held.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element?]
    private var head = 0
    private var count = 0
    private var closed = false

    init(capacity: Int) { items = [Element?](repeating: nil, count: max(1, capacity)) }

    /// Appends, waiting while full. Returns false (dropping the element) once the queue is closed.
    @discardableResult
    func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count == items.count && !closed { condition.wait() }
        guard !closed else { return false }
        items[(head + count) % items.count] = element
        count += 1
        condition.broadcast()
        return true
    }

    /// Removes the oldest element, waiting while empty; nil once closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed { condition.wait() }
        return take()
    }

    /// What ``push(_:waitingAtMost:)`` did.
    enum TimedPush { case pushed, full, closed }

    /// Appends, waiting at most `seconds` for room: `.full` when there was none by then (the element
    /// is not taken), `.closed` once the queue is closed.
    func push(_ element: Element, waitingAtMost seconds: Double) -> TimedPush {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while count == items.count && !closed {
            if !condition.wait(until: deadline) { break }
        }
        guard !closed else { return .closed }
        guard count < items.count else { return .full }
        items[(head + count) % items.count] = element
        count += 1
        condition.broadcast()
        return .pushed
    }

    /// Appends if there is room, without waiting; false when full or closed.
    func tryPush(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard count < items.count && !closed else { return false }
        items[(head + count) % items.count] = element
        count += 1
        condition.broadcast()
        return true
    }

    /// Elements waiting.
    var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Removes the oldest element if there is one, without waiting (real time: no slot means a dropped frame).
    func tryPop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        return take()
    }

    /// With `condition` held.
    private func take() -> Element? {
        guard count > 0 else { return nil }
        let e = items[head]
        items[head] = nil
        head = (head + 1) % items.count
        count -= 1
        condition.broadcast()
        return e
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}
