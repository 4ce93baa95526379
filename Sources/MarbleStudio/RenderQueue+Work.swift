import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MarbleCore
import MarbleKit
import MarblePipeline
import MarbleRender
import Synchronization

/// The render queue's threads: each takes the oldest waiting render, runs it in a work folder of its
/// own, moves the file into place, and takes the next until none waits.
///
/// A render in N pieces runs them side by side, at most `cores / concurrency` at once (at least one),
/// the render's threads shared among them: so it uses about the cores a render in one piece does, and
/// holds at most that many pipelines' frames (all 16 at once would hold 16). Each piece replays the
/// song up to its first frame, so more pieces than cores would only add that replay.
extension RenderQueue {
    /// Starts a worker thread (the caller counted it in `book.running` and entered it in `workers`).
    func startWorker() {
        Thread.detachNewThread { [self] in
            Self.yieldToThePage()
            while let next = takeNext() { run(next) }
            workers.leave()
        }
    }

    /// Renders run at a lower priority (nice 10) than the rest of the studio: the page's preview (and
    /// the browser beside it) keep their frame rate, and a render takes whatever the machine has left.
    /// Linux keeps a nice value per thread and every thread a thread starts inherits it, so the
    /// render's pipeline, its strip workers and the encoder's threads all run at it.
    static func yieldToThePage() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)   // 0: on Linux, the calling thread (setpriority(2))
    }

    /// The oldest waiting render, now analysing; nil when none waits (the worker then ends).
    private func takeNext() -> Ticket? {
        book.withLock { book in
            guard let index = book.jobs.firstIndex(where: { $0.status.state == .waiting }) else {
                book.running -= 1
                return nil
            }
            book.jobs[index].status.state = .analysing
            deliver(book.jobs[index].status)
            let job = book.jobs[index]
            return Ticket(id: job.status.id, request: job.request, cancel: job.cancel)
        }
    }

    /// Runs one render to its end: done with its file in place, failed with the reason, or cancelled
    /// with nothing left. Its work folder is removed in every case.
    private func run(_ job: Ticket) {
        let work = outputFolder + "/.render-\(job.id)-" + String(UInt64.random(in: .min ... .max), radix: 16)
        defer { try? FileManager.default.removeItem(atPath: work) }
        do throws(MarbleError) {
            guard mkdir(work, 0o700) == 0 else {
                throw MarbleError(.output, "\(work): cannot make the render's work folder (\(String(cString: strerror(errno))))")
            }
            let name = status(job.id)?.output ?? "render"
            let threads = max(1, StripScheduler.availableCores / concurrency)
            let made = job.request.settings.pieceCount > 1
                ? try renderPieces(job, in: work, name: name, threads: threads)
                : try renderWhole(job, into: work + "/" + name, threads: threads)
            guard !job.cancel.isCancelled else { throw MarbleError(.cancelled, "stopped") }
            let placed = try place(made, id: job.id, request: job.request)
            change(job.id) { status in
                status.state = .done
                status.output = placed.name
                status.command = placed.command
                status.frames = made.frames
                status.totalFrames = made.frames
                status.eta = 0
                status.bytes = (try? FileManager.default.attributesOfItem(atPath: outputFolder + "/" + placed.name)[.size] as? Int) ?? 0
            }
        } catch {
            // A piece that failed raised the flag to stop the others: that render failed.
            let cancelled = job.cancel.isCancelled && !job.pieceFailed.isCancelled
            change(job.id) { status in
                status.state = cancelled ? .cancelled : .failed
                status.error = cancelled ? nil : error.message
                status.eta = nil
            }
        }
    }

    /// The options of one render (or one piece) into `output`, on `threads` threads.
    private func options(_ request: Request, output: String, threads: Int) throws(MarbleError) -> RenderOptions {
        var o = try request.settings.options(song: request.song, background: request.background, preset: request.presetPath, output: output)
        o.threads = threads
        return o
    }

    /// The render in one pass.
    private func renderWhole(_ job: Ticket, into path: String,
                             threads: Int) throws(MarbleError) -> (path: String, frames: Int) {
        let renderJob = try RenderJob(options: try options(job.request, output: path, threads: threads), cancel: job.cancel)
        let summary = try renderJob.run(cancel: job.cancel, progressInterval: progressInterval) { progress in
            report(job.id, piece: 0, progress)
        }
        return (path, summary.frames)
    }

    /// The render as `--segment K/N` pieces side by side (see the extension's note), then joined into `path`.
    private func renderPieces(_ job: Ticket, in folder: String, name: String,
                              threads: Int) throws(MarbleError) -> (path: String, frames: Int) {
        let count = job.request.settings.pieceCount
        let lanes = min(count, max(1, StripScheduler.availableCores / concurrency))
        let path = folder + "/" + name
        let pieces = (1...count).map { "\(folder)/part-\($0).\(job.request.settings.fileExtension)" }
        let next = Atomic(0)
        let failure = Mutex<MarbleError?>(nil)
        let lane: @Sendable () -> Void = { [self] in
            while !job.cancel.isCancelled {
                let k = next.add(1, ordering: .relaxed).oldValue
                guard k < count else { return }
                do throws(MarbleError) {
                    var o = try options(job.request, output: pieces[k], threads: max(1, threads / lanes))
                    o.segment = .piece(k + 1, of: count)
                    _ = try RenderJob(options: o, cancel: job.cancel).run(cancel: job.cancel, progressInterval: progressInterval) { progress in
                        report(job.id, piece: k, progress)
                    }
                } catch {
                    // Once the flag is up (the user, or a piece that failed first), errors are its echo.
                    guard !job.cancel.isCancelled else { return }
                    failure.withLock { if $0 == nil { $0 = error } }
                    job.pieceFailed.cancel()
                    job.cancel.cancel()   // the other pieces stop
                    return
                }
            }
        }
        let lanesDone = DispatchGroup()
        for _ in 1..<lanes {
            lanesDone.enter()
            Thread.detachNewThread { lane(); lanesDone.leave() }
        }
        lane()
        lanesDone.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        guard !job.cancel.isCancelled else { throw MarbleError(.cancelled, "stopped") }
        change(job.id) { $0.state = .joining }
        let summary = try JoinJob(options: JoinOptions(pieces: pieces, output: path)).run(cancel: job.cancel)
        return (path, summary.frames)
    }

    /// Moves the finished file into the output folder under the render's name, or the next free one if a
    /// file of that name appeared meanwhile (a hard link: it never replaces a file). Returns the name, and
    /// the command with it.
    private func place(_ made: (path: String, frames: Int), id: String, request: Request) throws(MarbleError) -> (name: String, command: String) {
        var name = status(id)?.output ?? "render"
        let stem = Self.sanitized("\(request.preset)-\(Self.stem(of: request.songName))")
        while link(made.path, outputFolder + "/" + name) != 0 {
            guard errno == EEXIST else {
                throw MarbleError(.output, "\(outputFolder)/\(name): cannot be written (\(String(cString: strerror(errno))))")
            }
            name = book.withLock { book in freeName(stem: stem, ext: request.settings.fileExtension, book: book) }
        }
        unlink(made.path)
        let command = try request.settings.command(song: request.song, background: request.background, preset: request.presetPath,
                                                   output: outputFolder + "/" + name)
        return (name, command)
    }

    // MARK: Progress

    /// A piece's (or the render's) progress: the phase becomes the render's state (a replay before a
    /// piece's first frame counts as analysing; the render is rendering once any piece draws), its
    /// frames are added up, and the speed and time left follow. Delivered at most every
    /// `progressInterval` unless the state changed.
    private func report(_ id: String, piece: Int, _ progress: RenderProgress) {
        let status = book.withLock { book -> RenderStatus? in
            // Read under the lock: pieces report from several threads, and times must not go back.
            let now = MonotonicClock.now()
            guard let index = book.jobs.firstIndex(where: { $0.status.id == id }) else { return nil }
            var job = book.jobs[index]
            let before = job.status.state
            switch progress.phase {
            case .analysing:
                if job.pieceFrames.count == 1 || job.status.totalFrames == nil { job.status.totalFrames = progress.expectedFrames }
            case .replaying:
                break
            case .rendering:
                job.status.state = .rendering
                job.pieceFrames[piece] = progress.frames
                if job.pieceFrames.count == 1 {
                    job.status.totalFrames = progress.expectedFrames
                } else {
                    job.pieceTotals[piece] = progress.expectedFrames
                    if job.pieceTotals.allSatisfy({ $0 != nil }) { job.status.totalFrames = job.pieceTotals.reduce(0) { $0 + ($1 ?? 0) } }
                }
                if job.firstFrame == nil { job.firstFrame = now }
            }
            job.status.frames = job.pieceFrames.reduce(0, +)
            if let first = job.firstFrame, now > first {
                job.status.fps = Double(job.status.frames) / (Double(now - first) / 1e9)
            }
            if let total = job.status.totalFrames, job.status.fps > 0 {
                job.status.eta = Double(max(0, total - job.status.frames)) / job.status.fps
            }
            let due = job.status.state != before || Double(now &- job.lastDelivered) >= progressInterval * 1e9
            if due {
                job.lastDelivered = now
                deliver(job.status)
            }
            book.jobs[index] = job
            return job.status
        }
        if let status, let onProgress { onProgress(status) }
    }

    /// A render taken by a worker: what it was asked, and its flags.
    struct Ticket: Sendable {
        let id: String
        let request: Request
        /// Raised to stop the render (``cancel(_:)``, ``shutdown()``, or a failed piece).
        let cancel: CancellationFlag
        /// Raised when a piece failed (and raised ``cancel`` to stop the others).
        let pieceFailed = CancellationFlag()
    }

    /// Changes a render's status and delivers it.
    private func change(_ id: String, _ edit: (inout RenderStatus) -> Void) {
        book.withLock { book in
            guard let index = book.jobs.firstIndex(where: { $0.status.id == id }) else { return }
            edit(&book.jobs[index].status)
            deliver(book.jobs[index].status)
        }
    }

}
