internal import CSDL2
import Foundation
import MarbleCore
import Synchronization

/// SDL's video subsystem for the whole process, shared by every ``VideoWindow``.
///
/// The process-wide settings (hints) are made once, under a lock, before SDL's first initialisation;
/// SDL itself is initialised for video while at least one window is open, counted under the same lock.
/// The video subsystem holds the connection to the display: quitting it with the last window means a
/// display that goes away later (an X server that stops) cannot take the process with it (Xlib ends the
/// process when its connection breaks), and a later window connects to the display `DISPLAY` names then.
///
/// Threading: `acquire` and `release` may be called from any thread (they take the lock).
enum SDLVideo {
    private struct State {
        var configured = false
        var windows = 0
    }
    private static let state = Mutex(State())

    /// Initialises the video subsystem if no window has it yet, and counts one window more.
    ///
    /// - Throws: `.device` with one line when no display can be opened.
    static func acquire() throws(MarbleError) {
        try state.withLock { (state: inout State) throws(MarbleError) in
            if !state.configured {
                configure()
                state.configured = true
            }
            if state.windows == 0 {
                guard let drivers = displayDrivers() else {
                    throw MarbleError(.device, "no display: cannot open a window (SDL: neither DISPLAY nor WAYLAND_DISPLAY names one); is DISPLAY set?")
                }
                // A frozen server would hold SDL for ever; the probe's connection stays open until SDL has its own.
                var probe: DisplayProbe.Held?
                if drivers.hasPrefix("x11"), let display = getenv("DISPLAY") { probe = try DisplayProbe.check(String(cString: display)) }
                defer { probe?.close() }
                _ = SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers)
                guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else {
                    throw MarbleError(.device, "no display: cannot open a window (SDL: \(lastError)); is DISPLAY set?")
                }
            }
            state.windows += 1
        }
    }

    /// Counts one window less; the last one quits the video subsystem (and closes the display connection).
    static func release() {
        state.withLock { state in
            precondition(state.windows > 0, "SDLVideo.release without acquire")
            state.windows -= 1
            if state.windows == 0 { SDL_QuitSubSystem(SDL_INIT_VIDEO) }
        }
    }

    /// The SDL video drivers to try, in order: those of the displays the environment names (X11 first,
    /// as SDL 2 prefers). Left to itself, SDL 2.26 falls back to its "offscreen" driver, which opens
    /// windows nobody can see: with no display, opening a window must fail instead. An explicit
    /// `SDL_VIDEODRIVER` in the environment wins over this list (SDL reads it first), so
    /// `SDL_VIDEODRIVER=offscreen` still runs with no display at all. Nil: no display is named.
    private static func displayDrivers() -> String? {
        if let chosen = getenv("SDL_VIDEODRIVER"), chosen.pointee != 0 { return String(cString: chosen) }
        var drivers: [String] = []
        if let x11 = getenv("DISPLAY"), x11.pointee != 0 { drivers.append("x11") }
        if let wayland = getenv("WAYLAND_DISPLAY"), wayland.pointee != 0 { drivers.append("wayland") }
        return drivers.isEmpty ? nil : drivers.joined(separator: ",")
    }

    /// Hints SDL reads when it initialises (they must be set before).
    private static func configure() {
        // The app has its own Ctrl-C and SIGTERM handling (a clean end to a recording): SDL must not
        // install handlers that turn them into SDL_QUIT events.
        _ = SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        // A window among others: do not ask a compositing window manager to stop compositing the desktop.
        _ = SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        // Bilinear scaling when the picture is drawn larger or smaller than it is (1:1 is a plain copy).
        _ = SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        // (The screensaver stays off while a window is open, SDL's default, as for any video player.)
    }

    /// Set (for the rest of the process) once the X server's connection broke: Xlib's handlers were
    /// told to return rather than end the process (see ``surviveLostDisplay(of:)``), and every window
    /// then reports its display lost instead of calling SDL again.
    private static let displayLostFlag = Atomic<Bool>(false)

    /// Whether the X server's connection broke (the server stopped or was killed).
    static var displayLost: Bool { displayLostFlag.load(ordering: .acquiring) }

    /// Keeps a broken X connection from ending the process: when SDL drew `window` on X11, Xlib's
    /// fatal I/O error handlers are replaced by ones that record the loss and return (SDL 2.26 leaves
    /// Xlib's default, which calls `exit(1)` when the server goes away: every recording would be lost
    /// with it). Nothing to do on Wayland or the offscreen driver, whose errors SDL reports itself.
    static func surviveLostDisplay(of window: OpaquePointer) {
        guard let display = marble_sdl_x11_display(window) else { return }
        marble_x11_survive_lost_display(display, { _ in
            SDLVideo.displayWasLost()
            return 0
        }, { _, _ in SDLVideo.displayWasLost() })
    }

    /// Records the loss (once). The process will then end without running the libraries' destructors:
    /// libGLX's (SDL's OpenGL renderer) takes the dead display's lock at exit and waits for it forever
    /// (seen with Mesa's llvmpipe on Xvfb), so the process would never end after a finished session.
    /// `on_exit` handlers run before them, and this one ends the process with the status it was given.
    private static func displayWasLost() {
        guard !displayLostFlag.exchange(true, ordering: .acquiringAndReleasing) else { return }
        on_exit({ status, _ in _exit(status) }, nil)
    }

    /// `SDL_GetError` as a Swift string.
    static var lastError: String {
        guard let text = SDL_GetError(), text.pointee != 0 else { return "unknown error" }
        return String(cString: text)
    }
}
