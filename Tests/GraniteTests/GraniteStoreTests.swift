import Granite
import Synchronization
import Testing
import TestSupport

/// Per-sender sequence numbers: no update may be lost and each sender's events must be reduced in
/// the order it sent them.
struct Tally: GraniteCenter {
    struct State: GraniteState {
        var perSender: [Int]
        var total = 0
        var outOfOrder = 0
    }

    enum Event: Equatable, Sendable { case tick(sender: Int, sequence: Int) }

    func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
        switch event {
        case .tick(let sender, let sequence):
            if state.perSender[sender] != sequence { state.outOfOrder += 1 }
            state.perSender[sender] = sequence + 1
            state.total += 1
        }
        return .none
    }
}

@Suite struct GraniteStoreTests {
    @Test func sendIsSynchronous() {
        let store = GraniteStore(center: Counter(), initialState: .init())
        store.send(.incremented)
        store.send(.incremented)
        store.send(.decremented)
        #expect(store.state.count == 1)
        #expect(store.commitCount == 3)
    }

    @Test func manyTasksSendingAtOnceLoseNothing() async {
        let senders = 64, perSender = 10_000
        let store = GraniteStore(center: Tally(), initialState: .init(perSender: Array(repeating: 0, count: senders)))
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for sequence in 0..<perSender { store.send(.tick(sender: sender, sequence: sequence)) }
                }
            }
        }
        // The sequential model: the same events, one sender after another.
        var model = Tally.State(perSender: Array(repeating: 0, count: senders))
        for sender in 0..<senders {
            for sequence in 0..<perSender {
                _ = Tally().reduce(state: &model, event: .tick(sender: sender, sequence: sequence))
            }
        }
        #expect(store.state == model)
        #expect(store.state.total == senders * perSender)
        #expect(store.state.outOfOrder == 0)
    }

    @Test func subscribersSeeCommitsInOrderUnderContention() async {
        let senders = 8, perSender = 1_000
        let store = GraniteStore(center: Tally(), initialState: .init(perSender: Array(repeating: 0, count: senders)))
        let seen = Recorder<Int>()
        let subscription = store.subscribe { seen.append($0.total) }
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for sequence in 0..<perSender { store.send(.tick(sender: sender, sequence: sequence)) }
                }
            }
        }
        subscription.cancel()
        let totals = seen.all
        #expect(totals.first == 0)
        #expect(totals.last == senders * perSender)
        #expect(totals == Array(0...(senders * perSender)), "every commit once, in commit order")
    }

    @Test func unchangedStateIsNotNotified() {
        let store = GraniteStore(center: Counter(), initialState: .init())
        let seen = Recorder<Int>()
        let subscription = store.subscribe(receiveCurrent: false) { seen.append($0.count) }
        store.send(.ignored)
        store.send(.incremented)
        store.send(.ignored)
        #expect(seen.all == [1])
        subscription.cancel()
        store.send(.incremented)
        #expect(seen.all == [1])
    }

    @Test func subscriberMaySendFromItsHandler() {
        let store = GraniteStore(center: Counter(), initialState: .init())
        let seen = Recorder<Int>()
        let subscription = store.subscribe(receiveCurrent: false) { state in
            seen.append(state.count)
            if state.count == 1 { store.send(.incremented) }
        }
        store.send(.incremented)
        #expect(seen.all == [1, 2])
        #expect(store.state.count == 2)
        subscription.cancel()
    }

    @Test func changesStreamStartsWithTheCurrentState() async {
        let store = GraniteStore(center: Counter(), initialState: .init(count: 5))
        var iterator = store.changes().makeAsyncIterator()
        #expect(await iterator.next()?.count == 5)
        store.send(.incremented)
        #expect(await iterator.next()?.count == 6)
    }

    @Test func changesStreamEndsWithTheStore() async {
        var store: GraniteStore<Counter>? = GraniteStore(center: Counter(), initialState: .init())
        let stream = store!.changes()
        store?.send(.incremented)
        store = nil
        var counts: [Int] = []
        for await state in stream { counts.append(state.count) }
        #expect(counts == [0, 1])
    }

    @Test func componentLifecycle() {
        struct CounterComponent: GraniteComponent {
            let store = GraniteStore(center: Counter(), initialState: .init())
        }
        let component = CounterComponent()
        component.start()
        #expect(component.state.label == "started")
        component.send(.incremented)
        #expect(component.state.count == 1)
        component.stop()
        #expect(component.state.label == "stopped")
    }

    @Test func lifecycleFiresOnStartAndOnStopOnce() {
        let store = GraniteStore(center: Counter(), initialState: .init())
        let labels = Recorder<String>()
        let subscription = store.subscribe(receiveCurrent: false) { labels.append($0.label) }
        store.start()
        store.start()
        #expect(store.isStarted)
        store.stop()
        #expect(!store.isStarted)
        #expect(labels.all == ["started", "stopped"])
        subscription.cancel()
    }

    @Test func snapshotReadsAreConsistentWhileWriting() async {
        let writes = 20_000
        let store = GraniteStore(center: Tally(), initialState: .init(perSender: [0]))
        let reading = Gate()
        // The writes start once the reader runs, and the reader reads until the last one landed.
        let writer = Task.detached {
            await reading.wait()
            for sequence in 0..<writes { store.send(.tick(sender: 0, sequence: sequence)) }
        }
        var last = 0, regressions = 0, torn = 0, reads = 0
        while true {
            // One event moves both fields: a snapshot that disagrees is a torn read.
            let (total, next) = store.withState { ($0.total, $0.perSender[0]) }
            if total != next { torn += 1 }
            if total < last { regressions += 1 }
            last = total
            reads += 1
            if reads == 1 { reading.open() }
            if total == writes { break }
            if reads % 256 == 0 { await Task.yield() }
        }
        await writer.value
        #expect(torn == 0)
        #expect(regressions == 0)
    }
}
