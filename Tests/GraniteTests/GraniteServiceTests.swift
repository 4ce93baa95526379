import Granite
import Testing
import TestSupport

struct MixerService: GraniteService {
    struct State: GraniteState { var level = 0 }
    enum Event: Equatable, Sendable { case levelSet(Int) }

    static var initialState: State { State() }

    func reduce(state: inout State, event: Event) -> GraniteEffect<Event> {
        switch event {
        case .levelSet(let level): state.level = level
        }
        return .none
    }
}

@Suite struct GraniteServiceTests {
    @Test func oneStorePerServiceType() {
        let registry = GraniteServiceRegistry()
        let a = Relay(MixerService.self, registry: registry)
        let b = Relay(MixerService.self, registry: registry)
        #expect(a.store === b.store)
        #expect(registry.store(for: MixerService.self) === a.store)
    }

    @Test func changesReachEveryHolder() {
        let registry = GraniteServiceRegistry()
        let seenA = Recorder<Int>(), seenB = Recorder<Int>()
        let a = Relay(MixerService.self, registry: registry) { seenA.append($0.level) }
        let b = Relay(MixerService.self, registry: registry) { seenB.append($0.level) }
        a.send(.levelSet(3))
        b.send(.levelSet(4))
        #expect(seenA.all == [0, 3, 4])
        #expect(seenB.all == [0, 3, 4])
        #expect(a.state.level == 4)
    }

    @Test func pausedHolderCatchesUpOnceOnResume() {
        let registry = GraniteServiceRegistry()
        let seenA = Recorder<Int>(), seenB = Recorder<Int>()
        let a = Relay(MixerService.self, registry: registry) { seenA.append($0.level) }
        let b = Relay(MixerService.self, registry: registry) { seenB.append($0.level) }
        b.pause()
        #expect(b.isPaused)
        for level in 1...5 { a.send(.levelSet(level)) }
        #expect(seenB.all == [0])
        #expect(b.state.level == 5, "reads stay live while paused")
        b.resume()
        #expect(seenB.all == [0, 5])
        a.send(.levelSet(6))
        #expect(seenA.all == [0, 1, 2, 3, 4, 5, 6])
        #expect(seenB.all == [0, 5, 6])
    }

    @Test func resumeWithoutChangesDeliversNothing() {
        let registry = GraniteServiceRegistry()
        let seen = Recorder<Int>()
        let relay = Relay(MixerService.self, registry: registry) { seen.append($0.level) }
        relay.pause()
        relay.resume()
        #expect(seen.all == [0])
    }

    @Test func relayChangesStream() async {
        let registry = GraniteServiceRegistry()
        let relay = Relay(MixerService.self, registry: registry)
        var iterator = relay.changes.makeAsyncIterator()
        #expect(await iterator.next()?.level == 0)
        relay.send(.levelSet(8))
        #expect(await iterator.next()?.level == 8)
    }

    @Test func releasedHoldersStopReceiving() {
        let registry = GraniteServiceRegistry()
        let seen = Recorder<Int>()
        let seenByOther = Recorder<Int>()
        let other = Relay(MixerService.self, registry: registry) { seenByOther.append($0.level) }
        var relay: Relay<MixerService>? = Relay(MixerService.self, registry: registry) { seen.append($0.level) }
        #expect(relay?.state.level == 0)
        relay = nil
        registry.store(for: MixerService.self).send(.levelSet(2))
        #expect(seenByOther.all == [0, 2], "the service still fans out to the holders that remain")
        #expect(other.state.level == 2)
        #expect(seen.all == [0])
    }
}
