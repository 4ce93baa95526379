import MarbleCore
import MarblePipeline

/// What a real-time session (`marble play`, `marble live`) will open and how it will draw, decided
/// from its options before anything is opened: a plain value, tested on its own. The run step opens
/// what it says and runs the frame path.
public struct SessionPlan: Equatable, Sendable {
    /// What the picture's size follows while the session runs.
    public enum Sizing: Equatable, Sendable {
        /// The size stays as planned (an encoding, or `--size`).
        case fixed
        /// The window's size (resizing it resizes the picture).
        case window
        /// The terminal's cells (two pixels a cell vertically).
        case terminal
    }

    /// The window to open, if any.
    public struct Window: Equatable, Sendable {
        public var title = "marble"
        public var width: Int
        public var height: Int
        public var fullscreen: Bool
    }

    /// What the session plays or captures.
    public var input: SessionInput
    /// Whether the songs have a transport (space pauses, ←/→ seek): heard through the speakers with the
    /// sound card as the clock. Not with a capture, nor with outputs (one continuous timeline).
    public var transport: Bool
    /// Whether the picture is drawn in the terminal (which then also takes the keys).
    public var terminal: Bool
    /// The window, or nil.
    public var window: Window?
    /// The picture's size when it does not follow a screen (and the size to start from otherwise).
    public var width: Int
    public var height: Int
    /// What the size follows.
    public var sizing: Sizing
    /// How a frame that cannot be drawn in time is treated.
    public var policy: FramePolicy
    /// Frames a real-time source may fall behind its clock before it drops (see `CaptureFrameSource`).
    public var lagAllowance: Int
    /// The outputs (files, streams) the picture is encoded to.
    public var outputs: [String]

    /// Whether someone watches the picture (terminal or window).
    public var watched: Bool { terminal || window != nil }

    /// The plan of `marble live` (and `play` through outputs). Shown only (no encoding, no `--size`),
    /// the picture follows the window, else the terminal. How far the source may fall behind before it
    /// drops frames: nobody watching (outputs alone) half a second; watched alone not at all (a frame
    /// shown late is worse than one skipped); watched and recorded or streamed a tenth of a second, so a
    /// moment's contention costs the recording no frame.
    public static func live(_ options: LiveOptions) -> SessionPlan {
        let size = options.size ?? (1280, 720)
        let follows = options.size == nil && options.outputs.isEmpty
        let sizing: Sizing = !follows ? .fixed : options.window ? .window : options.terminal ? .terminal : .fixed
        let watched = options.terminal || options.window
        let fps = options.fps.doubleValue
        let lag = !watched ? Int(fps / 2) : options.outputs.isEmpty ? 0 : max(1, Int(fps / 10))
        return SessionPlan(
            input: options.sessionInput, transport: false, terminal: options.terminal,
            window: options.window ? Window(width: size.width, height: size.height, fullscreen: options.fullscreen) : nil,
            width: size.width, height: size.height, sizing: sizing,
            policy: watched ? .realtime : .realtimeBuffered, lagAllowance: lag, outputs: options.outputs)
    }

    /// The plan of `marble play` without outputs (a file or a playlist, with a transport): the terminal
    /// unless only a window was asked for (with neither, opening the terminal reports that there is
    /// none); the picture follows the window, else the terminal.
    public static func play(_ options: PlayOptions) -> SessionPlan {
        let terminal = options.terminal || !options.window
        return SessionPlan(
            input: options.sessionInput, transport: true, terminal: terminal,
            window: options.window ? Window(width: 1280, height: 720, fullscreen: options.fullscreen) : nil,
            width: 1280, height: 720, sizing: options.window ? .window : .terminal,
            policy: .realtime, lagAllowance: 0, outputs: [])
    }
}
