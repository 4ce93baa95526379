internal import CSDL2
import MarbleCore

/// What happened to a ``VideoWindow`` since the last ``VideoWindow/pollEvents()``: keys, a new size, a
/// request to close. The pipeline maps the keys to its own `Key` (it lives above this module).
package enum WindowEvent: Equatable, Sendable {
    /// A printable character typed in the window, as the keyboard layout makes it (`n`, `N`, `+`).
    case character(Character)
    /// An arrow key (repeats while held).
    case left, right, up, down
    /// Esc.
    case escape
    /// Ctrl-C typed in the window (the terminal's interrupt key).
    case interrupt
    /// The window's drawable area is now `width` x `height` pixels (a resize, or fullscreen on or off).
    case resized(width: Int, height: Int)
    /// The user asked to close the window (its close button, or the window manager's close key).
    case closed
}

/// A desktop window showing CPU-rendered frames, through SDL2: a resizable window, an SDL renderer (the
/// one SDL picks, accelerated with vsync where the machine has one, else SDL's software renderer) and a
/// streaming RGBA texture that each ``present(_:)`` uploads and draws scaled to fit, aspect ratio kept,
/// with black bars (letterbox or pillarbox). When the window's drawable size is the picture's size it is
/// a 1:1 copy.
///
/// Threading: not thread-safe. After `init`, every call (present, poll, fullscreen, close) must come
/// from one thread at a time, and in practice from one thread: the pipeline's sink thread. On X11 that
/// thread may differ from the one that called `init`, as long as calls never overlap. `deinit` closes
/// the window, so the last reference must also be dropped on that thread or after it has stopped.
/// SDL's event queue is process-wide: events of other SDL windows in the same process are dropped by
/// ``pollEvents()``, so a process shows one window at a time.
///
/// Errors: ``MarbleError`` of kind `.device` with SDL's own words (`SDL_GetError`); with no display at
/// all, one line saying so.
package final class VideoWindow {
    private var window: OpaquePointer?
    private var renderer: OpaquePointer?
    /// The streaming texture, made for the picture size of the last present (re-made when it changes).
    private var texture: OpaquePointer?
    private var textureWidth = 0, textureHeight = 0
    private let windowID: UInt32
    /// The window's size (screen coordinates) before it went fullscreen, restored when it leaves.
    private var windowedSize: (width: Int32, height: Int32)
    /// The SDL render driver in use: "opengl", "opengles2", "software", … (for summaries).
    package let rendererName: String
    /// Whether SDL says this renderer has vsync (presents then wait for the display's refresh; SDL may
    /// simulate it with a sleep of one refresh period, as it does under Xvfb).
    package let hasVSync: Bool

    /// Opens the window, centred on the first display, and its renderer.
    ///
    /// - Parameters:
    ///   - title: the window's title (also how tools such as `xdotool search --name` find it).
    ///   - width, height: the initial size in screen coordinates (1…16384).
    ///   - fullscreen: start fullscreen at the desktop's resolution (`SDL_WINDOW_FULLSCREEN_DESKTOP`).
    ///   - vsync: ask an accelerated renderer to wait for the display's refresh on each present.
    /// - Throws: `.device` when there is no display (`DISPLAY` unset or nobody listening) or SDL cannot
    ///   make the window or any renderer; `.option` for a size out of range.
    package init(title: String, width: Int, height: Int, fullscreen: Bool = false, vsync: Bool = true) throws(MarbleError) {
        guard (1...16_384).contains(width), (1...16_384).contains(height) else {
            throw MarbleError(.option, "window size \(width)x\(height) is out of range (1 to 16384 pixels a side)")
        }
        try SDLVideo.acquire()
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        let centred = marble_sdl_windowpos_centered()
        guard let window = SDL_CreateWindow(title, centred, centred, Int32(width), Int32(height), flags) else {
            let message = SDLVideo.lastError
            SDLVideo.release()
            throw MarbleError(.device, "cannot open a window: \(message)")
        }
        let accelerated = SDL_RENDERER_ACCELERATED.rawValue | (vsync ? SDL_RENDERER_PRESENTVSYNC.rawValue : 0)
        guard let renderer = SDL_CreateRenderer(window, -1, accelerated)
                ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
            let message = SDLVideo.lastError
            SDL_DestroyWindow(window)
            SDLVideo.release()
            throw MarbleError(.device, "cannot draw in the window: \(message)")
        }
        var info = SDL_RendererInfo()
        if SDL_GetRendererInfo(renderer, &info) == 0, let name = info.name {
            rendererName = String(cString: name)
            hasVSync = info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue != 0
        } else {
            rendererName = "unknown"
            hasVSync = false
        }
        SDLVideo.surviveLostDisplay(of: window)
        self.window = window
        self.renderer = renderer
        windowedSize = (Int32(width), Int32(height))
        windowID = SDL_GetWindowID(window)
        // Black until the first frame, rather than whatever the server had there.
        _ = SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        _ = SDL_RenderClear(renderer)
        SDL_RenderPresent(renderer)
    }

    deinit { close() }

    /// Whether the window is open (false after ``close()``).
    package var isOpen: Bool { window != nil }

    /// The size of the window's drawing area in pixels (larger than its size in screen coordinates on a
    /// high-density display); (0, 0) once closed.
    package var drawableSize: (width: Int, height: Int) {
        guard let renderer else { return (0, 0) }
        var w: Int32 = 0, h: Int32 = 0
        guard SDL_GetRendererOutputSize(renderer, &w, &h) == 0 else { return (0, 0) }
        return (Int(w), Int(h))
    }

    /// Whether the window covers the screen (``toggleFullscreen()``, or `fullscreen` at init).
    package var isFullscreen: Bool {
        guard let window else { return false }
        return SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN.rawValue != 0
    }

    /// Shows `picture` (premultiplied RGBA8, shown as composited over black): uploads it into the
    /// streaming texture with `SDL_UpdateTexture` straight from its rows (pitch `bytesPerRow`), then draws
    /// it scaled to fit the drawable area with its aspect ratio kept, black around it, and presents
    /// (which waits for the display's refresh when the renderer has vsync). Makes a texture only when the
    /// picture's size changed.
    ///
    /// - Throws: `.device` when the window is closed or SDL fails (a texture larger than the renderer
    ///   allows, a lost display).
    package func present(_ picture: Texture) throws(MarbleError) {
        guard let renderer else { throw MarbleError(.device, "cannot show a frame: the window is closed") }
        try checkDisplay()
        if texture == nil || picture.width != textureWidth || picture.height != textureHeight {
            if let texture { SDL_DestroyTexture(texture) }
            texture = nil
            guard let made = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGBA32.rawValue,
                                               Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                               Int32(picture.width), Int32(picture.height)) else {
                throw MarbleError(.device, "cannot make a \(picture.width)x\(picture.height) window texture: \(SDLVideo.lastError)")
            }
            // Copy the pixels as they are: premultiplied colour over the black the frame is cleared to.
            _ = SDL_SetTextureBlendMode(made, SDL_BLENDMODE_NONE)
            texture = made
            textureWidth = picture.width
            textureHeight = picture.height
        }
        guard SDL_UpdateTexture(texture, nil, picture.pixels, Int32(picture.bytesPerRow)) == 0 else {
            throw MarbleError(.device, "cannot upload a frame to the window: \(SDLVideo.lastError)")
        }
        let area = drawableSize
        let fit = Self.fit(width: picture.width, height: picture.height, into: area)
        var target = SDL_Rect(x: Int32(fit.x), y: Int32(fit.y), w: Int32(fit.width), h: Int32(fit.height))
        _ = SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        guard SDL_RenderClear(renderer) == 0, SDL_RenderCopy(renderer, texture, nil, &target) == 0 else {
            throw MarbleError(.device, "cannot draw a frame in the window: \(SDLVideo.lastError)")
        }
        SDL_RenderPresent(renderer)
        try checkDisplay()
    }

    /// Throws `.device` once the X server's connection broke (see ``SDLVideo/surviveLostDisplay(of:)``).
    private func checkDisplay() throws(MarbleError) {
        if SDLVideo.displayLost { throw MarbleError(.device, "the display's connection was lost (its X server went away)") }
    }

    /// The largest rectangle of `width`:`height` proportions inside `area`, centred (pixels, rounded):
    /// the whole area when the proportions match, `area` itself when the sizes do.
    package static func fit(width: Int, height: Int, into area: (width: Int, height: Int))
        -> (x: Int, y: Int, width: Int, height: Int) {
        guard width > 0, height > 0, area.width > 0, area.height > 0 else { return (0, 0, 0, 0) }
        // Compare width/height with area.width/area.height without rounding: cross-multiplied.
        if width * area.height >= area.width * height {
            let h = max(1, min(area.height, (area.width * height + width / 2) / width))
            return (0, (area.height - h) / 2, area.width, h)
        } else {
            let w = max(1, min(area.width, (area.height * width + height / 2) / height))
            return ((area.width - w) / 2, 0, w, area.height)
        }
    }

    /// The window's events since the last call, in order, without waiting: keys typed in it (printable
    /// characters as text, so the keyboard layout applies; arrows, Esc, Ctrl-C), a new drawable size,
    /// and a request to close (reported once per call). Empty once closed.
    package func pollEvents() -> [WindowEvent] {
        guard window != nil else { return [] }
        var events: [WindowEvent] = []
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            switch event.type {
            case SDL_QUIT.rawValue:
                events.append(.closed)
            case SDL_WINDOWEVENT.rawValue where event.window.windowID == windowID:
                switch UInt32(event.window.event) {
                case SDL_WINDOWEVENT_SIZE_CHANGED.rawValue:
                    let size = drawableSize
                    events.append(.resized(width: size.width, height: size.height))
                case SDL_WINDOWEVENT_CLOSE.rawValue:
                    events.append(.closed)
                default: break
                }
            case SDL_KEYDOWN.rawValue where ours(event.key.windowID):
                if let key = Self.key(event.key.keysym) { events.append(key) }
            case SDL_TEXTINPUT.rawValue where ours(event.text.windowID):
                let text = withUnsafeBytes(of: event.text.text) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                for c in text where !c.isNewline && !(c.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) {
                    events.append(.character(c))
                }
            default: break
            }
        }
        // SDL reports a close twice (the window's close, then "quit" for the last window): once is enough.
        if let first = events.firstIndex(of: .closed) {
            events = events.enumerated().filter { $0.element != .closed || $0.offset == first }.map(\.element)
        }
        return events
    }

    /// Whether a key event is this window's: SDL marks keys typed before it gave any window the
    /// keyboard focus with window 0.
    private func ours(_ id: UInt32) -> Bool { id == windowID || id == 0 }

    /// The non-text keys the player uses (printable keys arrive as text input).
    private static func key(_ keysym: SDL_Keysym) -> WindowEvent? {
        let code = UInt32(bitPattern: keysym.sym)
        switch code {
        case SDLK_LEFT.rawValue: return .left
        case SDLK_RIGHT.rawValue: return .right
        case SDLK_UP.rawValue: return .up
        case SDLK_DOWN.rawValue: return .down
        case SDLK_ESCAPE.rawValue: return .escape
        case SDLK_c.rawValue where UInt32(keysym.mod) & KMOD_CTRL.rawValue != 0: return .interrupt
        default: return nil
        }
    }

    /// Switches between a window and fullscreen at the desktop's resolution
    /// (`SDL_WINDOW_FULLSCREEN_DESKTOP`: no mode change). The new size arrives as a `.resized` event.
    ///
    /// - Throws: `.device` when SDL refuses.
    package func toggleFullscreen() throws(MarbleError) {
        try setFullscreen(!isFullscreen)
    }

    /// Turns fullscreen on or off (see ``toggleFullscreen()``). Leaving it restores the size the window
    /// had before: SDL 2.26 on an X server without a window manager shrinks the X window back but keeps
    /// reporting the screen's size (and so would draw for the wrong size) until the size is set again.
    package func setFullscreen(_ on: Bool) throws(MarbleError) {
        guard let window else { throw MarbleError(.device, "cannot change fullscreen: the window is closed") }
        let was = isFullscreen
        guard on != was else { return }
        if on {
            var w: Int32 = 0, h: Int32 = 0
            SDL_GetWindowSize(window, &w, &h)
            if w > 0 && h > 0 { windowedSize = (w, h) }
        }
        guard SDL_SetWindowFullscreen(window, on ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0) == 0 else {
            throw MarbleError(.device, "cannot \(on ? "enter" : "leave") fullscreen: \(SDLVideo.lastError)")
        }
        if !on { SDL_SetWindowSize(window, windowedSize.width, windowedSize.height) }
    }

    /// Closes the window and frees its renderer and texture. Calling it again does nothing. After the
    /// display's connection broke, SDL is not called again (its renderer may talk to the dead server
    /// in ways Xlib's dead-display checks do not cover): the window is only forgotten, and the video
    /// subsystem stays initialised for the rest of the process.
    package func close() {
        guard let window else { return }
        if SDLVideo.displayLost {
            (texture, renderer, self.window) = (nil, nil, nil)
            return
        }
        if let texture { SDL_DestroyTexture(texture) }
        if let renderer { SDL_DestroyRenderer(renderer) }
        SDL_DestroyWindow(window)
        texture = nil
        renderer = nil
        self.window = nil
        SDLVideo.release()
    }
}
