import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a test-store failure points: the line of the `send`/`receive`/`finish` call.
public struct GraniteSourceLocation: Sendable, CustomStringConvertible {
    /// The file, as `#fileID` gives it (`Module/File.swift`).
    public let fileID: String
    /// The file's full path, as `#filePath` gives it.
    public let filePath: String
    /// Line number, 1-based.
    public let line: Int
    /// Column number, 1-based.
    public let column: Int

    /// A location from the values of `#fileID`, `#filePath`, `#line` and `#column`.
    public init(fileID: String, filePath: String, line: Int, column: Int) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// `File.swift:line`, as failures print it.
    public var description: String { "\(fileID):\(line)" }
}

/// A store for tests that makes every state change and every effect-fed event explicit
/// (after TCA's TestStore).
///
/// - `send(event) { expected mutation }` reduces `event` and checks that the new state equals the
///   old state with the mutation applied; with no closure the state must not change. Events that
///   effects already sent must be received first (the order of the script is the order of reduction).
/// - Events sent by effects are not reduced when they arrive: they queue, in arrival order, and
///   `receive(event) { … }` reduces the next one (against the then-current state) and checks it.
/// - `finish()` fails if effects are still running (after a short grace period) or if received
///   events were never asserted; it then cancels what is left. Without `finish()`, the store's
///   deinit makes the same checks (with a shorter grace period).
/// - Time is a ``GraniteTestClock``: timers and sleeping effects move only when the test
///   advances it.
///
/// Failures go to `reportIssue` (Granite does not link a test framework); with Swift Testing, pass
/// a closure that calls `Issue.record`.
public final class GraniteTestStore<Center: GraniteCenter>: Sendable where Center.Event: Equatable {
    /// The state under test.
    public typealias State = Center.State
    /// The events sent and received.
    public typealias Event = Center.Event
    /// Receives each failure: a message and the place in the test it points to.
    public typealias IssueReporter = @Sendable (String, GraniteSourceLocation) -> Void

    final class Inbox: Sendable {
        struct Contents {
            var events: [Event] = []
            var waiter: CheckedContinuation<Void, Never>?
            var timeout: Task<Void, Never>?
        }
        let contents = Mutex(Contents())

        func append(_ event: Event) {
            let waiter = contents.withLock { contents -> CheckedContinuation<Void, Never>? in
                contents.events.append(event)
                contents.timeout?.cancel()
                contents.timeout = nil
                defer { contents.waiter = nil }
                return contents.waiter
            }
            waiter?.resume()
        }
    }

    /// The store under test (its effect-fed events are diverted to this test store).
    public let store: GraniteStore<Center>
    /// The clock the store's effects sleep on; advance it to move their time.
    public let clock: GraniteTestClock
    private let inbox: Inbox
    private let reportIssue: IssueReporter
    private let finished = Mutex(false)
    private let createdAt: GraniteSourceLocation

    /// A test store around a real ``GraniteStore`` whose effect-fed events wait in an inbox for `receive`.
    ///
    /// - Parameters:
    ///   - center: the center under test.
    ///   - initialState: the state to start from (or the persisted one, with `persistence`).
    ///   - clock: the clock effects sleep on; advance it from the test.
    ///   - persistence: optional, to test loading and saving.
    ///   - reportIssue: receives each failure; the default prints it on standard error. With Swift Testing,
    ///     pass a closure that calls `Issue.record`.
    ///   - fileID: where the store was created (default: the caller), for failures found when it goes away.
    ///   - filePath: as `fileID`.
    ///   - line: as `fileID`.
    ///   - column: as `fileID`.
    public init(
        center: Center,
        initialState: State,
        clock: GraniteTestClock = GraniteTestClock(),
        persistence: GranitePersistence<State>? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        reportIssue: @escaping IssueReporter = { message, location in
            GraniteLog.standardError("\(location): GraniteTestStore failure: \(message)")
        }
    ) {
        createdAt = GraniteSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let inbox = Inbox()
        self.inbox = inbox
        self.clock = clock
        self.reportIssue = reportIssue
        store = GraniteStore(
            center: center, initialState: initialState, persistence: persistence, clock: clock,
            interceptor: { event in inbox.append(event) })
    }

    /// Without `finish()`, checks the same things at the end of the test: waits up to 100 ms (an
    /// effect that sent its last event may still be returning), then reports effects still running
    /// and received events never asserted, at the line that created the store.
    deinit {
        let finished = finished.withLock { $0 }
        if !finished {
            let deadline = ContinuousClock.now + .milliseconds(100)
            while store.runningEffectCount > 0 && ContinuousClock.now < deadline { usleep(500) }
            reportLeftovers(
                running: "when the test store went away", advice: "Cancel them or call finish().", createdAt)
        }
        store.cancelAllEffects()
    }

    /// The current state of the store under test.
    public var state: State { store.state }

    /// Sends `event` and checks the resulting state against `expected` applied to the old state.
    public func send(
        _ event: Event,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert expected: ((inout State) throws -> Void)? = nil
    ) async {
        let location = GraniteSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let pending = inbox.contents.withLock { $0.events }
        if !pending.isEmpty {
            reportIssue(
                "\(pending.count) received event(s) must be asserted before sending \(event): \(pending)",
                location)
        }
        let before = store.state
        store.send(event)
        check("send(\(event))", before: before, after: store.state, expected, location)
    }

    /// Waits (up to `timeout` of real time, only as a failure guard) for the next event an effect
    /// sent, checks that it equals `event`, reduces it and checks the state change.
    public func receive(
        _ event: Event,
        timeout: Duration = .seconds(2),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert expected: ((inout State) throws -> Void)? = nil
    ) async {
        let location = GraniteSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let received = await nextReceived(timeout: timeout) else {
            reportIssue("Expected to receive \(event), but no event arrived within \(timeout).", location)
            return
        }
        if received != event {
            reportIssue("Received \(received), but expected \(event).", location)
        }
        let before = store.state
        store.send(received)
        check("receive(\(received))", before: before, after: store.state, expected, location)
    }

    /// Drops the received events not yet asserted (for tests that do not care about them).
    public func skipReceivedEvents() {
        inbox.contents.withLock { $0.events.removeAll() }
    }

    /// Ends the test: waits up to `timeout` for running effects to return, reports any that are still
    /// running and any received event never asserted, then cancels what is left.
    public func finish(
        timeout: Duration = .seconds(1),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        let location = GraniteSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        finished.withLock { $0 = true }
        let deadline = ContinuousClock.now + timeout
        var spins = 0
        while store.runningEffectCount > 0 && ContinuousClock.now < deadline {
            spins += 1
            if spins < 200 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
        }
        let running = reportLeftovers(
            running: "at the end of the test", advice: "Cancel them, advance the clock, or receive their events.",
            location)
        if running { store.cancelAllEffects() }
    }

    /// Reports the effects still running (`running` says when, `advice` what to do) and the received
    /// events never asserted (which it drops). Returns whether effects were still running.
    @discardableResult
    private func reportLeftovers(
        running when: String, advice: String, _ location: GraniteSourceLocation
    ) -> Bool {
        let running = store.runningEffectCount
        if running > 0 {
            let ids = store.runningEffectIDs.map(\.name).sorted()
            reportIssue(
                "\(running) effect(s) still running \(when)"
                    + (ids.isEmpty ? "." : " (ids: \(ids.joined(separator: ", "))).") + " \(advice)",
                location)
        }
        let left = inbox.contents.withLock { contents -> [Event] in
            defer { contents.events.removeAll() }
            return contents.events
        }
        if !left.isEmpty {
            reportIssue("\(left.count) received event(s) were not asserted: \(left)", location)
        }
        return running > 0
    }

    private func nextReceived(timeout: Duration) async -> Event? {
        if let event = popReceived() { return event }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = inbox.contents.withLock { contents -> Bool in
                if !contents.events.isEmpty { return true }
                contents.waiter = continuation
                contents.timeout = Task { [inbox] in
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    let waiter = inbox.contents.withLock { contents -> CheckedContinuation<Void, Never>? in
                        defer { contents.waiter = nil; contents.timeout = nil }
                        return contents.waiter
                    }
                    waiter?.resume()
                }
                return false
            }
            if ready { continuation.resume() }
        }
        return popReceived()
    }

    private func popReceived() -> Event? {
        inbox.contents.withLock { contents in
            contents.events.isEmpty ? nil : contents.events.removeFirst()
        }
    }

    private func check(
        _ what: String, before: State, after: State,
        _ expected: ((inout State) throws -> Void)?, _ location: GraniteSourceLocation
    ) {
        guard let expected else {
            if after != before {
                reportIssue(
                    "State changed but the change was not asserted after \(what):\n"
                        + GraniteDiff.describe(expected: before, actual: after),
                    location)
            }
            return
        }
        var wanted = before
        do {
            try expected(&wanted)
        } catch {
            reportIssue("The expectation closure of \(what) threw \(error).", location)
            return
        }
        if wanted != after {
            reportIssue(
                "State after \(what) does not match the expectation:\n"
                    + GraniteDiff.describe(expected: wanted, actual: after),
                location)
        }
    }
}
