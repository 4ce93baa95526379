import Granite
import Testing
import TestSupport

/// Debounced typing, a throttled slider and a metronome, all on the store clock.
struct Controls: GraniteCenter {
    struct State: GraniteState {
        var searched: [String] = []
        var applied: [Int] = []
        var ticks = 0
    }

    enum Event: Equatable, Sendable {
        case typed(String)
        case searched(String)
        case sliderMoved(Int, latest: Bool)
        case applied(Int)
        case sliderReleased
        case metronomeStarted
        case metronomeStopped
        case ticked
    }

    func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
        switch event {
        case .typed(let text):
            return GraniteEffect.send(.searched(text)).debounce(id: "typing", for: .milliseconds(300))
        case .searched(let text):
            state.searched.append(text)
            return .none
        case .sliderMoved(let value, let latest):
            return GraniteEffect.send(.applied(value)).throttle(id: "slider", for: .seconds(1), latest: latest)
        case .applied(let value):
            state.applied.append(value)
            return .none
        case .sliderReleased:
            return .cancel(id: "slider")
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
    @Test func debounceRunsOnlyAfterAQuietPeriod() async {
        let store = makeTestStore(Controls(), .init())
        await store.send(.typed("g"))
        await store.clock.advance(by: .milliseconds(200))
        await store.send(.typed("gr"))
        await store.clock.advance(by: .milliseconds(200))  // 400 ms: the first would have fired at 300
        await store.send(.typed("gra"))
        await store.clock.advance(by: .milliseconds(299))
        #expect(store.store.runningEffectIDs == ["typing"])
        await store.clock.advance(by: .milliseconds(1))
        await store.receive(.searched("gra")) { $0.searched = ["gra"] }
        await store.finish()
    }

    @Test func throttleEmitsLeadingThenLatest() async {
        let store = makeTestStore(Controls(), .init())
        await store.send(.sliderMoved(1, latest: true))
        await store.receive(.applied(1)) { $0.applied = [1] }
        await store.send(.sliderMoved(2, latest: true))
        await store.clock.advance(by: .milliseconds(400))
        await store.send(.sliderMoved(3, latest: true))
        await store.clock.advance(by: .milliseconds(600))
        await store.receive(.applied(3)) { $0.applied = [1, 3] }
        // The trailing start at t = 1 s opened a new interval: 1.5 s is still inside it.
        await store.clock.advance(by: .milliseconds(500))
        await store.send(.sliderMoved(4, latest: true))
        await store.clock.advance(by: .milliseconds(500))
        await store.receive(.applied(4)) { $0.applied = [1, 3, 4] }
        await store.finish()
    }

    @Test func throttleWithoutLatestDropsTheRest() async {
        let store = makeTestStore(Controls(), .init())
        await store.send(.sliderMoved(1, latest: false))
        await store.receive(.applied(1)) { $0.applied = [1] }
        await store.send(.sliderMoved(2, latest: false))
        await store.send(.sliderMoved(3, latest: false))
        await store.clock.advance(by: .seconds(1))
        await store.send(.sliderMoved(4, latest: false))
        await store.receive(.applied(4)) { $0.applied = [1, 4] }
        await store.finish()
    }

    @Test func cancellingAThrottleDropsItsPendingWork() async {
        let store = makeTestStore(Controls(), .init())
        await store.send(.sliderMoved(1, latest: true))
        await store.receive(.applied(1)) { $0.applied = [1] }
        await store.send(.sliderMoved(2, latest: true))
        #expect(store.store.runningEffectIDs == ["slider"], "the trailing timer is pending")
        await store.send(.sliderReleased)
        await store.clock.advance(by: .seconds(2))
        await store.finish()
    }

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
