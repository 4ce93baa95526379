/// Measurements of the store itself, for `marble bench`: how many events one store reduces per
/// second, and how long a change takes to reach a subscriber. Run them in a release build.
public enum GraniteBenchmark {
    public struct Throughput: Sendable, Equatable, CustomStringConvertible {
        public let events: Int
        public let senders: Int
        public let seconds: Double
        public var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }

        public var description: String {
            "\(events) events from \(senders) sender(s) in \(formatted(seconds)) s: "
                + "\(formatted(eventsPerSecond / 1e6)) M events/s"
        }
    }

    public struct Latency: Sendable, Equatable, CustomStringConvertible {
        public let samples: Int
        public let p50Microseconds: Double
        public let p99Microseconds: Double
        public let maxMicroseconds: Double

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

    /// Sends `events` events through one store with a trivial reducer and no subscriber, from
    /// `senders` concurrent tasks (1: the calling thread alone).
    public static func throughput(events: Int = 5_000_000, senders: Int = 1) async -> Throughput {
        let store = GraniteStore(center: Counter(), initialState: .init())
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
        precondition(store.state.count == sent, "GraniteBenchmark: lost updates")
        return Throughput(events: sent, senders: max(1, senders), seconds: seconds(elapsed))
    }

    /// Measures the time from `send` to the moment a reader of ``GraniteStore/changes(bufferingNewest:)``
    /// holds the new state, one event at a time, after `warmup` unmeasured rounds.
    public static func latency(samples: Int = 20_000, warmup: Int = 1_000) async -> Latency {
        let store = GraniteStore(center: Counter(), initialState: .init())
        var iterator = store.changes().makeAsyncIterator()
        _ = await iterator.next()
        let clock = ContinuousClock()
        var durations: [Double] = []
        durations.reserveCapacity(samples)
        for round in 0..<(warmup + samples) {
            let start = clock.now
            store.send(.incremented)
            _ = await iterator.next()
            let elapsed = start.duration(to: clock.now)
            if round >= warmup { durations.append(seconds(elapsed) * 1e6) }
        }
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

    private static func seconds(_ duration: Duration) -> Double {
        let (s, attoseconds) = duration.components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}

private func formatted(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return "\(scaled)"
}
