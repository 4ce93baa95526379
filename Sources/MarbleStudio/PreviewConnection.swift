import Dispatch
import Foundation
import MarbleCore
import MarbleKit
import MarbleMedia
import MarbleRender

/// One page's live preview: what the messages of its `/api/preview` socket do, without the socket
/// (docs/STUDIO.md, "Sockets"). `open` makes a ``PreviewSession`` of the song with the look at the
/// preview size; `look` shows a new look from the next frame; `frame` draws the frame of a moment and
/// answers with a 16-byte header (id, frame index, time) and the JPEG.
///
/// The drawing runs on the connection's own serial queue, never on the server's threads, and one
/// message at a time in the order they came: a new look always applies to the frames asked for after it.
///
/// Safety of @unchecked Sendable: every stored property but `queue` and `studio` is touched only on `queue`.
package final class PreviewConnection: @unchecked Sendable {
    /// Largest preview: 1280x720 (a bigger picture is a render, not a preview); frame rates 10…60.
    package static let maxPixels = 1280 * 720
    package static let fpsRange = 10...60

    /// What a message is answered with.
    package enum Reply: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
    }

    private let studio: StudioState
    private let queue = DispatchQueue(label: "marble.studio.preview")
    private var session: PreviewSession?
    private var encoder: JPEGEncoder?
    /// The look and the settings drawn now (the page may send either alone).
    private var look: Preset?
    private var settings = PreviewSettings()
    private var song: (path: String, folder: Int)?

    package init(studio: StudioState) {
        self.studio = studio
    }

    /// Answers one text message of the socket (binary messages are refused by the caller).
    package func handle(_ text: String) async -> Reply {
        await withCheckedContinuation { continuation in
            queue.async {
                let reply: Reply
                do throws(StudioFailure) {
                    reply = try self.answer(text)
                } catch {
                    reply = .text(Self.json(["type": "error", "error": error.message]))
                }
                continuation.resume(returning: reply)
            }
        }
    }

    // MARK: - Messages

    private func answer(_ text: String) throws(StudioFailure) -> Reply {
        guard text.utf8.count <= StudioLimits.maxBody else { throw StudioFailure(.tooLarge, "a preview message is at most 1 MB") }
        let message = try StudioJSON.object(text.utf8)
        switch message["type"] as? String {
        case "open": return try open(message)
        case "look": return try change(message)
        case "frame": return try frame(message)
        case let other?: throw StudioFailure(.badRequest, "type: unknown message \"\(other.prefix(40))\" (expected open, look or frame)")
        case nil: throw StudioFailure(.badRequest, "type: missing (expected open, look or frame)")
        }
    }

    private func open(_ message: [String: Any]) throws(StudioFailure) -> Reply {
        let folder = try StudioJSON.integer(message, "folder", default: 0)
        guard let path = message["song"] as? String else { throw StudioFailure(.badRequest, "song: missing (a path from /api/songs)") }
        let song = try studio.songPath(path, folder: folder)
        var size = (width: 640, height: 360)
        if let text = message["size"] {
            guard let text = text as? String, let parsed = StudioJSON.size(text), parsed.width * parsed.height <= Self.maxPixels else {
                throw StudioFailure(.badRequest, "size: expected WIDTHxHEIGHT with even sides, 16x16 to 1280x720")
            }
            size = parsed
        }
        let fps = try StudioJSON.integer(message, "fps", default: 30)
        guard Self.fpsRange.contains(fps) else { throw StudioFailure(.badRequest, "fps: must be 10…60") }
        let look = try message["look"].map { value throws(StudioFailure) in try studio.look(fromJSONValue: value) }
        let settings = try message["settings"].map { value throws(StudioFailure) in try PreviewSettings(studio.settings(fromJSONValue: value), studio: studio) } ?? PreviewSettings()
        try reopen(song: (song, folder), size: size, fps: fps, look: look ?? self.look, settings: settings)
        guard let session else { throw StudioFailure(.internalError, "the preview did not open") }
        return .text(Self.json(["type": "opened", "duration": session.duration, "fps": fps, "width": size.width,
                                "height": size.height, "frames": session.totalFrames]))
    }

    /// A new look or new settings: numbers in place, anything else with a new compositor; settings or an
    /// analysis section that changed open the song again.
    private func change(_ message: [String: Any]) throws(StudioFailure) -> Reply {
        guard let session, let song else { throw StudioFailure(.conflict, "open a song first") }
        let look = try message["look"].map { value throws(StudioFailure) in try studio.look(fromJSONValue: value) } ?? self.look
        let settings = try message["settings"].map { value throws(StudioFailure) in try PreviewSettings(studio.settings(fromJSONValue: value), studio: studio) } ?? self.settings
        let scene: Preset?
        do throws(MarbleError) { scene = try look.map { l throws(MarbleError) in try session.scene(for: l) } } catch {
            throw StudioFailure(.badRequest, error.message)
        }
        if settings != self.settings || scene.map({ !session.canShow($0) }) == true {
            // New settings, an analysis section or features the session does not compute: open the song again.
            try reopen(song: song, size: (session.width, session.height), fps: Int(session.fps.doubleValue), look: look,
                       settings: settings)
        } else if let look, let scene {
            do throws(MarbleError) { try session.show(scene) } catch { throw StudioFailure(.badRequest, error.message) }
            self.look = look
        }
        return .text(Self.json(["type": "looked"]))
    }

    private func frame(_ message: [String: Any]) throws(StudioFailure) -> Reply {
        guard let session, let encoder else { throw StudioFailure(.conflict, "open a song first") }
        let id = try StudioJSON.integer(message, "id", default: 0)
        guard (0...Int(UInt32.max)).contains(id) else { throw StudioFailure(.badRequest, "id: must be 0…4294967295") }
        guard let time = (message["time"] as? NSNumber)?.doubleValue, time.isFinite else {
            throw StudioFailure(.badRequest, "time: expected the moment in seconds")
        }
        let drawn: (index: Int, time: Double)
        let jpeg: [UInt8]
        do throws(MarbleError) {
            drawn = try session.draw(at: time, redraw: true)
            jpeg = try encoder.encode(session.picture)
        } catch {
            throw StudioFailure(.internalError, error.message)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(16 + jpeg.count)
        withUnsafeBytes(of: UInt32(id).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(drawn.index).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: drawn.time.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: jpeg)
        return .binary(bytes)
    }

    /// Opens the song with the look and settings as a render of them would be opened.
    private func reopen(song: (path: String, folder: Int), size: (width: Int, height: Int), fps: Int, look: Preset?,
                        settings: PreviewSettings) throws(StudioFailure) {
        var options = RenderOptions(input: song.path, output: StudioState.previewPicture)
        (options.width, options.height, options.fps) = (size.width, size.height, Rational(fps))
        options.scene = look
        settings.apply(to: &options)
        do throws(MarbleError) {
            let scene: Preset
            if let look { scene = look } else { scene = try PresetLibrary.load(options.preset) }
            let analysis = AnalysisConfiguration().applying(scene.analysis)
            let report = try studio.analyses.report(path: song.path, configuration: analysis)
            let next = try PreviewSession(options: options, report: report)
            if encoder?.width != size.width || encoder?.height != size.height {
                encoder = try JPEGEncoder(width: size.width, height: size.height, quality: 80)
            }
            session = next
        } catch {
            throw StudioFailure(.badRequest, error.message)
        }
        self.song = song
        self.look = look
        self.settings = settings
    }

    private static func json(_ object: [String: Any]) -> String {
        String(decoding: StudioJSON.data(object), as: UTF8.self)
    }
}
