import MarbleCore

/// One running capture: its event loop (the capture thread) and the engine on it. `AudioCapture` makes
/// one per `start()` and lets it go after `stop()`; the loop is freed when the last reference goes,
/// which `stop()` makes sure happens off the loop's thread.
final class CaptureRun: Sendable {
    private let loop: PulseMainloop
    private let engine: CaptureEngine

    init(options: CaptureOptions, buffer: CaptureBuffer, status: CaptureStatus, clock: RealTimePacer) throws(MarbleError) {
        loop = try PulseMainloop()
        engine = CaptureEngine(options: options, buffer: buffer, status: status, loop: loop, clock: clock)
    }

    /// Starts the engine and the loop's thread; with `waitForOutcome`, waits until the first attempt
    /// captures, fails (the engine gives up after 5 s), or is stopped, and returns how it ended.
    func begin(waitForOutcome: Bool) -> CaptureEngine.Outcome? {
        loop.lock()
        defer { loop.unlock() }
        guard engine.begin() else { return .stopped }
        do throws(MarbleError) {
            try loop.start()
        } catch {
            engine.fail(error)
        }
        guard waitForOutcome else { return engine.outcome }
        while engine.outcome == nil { loop.wait() }
        return engine.outcome
    }

    /// Closes everything on the loop (under its lock, which the loop's own thread already holds while
    /// it runs a callback, and may not take again): no callback runs afterwards.
    func shutdown() {
        if loop.isLoopThread { return engine.shutdown() }
        loop.lock()
        engine.shutdown()
        loop.unlock()
    }

    var isOnCaptureThread: Bool { loop.isLoopThread }

    /// Stops and joins the loop's thread. Call after `shutdown()`, not on the loop's thread.
    func join() { loop.stop() }
}
