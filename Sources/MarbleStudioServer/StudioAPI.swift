#if Studio
import Foundation
import Hummingbird
import MarbleRender
import MarbleStudio

/// The HTTP API of docs/STUDIO.md: each route reads and checks its request, calls ``StudioState`` and
/// answers JSON (every failure as `{"error": "…"}`).
struct StudioAPI {
    let studio: StudioState

    func add(to router: Router<StudioContext>) {
        let studio = studio
        router.get("/api/effects") { _, _ in
            await APIResponse.answering { APIResponse.json(try EffectsCatalogue().json()) }
        }
        router.get("/api/media") { request, context in
            await APIResponse.answering {
                let path = try studio.songPath(try Self.query(request, "song"), folder: try Self.folder(request))
                return try await FileResponse.serve(path, type: Self.mediaType(of: path), request: request, context: context)
            }
        }
        router.post("/api/command") { request, _ in
            await APIResponse.answering {
                let r = try await RenderRequest(request, studio: studio)
                return APIResponse.json(["command": try studio.command(song: r.song, folder: r.folder, preset: r.preset, settings: r.settings)])
            }
        }
        addRenders(to: router)
    }

    private func addRenders(to router: Router<StudioContext>) {
        let studio = studio
        router.post("/api/renders") { request, _ in
            await APIResponse.answering {
                let r = try await RenderRequest(request, studio: studio)
                let status = try studio.submitRender(song: r.song, folder: r.folder, preset: r.preset, settings: r.settings)
                return APIResponse.json(encoding: ["render": status], status: .accepted)
            }
        }
        router.get("/api/renders") { _, _ in
            APIResponse.json(encoding: ["renders": studio.renders.list()])
        }
        router.delete("/api/renders/:id") { request, context in
            await APIResponse.answering {
                let id = context.parameters.get("id") ?? ""
                do throws(RenderLookupError) { return APIResponse.json(encoding: ["render": try studio.renders.cancel(id)]) } catch {
                    throw Self.failure(error)
                }
            }
        }
        router.get("/api/renders/:id/file") { request, context in
            await APIResponse.answering {
                let id = context.parameters.get("id") ?? ""
                let path: String
                do throws(RenderLookupError) { path = try studio.renders.file(id) } catch { throw Self.failure(error) }
                let name = URL(fileURLWithPath: path).lastPathComponent
                return try await FileResponse.serve(path, type: Self.mediaType(of: path), request: request, context: context,
                                                    attachment: name)
            }
        }
    }

    static func failure(_ error: RenderLookupError) -> StudioFailure {
        switch error {
        case .notFound: StudioFailure(.notFound, error.description)
        case .notDone: StudioFailure(.conflict, error.description)
        }
    }

    /// A query parameter that must be there.
    static func query(_ request: Request, _ name: String) throws(StudioFailure) -> String {
        guard let value = request.uri.queryParameters[Substring(name)], !value.isEmpty else {
            throw StudioFailure(.badRequest, "\(name): missing")
        }
        return String(value)
    }

    /// `?folder=N`, 0 when absent.
    static func folder(_ request: Request) throws(StudioFailure) -> Int {
        guard let text = request.uri.queryParameters["folder"] else { return 0 }
        guard text.count <= 4, let n = Int(text), n >= 0 else { throw StudioFailure(.badRequest, "folder: expected a folder's number") }
        return n
    }

    static func mediaType(of path: String) -> String {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "mp3": "audio/mpeg"
        case "flac": "audio/flac"
        case "ogg", "opus": "audio/ogg"
        case "wav": "audio/wav"
        case "m4a", "aac": "audio/mp4"
        case "mp4", "m4v": "video/mp4"
        case "mkv": "video/x-matroska"
        case "mov": "video/quicktime"
        case "webm": "video/webm"
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        default: "application/octet-stream"
        }
    }
}

/// The body of `/api/command` and `/api/renders`: `{"song", "folder", "preset", "settings"}`.
struct RenderRequest {
    var song: String, folder: Int, preset: String, settings: RenderSettings

    init(_ request: Request, studio: StudioState) async throws {
        let object = try StudioJSON.object(try await APIResponse.body(of: request))
        for key in object.keys where !["song", "folder", "preset", "settings"].contains(key) {
            throw StudioFailure(.badRequest, "\(key.prefix(40)): unknown field (expected song, folder, preset, settings)")
        }
        guard let song = object["song"] as? String else { throw StudioFailure(.badRequest, "song: missing (a path from /api/songs)") }
        guard let preset = object["preset"] as? String else { throw StudioFailure(.badRequest, "preset: missing (save the look first)") }
        self.song = song
        self.preset = preset
        folder = try StudioJSON.integer(object, "folder", default: 0)
        settings = try object["settings"].map { value throws(StudioFailure) in try studio.settings(fromJSONValue: value) } ?? RenderSettings()
    }
}
#endif
