import Foundation
import Synchronization
import MarbleCore

/// Live capture of what PulseAudio plays (or any source) into a `CaptureBuffer`, through libpulse's
/// asynchronous API: a `pa_threaded_mainloop` thread (the capture thread) runs a `pa_context` and a
/// record `pa_stream`, follows the default sink, reconnects after faults, and keeps the buffer's
/// timeline moving at real time with silence when no data comes.
///
/// Thread safety: every member may be used from any thread. `onStateChange` runs on the capture thread,
/// one call at a time and never nested in the capture's own work, so it may read the capture or call
/// `stop()`; keep it short, as capture waits meanwhile.
public final class AudioCapture: Sendable {
    /// The options the capture was made with, validated.
    public let options: CaptureOptions
    /// Where the samples go: read it from any thread, each reader with its own cursor.
    public let buffer: CaptureBuffer
    private let status = CaptureStatus()
    private let lifecycle = Mutex(Lifecycle.idle)
    /// The capture's time: retries, the start's deadline and the silence filled while no data comes.
    private let clock: RealTimePacer

    private enum Lifecycle {
        case idle
        case running(CaptureRun)
        case stopped
    }

    /// Validates `options` and allocates the buffer (8 s); nothing connects until `start()`.
    public convenience init(options: CaptureOptions) throws(MarbleError) {
        try self.init(options: options, clock: .system())
    }

    /// A capture on `clock` (tests pass one on a test clock: they then decide when retries fall due,
    /// when a start gives up, and how much silence fills a time without data).
    package init(options: CaptureOptions, clock: RealTimePacer) throws(MarbleError) {
        try options.validate()
        self.options = options
        self.clock = clock
        buffer = CaptureBuffer(sampleRate: options.sampleRate)
    }

    deinit { stop() }

    /// Samples per second per channel in ``buffer`` (the rate asked for in the options).
    public var sampleRate: Int { options.sampleRate }

    /// `.stopped` before `start()` and after `stop()`; a snapshot, safe from any thread.
    public var state: CaptureState { status.state }

    /// The source being captured (for the default, the resolved name of the default sink's monitor);
    /// nil until capture first begins, then the last one captured, also while reconnecting.
    public var sourceName: String? { status.source }

    /// Called on the capture thread with each new state. Set it before `start()`.
    public var onStateChange: (@Sendable (CaptureState) -> Void)? {
        get { status.onChange }
        set { status.onChange = newValue }
    }

    /// Connects and starts capturing. Without `waitForServer`, returns once data is flowing, or throws
    /// `.device` ("no PulseAudio server is running: …; start one or pass --wait") when no server
    /// answers, or `.option` for an unknown `source` (the message lists the available ones). With
    /// `waitForServer` it returns at once (state `.connecting`) and keeps trying every 250 ms.
    /// Calling it again while running does nothing; after `stop()` it throws.
    public func start() throws(MarbleError) {
        let claimed: Result<CaptureRun?, MarbleError> = lifecycle.withLock { lifecycle in
            switch lifecycle {
            case .running: return .success(nil)
            case .stopped: return .failure(MarbleError(.device, "this capture was stopped; make a new one to capture again"))
            case .idle:
                do throws(MarbleError) {
                    let run = try CaptureRun(options: options, buffer: buffer, status: status, clock: clock)
                    lifecycle = .running(run)
                    return .success(run)
                } catch {
                    return .failure(error)
                }
            }
        }
        guard let run = try claimed.get() else { return }
        if case .failed(let error) = run.begin(waitForOutcome: !options.waitForServer) {
            stop()
            throw error
        }
    }

    /// Stops capture: closes the stream and the connection and joins the capture thread (when called
    /// on that thread, from `onStateChange`, a helper thread joins it). Idempotent, safe from any
    /// thread, never waits on the server.
    public func stop() {
        let run: CaptureRun? = lifecycle.withLock { lifecycle in
            defer { lifecycle = .stopped }
            if case .running(let run) = lifecycle { return run }
            return nil
        }
        guard let run else { return }
        run.shutdown()
        let changed = status.update(.stopped)
        let status = self.status
        if run.isOnCaptureThread {
            Thread.detachNewThread {
                run.join()
                if changed { status.notify(.stopped) }
            }
        } else {
            run.join()
            if changed { status.notify(.stopped) }
        }
    }
}
