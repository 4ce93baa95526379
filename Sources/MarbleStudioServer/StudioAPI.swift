#if Studio
import Foundation
import Hummingbird
import MarbleRender
import MarbleStudio

/// The HTTP API of docs/STUDIO.md: each route reads and checks its request, calls ``StudioState`` and
/// answers JSON.
struct StudioAPI {
    let studio: StudioState

    func add(to router: Router<StudioContext>) {
        router.get("/api/effects") { _, _ in
            await APIResponse.answering { APIResponse.json(try EffectsCatalogue().json()) }
        }
    }
}
#endif
