import Granite
import Testing
import TestSupport

/// A metronome on the store clock.
struct Controls: GraniteCenter {
    struct State: GraniteState {
        var ticks = 0
    }

    enum Event: Equatable, Sendable {
        case metronomeStarted
        case metronomeStopped
        case ticked
    }

    func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
        switch event {
        case .metronomeStarted:
            return .timer(id: "metronome", every: .milliseconds(500), event: .ticked)
        case .metronomeStopped:
            return .cancel(id: "metronome")
        case .ticked:
            state.ticks += 1
            return .none
        }
    }
}

@Suite struct GraniteTimingTests {
    @Test func timerTicksOnTheTestClockUntilCancelled() async {
        let store = makeTestStore(Controls(), .init())
        await store.send(.metronomeStarted)
        await store.clock.advance(by: .milliseconds(1_500))
        await store.receive(.ticked) { $0.ticks = 1 }
        await store.receive(.ticked) { $0.ticks = 2 }
        await store.receive(.ticked) { $0.ticks = 3 }
        await store.send(.metronomeStopped)
        await store.clock.advance(by: .seconds(10))
        await store.finish()
    }

    @Test func testClockWakesSleepersInDeadlineOrder() async {
        let clock = GraniteTestClock()
        let order = Recorder<Int>()
        let tasks = [3, 1, 2].map { n in
            Task {
                try? await clock.sleep(until: .seconds(n))
                order.append(n)
            }
        }
        #expect(await eventually { clock.sleeperCount == 3 })
        await clock.advance(by: .seconds(3))
        for task in tasks { await task.value }
        #expect(order.all == [1, 2, 3])
        #expect(clock.now == .seconds(3))
    }

    @Test func cancellingASleeperWakesItWithCancellation() async {
        let clock = GraniteTestClock()
        let task = Task { () -> Bool in
            do {
                try await clock.sleep(until: .seconds(60))
                return false
            } catch {
                return error is CancellationError
            }
        }
        task.cancel()
        #expect(await task.value)
        #expect(clock.sleeperCount == 0)
    }
}
