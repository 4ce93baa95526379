import Foundation
import MarbleCore
import MarbleKit
import MarblePipeline
import Synchronization

/// A render as the page sees it: docs/STUDIO.md's RENDER object.
package struct RenderStatus: Codable, Sendable, Equatable {
    /// Where a render is: waiting for a free slot, then its first pass over the song, its frames, the
    /// join of its pieces, and how it ended.
    package enum State: String, Codable, Sendable {
        case waiting, analysing, rendering, joining, done, failed, cancelled

        /// Whether the render has ended (done, failed or cancelled): its state changes no more.
        package var hasEnded: Bool { self == .done || self == .failed || self == .cancelled }
    }

    /// `r1`, `r2`, …: numbered in the order the queue took them.
    package var id: String
    /// The song as the page names it (`album/01 song.mp3`).
    package var song: String
    /// The preset's name.
    package var preset: String
    /// The output file's name, in the queue's output folder.
    package var output: String
    /// The `marble render` command line that writes the same bytes.
    package var command: String
    package var state: State
    /// Frames drawn so far (of every piece).
    package var frames = 0
    /// The frames of the whole render: the song's stated length until the render knows it exactly; nil before it is known.
    package var totalFrames: Int?
    /// Frames drawn per second of wall time since the first frame.
    package var fps = 0.0
    /// Seconds left at that speed; nil before it can be told.
    package var eta: Double?
    /// Why the render failed, one sentence (the render's own error).
    package var error: String?
    /// The size of the finished file (0 before).
    package var bytes = 0

    /// Every field, `null` for the ones without a value (the page reads `"error": null`).
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(song, forKey: .song)
        try c.encode(preset, forKey: .preset)
        try c.encode(output, forKey: .output)
        try c.encode(command, forKey: .command)
        try c.encode(state, forKey: .state)
        try c.encode(frames, forKey: .frames)
        try c.encode(totalFrames, forKey: .totalFrames)
        try c.encode(fps, forKey: .fps)
        try c.encode(eta, forKey: .eta)
        try c.encode(error, forKey: .error)
        try c.encode(bytes, forKey: .bytes)
    }
}

/// Why ``RenderQueue/file(_:)`` or ``RenderQueue/cancel(_:)`` found no answer (the server's 404 and 409).
package enum RenderLookupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No render has this id (or it is older than the last 100).
    case notFound(id: String)
    /// The render has no file: it is in `state`.
    case notDone(id: String, state: RenderStatus.State)

    package var description: String {
        switch self {
        case .notFound(let id): "no render \(id)"
        case .notDone(let id, let state): "render \(id) is \(state.rawValue), not done"
        }
    }
}

/// The studio's renders: queued, run at most ``concurrency`` at once on threads of their own
/// (`RenderJob.run` blocks), reported to ``onChange`` as they go, written into ``outputFolder``
/// without ever replacing a file.
///
/// A render works in a folder of its own inside the output folder (`.render-r7-…`): its file, or its
/// pieces and their join, are made there and moved into place only when whole (a hard link, which
/// fails rather than replace a file that appeared meanwhile). A cancelled or failed render, or one
/// stopped by ``shutdown()``, leaves nothing: its folder is removed.
///
/// Every change reaches ``onChange`` in the order it happened, on one serial queue of its own (so the
/// callback may call the queue back); progress at most once per `progressInterval` (0.2 s: 5 a second)
/// per render, changes of state always.
package final class RenderQueue: Sendable {
    /// Where renders are written.
    package let outputFolder: String
    /// Renders that run at once, 1…4.
    package let concurrency: Int
    /// Renders that may wait; one more is refused (the server's 429).
    package let maxWaiting: Int
    /// The renders listed and kept (the older finished ones are forgotten).
    package static let listed = 100

    let onChange: @Sendable (RenderStatus) -> Void
    /// Seconds between progress reports of a render; 0 reports every frame.
    let progressInterval: Double
    /// Called on the render's thread at each progress report, before ``onChange`` hears of it: tests use
    /// it to act at a known frame.
    let onProgress: (@Sendable (RenderStatus) -> Void)?
    let book = Mutex(Book())
    /// One `enter` per worker thread, for ``shutdown()`` to wait for them.
    let workers = DispatchGroup()
    /// Delivers ``onChange`` in order.
    let deliveries = DispatchQueue(label: "marble.studio.renders")

    /// A queue writing into `outputFolder` (made when the first render is submitted), `concurrency`
    /// renders at once (clamped to 1…4), refusing a render when `maxWaiting` wait already.
    package init(outputFolder: String, concurrency: Int = 1, maxWaiting: Int = 64, progressInterval: Double = 0.2,
                 onProgress: (@Sendable (RenderStatus) -> Void)? = nil,
                 onChange: @escaping @Sendable (RenderStatus) -> Void) {
        self.outputFolder = outputFolder.hasSuffix("/") && outputFolder.count > 1 ? String(outputFolder.dropLast()) : outputFolder
        self.concurrency = min(4, max(1, concurrency))
        self.maxWaiting = max(0, maxWaiting)
        self.progressInterval = max(0, progressInterval)
        self.onProgress = onProgress
        self.onChange = onChange
    }

    /// Checks and queues a render of `song` (its absolute path, and its name for the page) with `preset`
    /// (its name, and what `--preset` takes: a bundled name or a saved file's absolute path). A
    /// background file of the settings arrives resolved, as `backgroundFile` (an absolute path).
    /// Throws `.option` for bad settings, `.input` for a song that is not a file, `.output` when the
    /// output folder cannot be made, and `.transient` when ``maxWaiting`` renders wait (try again later).
    package func submit(song: (path: String, displayName: String), preset: (name: String, path: String),
                        settings: RenderSettings, backgroundFile: String? = nil) throws(MarbleError) -> RenderStatus {
        try settings.validate()
        let background = try Self.background(of: settings, file: backgroundFile)
        guard FileManager.default.fileExists(atPath: song.path) else { throw MarbleError(.input, "\(song.path): no such file") }
        try InputFile.requireRegularFile(song.path, as: "the song")
        do {
            try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
        } catch {
            throw MarbleError(.output, "\(outputFolder): cannot make the output folder (\(error.localizedDescription))")
        }
        let stem = Self.sanitized("\(preset.name)-\(Self.stem(of: song.displayName))")
        let request = Request(song: song.path, songName: song.displayName, preset: preset.name, presetPath: preset.path,
                              settings: settings, background: background)
        let (status, startsWorker) = try book.withLock { book throws(MarbleError) -> (RenderStatus, Bool) in
            guard !book.closed else { throw MarbleError(.cancelled, "the studio is stopping: no new render") }
            guard book.jobs.count(where: { $0.status.state == .waiting }) < maxWaiting else {
                throw MarbleError(.transient, "the render queue is full: \(maxWaiting) renders are waiting")
            }
            let name = freeName(stem: stem, ext: settings.fileExtension, book: book)
            let id = "r\(book.nextNumber)"
            let command = try request.settings.command(song: request.song, background: background, preset: request.presetPath,
                                                       output: outputFolder + "/" + name)
            book.nextNumber += 1
            let job = Job(request: request,
                          status: RenderStatus(id: id, song: song.displayName, preset: preset.name, output: name, command: command, state: .waiting),
                          pieceFrames: Array(repeating: 0, count: settings.pieceCount),
                          pieceTotals: Array(repeating: nil, count: settings.pieceCount))
            book.jobs.append(job)
            book.forgetOldRenders()
            deliver(job.status)
            guard book.running < concurrency else { return (job.status, false) }
            book.running += 1
            workers.enter()   // now, so that a shutdown from here on waits for the thread about to start
            return (job.status, true)
        }
        if startsWorker { startWorker() }
        return status
    }

    /// Cancels a waiting render (it never starts) or a running one (it stops at its next frame and
    /// leaves no file; its state becomes `cancelled` once its files are gone). A render that has ended
    /// is left as it is. Returns its status.
    @discardableResult
    package func cancel(_ id: String) throws(RenderLookupError) -> RenderStatus {
        try book.withLock { book throws(RenderLookupError) -> RenderStatus in
            guard let index = book.jobs.firstIndex(where: { $0.status.id == id }) else { throw .notFound(id: id) }
            stop(&book.jobs[index])
            return book.jobs[index].status
        }
    }

    /// Cancels `job` (with the book's lock held): a waiting one never starts, a running one stops at its
    /// next frame (its worker reports `cancelled` once its files are gone), an ended one stays as it is.
    private func stop(_ job: inout Job) {
        switch job.status.state {
        case .waiting:
            job.status.state = .cancelled
            deliver(job.status)
        case .analysing, .rendering, .joining:
            job.cancel.cancel()
        case .done, .failed, .cancelled:
            break
        }
    }

    /// The renders, newest first: the last ``listed``.
    package func list() -> [RenderStatus] {
        book.withLock { book in book.jobs.suffix(Self.listed).reversed().map(\.status) }
    }

    /// The status of render `id`, if the queue still knows it.
    package func status(_ id: String) -> RenderStatus? {
        book.withLock { book in book.jobs.first { $0.status.id == id }?.status }
    }

    /// The absolute path of render `id`'s file, once it is done.
    package func file(_ id: String) throws(RenderLookupError) -> String {
        let status = try book.withLock { book throws(RenderLookupError) -> RenderStatus in
            guard let job = book.jobs.first(where: { $0.status.id == id }) else { throw .notFound(id: id) }
            return job.status
        }
        guard status.state == .done else { throw .notDone(id: id, state: status.state) }
        return outputFolder + "/" + status.output
    }

    /// Stops everything, for the end of the studio (Ctrl-C): refuses new renders, cancels the waiting
    /// and the running ones, waits until their threads have removed their files, and until
    /// ``onChange`` has heard of every change. Nothing half-written is left. It blocks: not to be called
    /// from ``onChange`` (which it waits for).
    package func shutdown() {
        book.withLock { book in
            book.closed = true
            for index in book.jobs.indices { stop(&book.jobs[index]) }
        }
        workers.wait()
        deliveries.sync {}
    }

    // MARK: Bookkeeping

    /// What a render was asked for.
    struct Request: Sendable {
        let song: String, songName: String, preset: String, presetPath: String
        let settings: RenderSettings
        let background: RenderBackground
    }

    /// A render the queue knows of.
    struct Job: Sendable {
        let request: Request
        var status: RenderStatus
        /// Raised by ``cancel(_:)``, ``shutdown()``, or a failed piece (to stop the others).
        let cancel = CancellationFlag()
        /// Frames drawn by each piece (one for a render in one piece), and the frames each draws once known.
        var pieceFrames: [Int]
        var pieceTotals: [Int?]
        /// Monotonic nanoseconds: the first frame drawn, and the last progress delivered.
        var firstFrame: UInt64?
        var lastDelivered: UInt64 = 0
    }

    /// The queue's state, behind ``book``.
    struct Book: Sendable {
        /// Oldest first.
        var jobs: [Job] = []
        var nextNumber = 1
        /// Worker threads alive.
        var running = 0
        /// Set by ``shutdown()``.
        var closed = false

        /// Keeps the last ``listed`` renders, and every one that has not ended.
        mutating func forgetOldRenders() {
            while jobs.count > RenderQueue.listed, let old = jobs.firstIndex(where: { $0.status.state.hasEnded }),
                  old < jobs.count - RenderQueue.listed {
                jobs.remove(at: old)
            }
        }
    }

    /// Hands a status to ``onChange``, after every one delivered before. Called with ``book`` locked,
    /// so the order of deliveries is the order of the changes.
    func deliver(_ status: RenderStatus) {
        let onChange = onChange
        deliveries.async { onChange(status) }
    }

    /// The settings' background, with the caller's resolved path for a file.
    private static func background(of settings: RenderSettings, file: String?) throws(MarbleError) -> RenderBackground {
        switch settings.background {
        case nil, .none?: return .none
        case .cover?: return .cover
        case .file?:
            guard let file, file.hasPrefix("/") else {
                throw MarbleError(.option, "settings.background: the file was not resolved to an absolute path")
            }
            return .file(file)
        }
    }

    /// The command a render of `song` with `preset` and `settings` submitted now would run: the same
    /// checks, background and output name as ``submit(song:preset:settings:backgroundFile:)``.
    package func command(song: (path: String, displayName: String), preset: (name: String, path: String),
                         settings: RenderSettings, backgroundFile: String? = nil) throws(MarbleError) -> String {
        try settings.validate()
        let background = try Self.background(of: settings, file: backgroundFile)
        let stem = Self.sanitized("\(preset.name)-\(Self.stem(of: song.displayName))")
        let name = book.withLock { freeName(stem: stem, ext: settings.fileExtension, book: $0) }
        return try settings.command(song: song.path, background: background, preset: preset.path, output: outputFolder + "/" + name)
    }

    // MARK: Names

    /// `<stem>.<ext>`, else `<stem> 2.<ext>`, `<stem> 3.<ext>`…: the first that is neither a file of the
    /// output folder nor the name of a render that has not ended (its file is not there yet).
    func freeName(stem: String, ext: String, book: Book) -> String {
        let taken = Set(book.jobs.filter { !$0.status.state.hasEnded }.map(\.status.output))
        var number = 1
        while true {
            let name = number == 1 ? "\(stem).\(ext)" : "\(stem) \(number).\(ext)"
            var info = stat()
            if !taken.contains(name), lstat(outputFolder + "/" + name, &info) != 0, errno == ENOENT { return name }
            number += 1
        }
    }

    /// A song's name without its folders and extension: "album/01 song.mp3" → "01 song".
    static func stem(of name: String) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }

    /// A file name's stem made safe: no `/`, NUL or control characters (each becomes `_`), not hidden
    /// (a leading `.` becomes `_`), not empty, and at most 200 bytes of UTF-8 (room for ` 99.webm`
    /// within the 255 bytes a name may have).
    static func sanitized(_ stem: String) -> String {
        var scalars = String.UnicodeScalarView()
        for c in stem.unicodeScalars {
            scalars.append(c == "/" || c.value < 0x20 || (0x7F...0x9F).contains(c.value) ? "_" : c)
        }
        var text = String(scalars)
        if text.hasPrefix(".") { text = "_" + text.dropFirst() }
        while text.utf8.count > 200 { text.removeLast() }
        return text.isEmpty ? "render" : text
    }
}
