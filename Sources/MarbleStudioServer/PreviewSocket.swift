#if Studio
import Hummingbird
import HummingbirdWebSocket
import MarbleStudio

/// `/api/preview`: one ``PreviewConnection`` per socket; its text messages answered in order, frames as
/// binary messages (docs/STUDIO.md, "Sockets").
struct PreviewSocket {
    let studio: StudioState

    func add(to router: Router<StudioContext>) {
        let studio = studio
        router.ws("/api/preview") { inbound, outbound, _ in
            guard let registered = studio.connections.add({ try? await outbound.close(.goingAway, reason: "the studio stopped") }) else { return }
            defer { studio.connections.remove(registered) }
            let connection = PreviewConnection(studio: studio)
            for try await message in inbound.messages(maxSize: StudioLimits.maxBody) {
                guard case .text(let text) = message else {
                    try await outbound.write(.text(#"{"type":"error","error":"send JSON text messages"}"#))
                    continue
                }
                switch await connection.handle(text) {
                case .text(let answer): try await outbound.write(.text(answer))
                case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                }
            }
        }
    }
}
#endif
