#if Studio
import Foundation
import Hummingbird
import MarbleStudio

/// The songs (list, play, cover, upload), the presets (list, load, save) and the MilkDrop shelf.
struct LibraryRoutes {
    let studio: StudioState

    func add(to router: Router<StudioContext>) {
        let studio = studio
        router.get("/api/songs") { _, _ in APIResponse.json(encoding: ["songs": studio.folders.songs()]) }
        router.get("/api/cover") { request, _ in
            await APIResponse.answering {
                guard let jpeg = try studio.cover(try StudioAPI.query(request, "song"), folder: try StudioAPI.folder(request)) else {
                    throw StudioFailure(.notFound, "the song has no cover picture")
                }
                return Self.jpeg(jpeg)
            }
        }
        router.post("/api/upload") { request, _ in
            await APIResponse.answering {
                let name = try StudioAPI.query(request, "name")
                let pieces = request.body.map { buffer in Array(buffer.readableBytesView) }
                let song = try await studio.folders.upload(name: name, limit: studio.configuration.maxUploadBytes, body: pieces)
                return APIResponse.json(encoding: ["song": song], status: .created)
            }
        }
        router.get("/api/presets") { _, _ in APIResponse.json(encoding: ["presets": studio.presets.list()]) }
        router.get("/api/presets/:name") { _, context in
            await APIResponse.answering { APIResponse.json(try studio.preset(context.parameters.get("name") ?? "")) }
        }
        router.post("/api/presets") { request, _ in
            await APIResponse.answering {
                let body = try StudioJSON.object(try await APIResponse.body(of: request))
                return APIResponse.json(try studio.savePreset(body), status: .created)
            }
        }
        router.get("/api/milkdrop") { request, _ in
            await APIResponse.answering {
                let q = request.uri.queryParameters
                let offset = try Self.integer(q["offset"], "offset", default: 0)
                let limit = try Self.integer(q["limit"], "limit", default: 100)
                return APIResponse.json(encoding: try studio.milkDrop.list(search: q["q"].map(String.init) ?? "", offset: offset, limit: limit))
            }
        }
        router.get("/api/milkdrop/thumbnail") { request, _ in
            await APIResponse.answering {
                let path = try StudioAPI.query(request, "path")
                // Drawn on a thread of its own: a thumbnail takes a fraction of a second of CPU.
                let jpeg = try await Self.offThread { () throws(StudioFailure) in try studio.milkDrop.thumbnail(path) }
                return Self.jpeg(jpeg)
            }
        }
    }

    static func jpeg(_ bytes: [UInt8]) -> Response {
        Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "max-age=300"],
                 body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func integer(_ text: Substring?, _ name: String, default fallback: Int) throws(StudioFailure) -> Int {
        guard let text else { return fallback }
        guard text.count <= 9, let n = Int(text) else { throw StudioFailure(.badRequest, "\(name): expected a whole number") }
        return n
    }

    /// Runs blocking work on a Dispatch thread, not on the server's.
    static func offThread<T: Sendable>(_ work: @escaping @Sendable () throws(StudioFailure) -> T) async throws(StudioFailure) -> T {
        let result: Result<T, StudioFailure> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(StudioFailure) { continuation.resume(returning: .success(try work())) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
#endif
