import MarbleCore
import MarbleMedia
import Synchronization

/// A desktop window as a frame sink: each frame's RGBA canvas shown in a ``VideoWindow`` (scaled to fit,
/// aspect ratio kept; 1:1 when the renderer follows the window through ``sizing``), then the window's
/// events handled: keys go to `onKey` as the terminal's ``Key``s, except `f` (fullscreen on/off) and Esc
/// while fullscreen (back to a window), which the sink handles itself; a close request calls `onClose`.
///
/// Threading: `init` may run on any thread; `consume`, `finish` and `abort` on the pipeline's sink
/// thread (one call at a time, see ``VideoWindow``). ``pixelSize`` and ``sizing`` may be read from any
/// thread (the render thread follows the window with them). `onKey` and `onClose` are called on the
/// sink thread.
///
/// Errors: `init` throws `.device` when there is no display (one line) or SDL cannot open the window;
/// `consume` throws `.device` when SDL fails to show a frame. A refused fullscreen switch is not an
/// error of the run: it is kept in ``warnings``.
package final class WindowSink: FrameSink {
    private let window: VideoWindow
    private let size: WindowPixelSize
    private let onKey: @Sendable (Key) -> Void
    private let onClose: @Sendable () -> Void
    /// Frames shown, and the milliseconds their presents took in all (upload, scale, present; with
    /// vsync, the wait for the display too).
    package private(set) var framesPresented = 0
    package private(set) var presentMilliseconds = 0.0
    private var closeReported = false
    /// What went wrong without stopping the run (a fullscreen switch SDL refused).
    package private(set) var warnings: [String] = []

    /// Opens the window.
    ///
    /// - Parameters:
    ///   - title: the window's title.
    ///   - size: its initial size in screen coordinates.
    ///   - fullscreen: start fullscreen at the desktop's resolution.
    ///   - vsync: let an accelerated renderer wait for the display's refresh on each frame (no tearing;
    ///     the sink thread then spends up to one refresh period in `consume`).
    ///   - onKey: called for each key typed in the window that the sink does not handle itself.
    ///   - onClose: called once, when the user closes the window (the sink keeps showing frames until
    ///     `finish`, so the session decides when to stop).
    /// - Throws: `.device` with no display or when SDL cannot open a window; `.option` for a size out
    ///   of range.
    package init(title: String, size: (width: Int, height: Int), fullscreen: Bool = false, vsync: Bool = true,
                 onKey: @escaping @Sendable (Key) -> Void, onClose: @escaping @Sendable () -> Void) throws(MarbleError) {
        window = try VideoWindow(title: title, width: size.width, height: size.height, fullscreen: fullscreen, vsync: vsync)
        self.size = WindowPixelSize(window.drawableSize)
        self.onKey = onKey
        self.onClose = onClose
    }

    package var needs: FrameNeeds { .rgba }

    package var label: String { "window" }

    /// A display: when it falls behind (a slow present, a wait for vsync) it skips to the newest frame
    /// rather than show an old one; the skipped frames are counted as the window's missed frames.
    package var showsLatestOnly: Bool { true }

    /// The window's drawable size now, in pixels, made even and at least 16 a side (what a renderer
    /// following the window draws at, and what the YUV conversion and the shaders accept).
    package var pixelSize: (width: Int, height: Int) { size.current }

    /// ``pixelSize`` as a closure for `FrameRenderer(sizing:)`, read on the render thread.
    package var sizing: @Sendable () -> (width: Int, height: Int) {
        let size = self.size
        return { size.current }
    }

    /// The SDL renderer showing the frames ("opengl", "software", …), for the summary.
    package var rendererName: String { window.rendererName }

    /// Whether the window covers the screen now.
    package var isFullscreen: Bool { window.isFullscreen }

    package func consume(_ slot: FrameSlot) throws(MarbleError) {
        guard let canvas = slot.canvas else { return }
        let start = MonotonicClock.now()
        try window.present(canvas)
        presentMilliseconds += MonotonicClock.milliseconds(since: start)
        framesPresented += 1
        handleEvents()
    }

    /// Handles the window's events since the last frame.
    private func handleEvents() {
        for event in window.pollEvents() {
            switch event {
            case .character("f"), .character("F"):
                switchFullscreen(on: !window.isFullscreen)
            case .escape where window.isFullscreen:
                switchFullscreen(on: false)
            case .character(let c): onKey(.character(c))
            case .left: onKey(.left)
            case .right: onKey(.right)
            case .up: onKey(.up)
            case .down: onKey(.down)
            case .escape: onKey(.escape)
            case .interrupt: onKey(.interrupt)
            case .resized(let width, let height): size.set((width, height))
            case .closed:
                if !closeReported { onClose() }
                closeReported = true
            }
        }
    }

    private func switchFullscreen(on: Bool) {
        do throws(MarbleError) {
            try window.setFullscreen(on)
            size.set(window.drawableSize)
        } catch {
            warnings.append(error.message)
        }
    }

    package func finish(stopped: Bool) throws(MarbleError) { window.close() }
    package func abort() { window.close() }
}

/// The window's drawable size as a renderer should draw it, shared between the sink thread (which
/// updates it after a resize) and the render thread (which reads it once per frame).
final class WindowPixelSize: Sendable {
    private let value: Mutex<(width: Int, height: Int)>

    init(_ size: (width: Int, height: Int)) { value = Mutex(Self.usable(size)) }

    var current: (width: Int, height: Int) { value.withLock { $0 } }

    func set(_ size: (width: Int, height: Int)) {
        let usable = Self.usable(size)
        value.withLock { $0 = usable }
    }

    /// Even (YUV 4:2:0 needs it) and at least 16 pixels a side.
    static func usable(_ size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        (max(16, size.width & ~1), max(16, size.height & ~1))
    }
}
