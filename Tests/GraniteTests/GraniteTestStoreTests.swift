import Granite
import Testing
import TestSupport

/// The test store must catch what a test forgot: these tests expect failures.
@Suite struct GraniteTestStoreTests {
    /// A test store whose failures are collected instead of recorded.
    func capturing<C: GraniteCenter>(_ center: C, _ state: C.State) -> (GraniteTestStore<C>, Recorder<String>)
    where C.Event: Equatable {
        let failures = Recorder<String>()
        let store = GraniteTestStore(center: center, initialState: state) { message, _ in
            failures.append(message)
        }
        return (store, failures)
    }

    @Test func unassertedChangeIsReported() async {
        let store = makeTestStore(Counter(), .init())
        await withKnownIssue {
            await store.send(.incremented)
        }
        await store.finish()
    }

    @Test func wrongExpectationIsReportedWithTheDifference() async {
        let (store, failures) = capturing(Counter(), .init())
        await store.send(.incremented) { $0.count = 2 }
        #expect(failures.all.count == 1)
        #expect(failures.all.first?.contains("- count: 2") == true)
        #expect(failures.all.first?.contains("+ count: 1") == true)
        await store.finish()
    }

    @Test func noChangeNeedsNoClosure() async {
        let (store, failures) = capturing(Counter(), .init())
        await store.send(.ignored)
        await store.send(.incremented) { $0.count = 1 }
        await store.finish()
        #expect(failures.all.isEmpty)
    }

    @Test func effectStillRunningAtTheEndIsReported() async {
        let store = makeTestStore(Controls(), .init())
        await store.send(.metronomeStarted)
        await withKnownIssue {
            await store.finish(timeout: .milliseconds(50))
        }
        #expect(store.store.runningEffectCount == 0, "finish cancels what is left")
    }

    @Test func deinitReportsWhatFinishWouldHave() async {
        await withKnownIssue {
            let store = makeTestStore(Controls(), .init())
            await store.send(.metronomeStarted)
        }
        let (store, failures) = capturing(Search(), .init())
        await store.send(.failingSearchRequested) { $0.isSearching = true }
        #expect(await eventually { store.store.runningEffectCount == 0 })
        #expect(failures.all.isEmpty, "nothing yet: the store is still alive")
        _ = consume store
        #expect(failures.all.count == 1)
        #expect(failures.all.first?.contains("searchFailed") == true)
    }

    @Test func deinitAfterACompleteTestReportsNothing() async {
        let (store, failures) = capturing(Search(), .init())
        await store.send(.failingSearchRequested) { $0.isSearching = true }
        await store.receive(.searchFailed("offline")) {
            $0.failure = "offline"
            $0.isSearching = false
        }
        _ = consume store
        #expect(failures.all.isEmpty)
    }

    @Test func unreceivedEventIsReported() async {
        let (store, failures) = capturing(Search(), .init())
        await store.send(.failingSearchRequested) { $0.isSearching = true }
        await store.finish()
        #expect(failures.all.count == 1)
        #expect(failures.all.first?.contains("searchFailed") == true)
    }

    @Test func sendingBeforeReceivingIsReported() async {
        let (store, failures) = capturing(Search(), .init())
        await store.send(.failingSearchRequested) { $0.isSearching = true }
        #expect(await eventually { store.store.runningEffectCount == 0 })
        await store.send(.cancelTapped) { $0.isSearching = false }
        #expect(failures.all.count == 1)
        #expect(failures.all.first?.contains("must be asserted before sending cancelTapped") == true)
        store.skipReceivedEvents()
        await store.finish()
    }

    @Test func unexpectedEventIsReported() async {
        let (store, failures) = capturing(Search(), .init())
        await store.send(.failingSearchRequested) { $0.isSearching = true }
        await store.receive(.searchFailed("disk full")) {
            $0.failure = "offline"
            $0.isSearching = false
        }
        await store.finish()
        #expect(failures.all.count == 1)
        #expect(failures.all.first?.contains("expected searchFailed(\"disk full\")") == true)
    }

    @Test func missingEventIsReported() async {
        let store = makeTestStore(Search(), .init())
        await store.send(.queryChanged("g")) {
            $0.query = "g"
            $0.isSearching = true
        }
        // The clock was never advanced: the result cannot arrive.
        await withKnownIssue {
            await store.receive(.resultsLoaded(["G"]), timeout: .milliseconds(50))
        }
        await store.send(.cancelTapped) { $0.isSearching = false }
        await store.finish()
    }

    @Test func skippedEventsAreNotReported() async {
        let (store, failures) = capturing(Search(), .init())
        await store.send(.failingSearchRequested) { $0.isSearching = true }
        #expect(await eventually { store.store.runningEffectCount == 0 })
        store.skipReceivedEvents()
        await store.finish()
        #expect(failures.all.isEmpty)
    }
}

@Suite struct GraniteBenchmarkTests {
    @Test func throughputCountsEveryEvent() async {
        let result = await GraniteBenchmark.throughput(events: 10_000, senders: 2)
        #expect(result.events == 10_000, "the events the store reduced")
        #expect(result.seconds > 0 && result.seconds.isFinite)
        #expect(result.eventsPerSecond > 0)
    }

    @Test func latencyReportsMeasuredTimes() async {
        let result = await GraniteBenchmark.latency(samples: 200, warmup: 10)
        #expect(result.samples == 200)
        for value in [result.p50Microseconds, result.p99Microseconds, result.maxMicroseconds] {
            #expect(value > 0 && value.isFinite)
        }
    }
}
