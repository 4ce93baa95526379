import Synchronization

/// Measurements of the store itself, for `marble bench`: how many events one store reduces per
/// second, and how long a change takes to reach a subscriber. Run them in a release build.
public enum GraniteBenchmark {
    /// How fast one store reduces events sent from several tasks at once, with subscribers attached.
    public struct Throughput: Sendable, Equatable, CustomStringConvertible {
        /// Events reduced.
        public let events: Int
        /// Tasks sending concurrently.
        public let senders: Int
        /// Subscribers notified of every change.
        public let subscribers: Int
        /// Wall-clock seconds from the first send to the last reduction.
        public let seconds: Double
        /// Events reduced per second (0 when nothing was timed).
        public var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }

        /// One line: events, senders, subscribers, time and millions of events per second.
        public var description: String {
            "\(events) events from \(senders) sender(s) to \(subscribers) subscriber(s) in \(formatted(seconds)) s: "
                + "\(formatted(eventsPerSecond / 1e6)) M events/s"
        }
    }

    /// How long a committed change takes to reach a subscriber, as percentiles over many sends.
    public struct Latency: Sendable, Equatable, CustomStringConvertible {
        /// Sends measured.
        public let samples: Int
        /// Median delay from `send` to the subscriber's call, µs.
        public let p50Microseconds: Double
        /// 99th-percentile delay, µs.
        public let p99Microseconds: Double
        /// Longest delay measured, µs.
        public let maxMicroseconds: Double

        /// One line: the percentiles in microseconds.
        public var description: String {
            "send → subscriber over \(samples) samples: p50 \(formatted(p50Microseconds)) µs, "
                + "p99 \(formatted(p99Microseconds)) µs, max \(formatted(maxMicroseconds)) µs"
        }
    }

    /// A counter: the trivial reducer the figures are measured with.
    struct Counter: GraniteCenter {
        struct State: GraniteState { var count = 0 }
        enum Event: Sendable { case incremented }
        func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
            state.count &+= 1
            return .none
        }
    }

    /// Sends `events` events through one store with a trivial reducer, from `senders` concurrent
    /// tasks (1: the calling thread alone), with `subscribers` synchronous subscribers that do
    /// nothing (0: the bare reduction path; otherwise every commit is compared and delivered).
    public static func throughput(
        events: Int = 5_000_000, senders: Int = 1, subscribers: Int = 0
    ) async -> Throughput {
        let store = GraniteStore(center: Counter(), initialState: .init())
        let subscriptions = (0..<subscribers).map { _ in store.subscribe(receiveCurrent: false) { _ in } }
        defer { for subscription in subscriptions { subscription.cancel() } }
        let clock = ContinuousClock()
        let start = clock.now
        if senders <= 1 {
            for _ in 0..<events { store.send(.incremented) }
        } else {
            let share = events / senders
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<senders {
                    group.addTask { for _ in 0..<share { store.send(.incremented) } }
                }
            }
        }
        let elapsed = start.duration(to: clock.now)
        let sent = senders <= 1 ? events : (events / senders) * senders
        let reduced = store.state.count
        precondition(reduced == sent, "GraniteBenchmark: lost updates")
        return Throughput(
            events: reduced, senders: max(1, senders), subscribers: subscribers, seconds: seconds(elapsed))
    }

    /// Measures the time from `send` to the moment another task reading
    /// ``GraniteStore/changes(bufferingNewest:)`` holds the new state. One event at a time: the
    /// sender waits until the reader has seen an event before sending the next, so no queue builds
    /// up. The first `warmup` rounds are not measured.
    public static func latency(samples: Int = 20_000, warmup: Int = 1_000) async -> Latency {
        let rounds = warmup + samples
        let store = GraniteStore(center: Counter(), initialState: .init())
        let probe = LatencyProbe(rounds: rounds)
        let stream = store.changes()
        let reader = Task.detached {
            for await state in stream where state.count > 0 {
                probe.received(round: state.count)
                if state.count == rounds { break }
            }
        }
        for round in 1...rounds {
            probe.sending(round: round)
            store.send(.incremented)
            while probe.seen < round { await Task.yield() }
        }
        await reader.value
        var durations = probe.latencies(droppingFirst: warmup)
        durations.sort()
        func percentile(_ p: Double) -> Double {
            guard !durations.isEmpty else { return 0 }
            let index = min(durations.count - 1, Int((p * Double(durations.count - 1)).rounded()))
            return durations[index]
        }
        return Latency(
            samples: durations.count, p50Microseconds: percentile(0.50), p99Microseconds: percentile(0.99),
            maxMicroseconds: durations.last ?? 0)
    }

    /// Send and receive times per round, shared by the sending and the reading task.
    final class LatencyProbe: Sendable {
        private struct Times {
            var sent: [ContinuousClock.Instant]
            var received: [ContinuousClock.Instant]
            var seen = 0
        }
        private let times: Mutex<Times>

        init(rounds: Int) {
            let zero = ContinuousClock.now
            times = Mutex(Times(
                sent: Array(repeating: zero, count: rounds + 1),
                received: Array(repeating: zero, count: rounds + 1)))
        }

        func sending(round: Int) {
            let now = ContinuousClock.now
            times.withLock { $0.sent[round] = now }
        }

        func received(round: Int) {
            let now = ContinuousClock.now
            times.withLock { times in
                times.received[round] = now
                times.seen = round
            }
        }

        var seen: Int { times.withLock { $0.seen } }

        /// Microseconds per round, rounds 1 + `warmup` onwards.
        func latencies(droppingFirst warmup: Int) -> [Double] {
            times.withLock { times in
                (1 + warmup ..< times.sent.count).map {
                    GraniteBenchmark.seconds(times.sent[$0].duration(to: times.received[$0])) * 1e6
                }
            }
        }
    }

    fileprivate static func seconds(_ duration: Duration) -> Double {
        let (s, attoseconds) = duration.components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}

private func formatted(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return "\(scaled)"
}
