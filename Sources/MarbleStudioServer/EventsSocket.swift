#if Studio
import Foundation
import Hummingbird
import HummingbirdWebSocket
import MarbleStudio

/// `/api/events`: every render on connect, then each change as it happens, until the page goes.
struct EventsSocket {
    let studio: StudioState

    func add(to router: Router<StudioContext>) {
        let studio = studio
        router.ws("/api/events") { inbound, outbound, _ in
            guard let registered = studio.connections.add({ try? await outbound.close(.goingAway, reason: "the studio stopped") }) else { return }
            defer { studio.connections.remove(registered) }
            let (id, changes) = studio.events.subscribe()
            defer { studio.events.unsubscribe(id) }
            try await outbound.write(.text(Self.message("renders", studio.renders.list())))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await _ in inbound {}   // the page closed the socket (or went)
                }
                group.addTask {
                    for await status in changes { try await outbound.write(.text(Self.message("render", status))) }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// `{"type": TYPE, TYPE: value}` (`renders` or `render`), `value` encoded as the API encodes it.
    static func message(_ type: String, _ value: some Encodable) -> String {
        let body = StudioJSON.encoded(value).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        return #"{"type":"\#(type)","\#(type)":\#(body)}"#
    }
}
#endif
