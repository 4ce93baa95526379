import Testing
@testable import MarbleStudio

@Suite struct StudioEventsTests {
    private func status(_ id: String, _ state: RenderStatus.State) -> RenderStatus {
        RenderStatus(id: id, song: "s", preset: "p", output: "o", command: "c", state: state)
    }

    @Test func everySubscriberHearsEveryChangeInOrder() async {
        let events = StudioEvents()
        let (a, first) = events.subscribe()
        let (_, second) = events.subscribe()
        events.publish(status("r1", .waiting))
        events.publish(status("r1", .done))
        events.unsubscribe(a)
        events.publish(status("r2", .waiting))
        events.finish()
        var heardFirst: [String] = [], heardSecond: [String] = []
        for await s in first { heardFirst.append("\(s.id) \(s.state.rawValue)") }
        for await s in second { heardSecond.append("\(s.id) \(s.state.rawValue)") }
        #expect(heardFirst == ["r1 waiting", "r1 done"])
        #expect(heardSecond == ["r1 waiting", "r1 done", "r2 waiting"])
        #expect(events.count == 0)
    }
}
