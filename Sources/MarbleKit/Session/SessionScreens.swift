import MarbleCore
import MarblePipeline

/// The screens of a running session, opened as its ``SessionPlan`` says: the terminal (screen and
/// cell grid), the window, and the size the picture follows. Shared by `play` and `live`, so both
/// open, size and restore their screens the same way.
final class SessionScreens {
    let plan: SessionPlan
    let screen: TerminalScreen?
    let grid: TerminalGrid?
    let window: WindowSink?
    /// What the renderer asks each frame for the picture's size (nil: fixed).
    let sizing: (@Sendable () -> (width: Int, height: Int))?

    /// Opens the terminal and the window the plan asks for; `onKey` gets the window's keys (the
    /// terminal's come through ``input(signals:onKey:onStop:)``), `onClose` its close button.
    /// - Throws: `.device` without a terminal or a display.
    init(plan: SessionPlan, onKey: @escaping @Sendable (Key) -> Void, onClose: @escaping @Sendable () -> Void) throws(MarbleError) {
        self.plan = plan
        screen = plan.terminal ? try TerminalScreen() : nil
        let grid = screen.map { TerminalGrid(screen: $0) }
        self.grid = grid
        if let w = plan.window {
            window = try WindowSink(title: w.title, size: (w.width, w.height), fullscreen: w.fullscreen,
                                    onKey: onKey, onClose: onClose)
        } else {
            window = nil
        }
        switch plan.sizing {
        case .window: sizing = window?.sizing
        case .terminal:
            if let grid { sizing = { grid.pixels } } else { sizing = nil }
        case .fixed: sizing = nil
        }
    }

    /// The picture's size to start with: what it follows now, else the plan's.
    var size: (width: Int, height: Int) { sizing?() ?? (plan.width, plan.height) }

    /// The renderer of `starting` at `size` (the screens' now), then following what the plan's sizing
    /// follows.
    func renderer(_ starting: StartingScene, size: (width: Int, height: Int), fps: Rational,
                  threads: Int) throws(MarbleError) -> FrameRenderer {
        try FrameRenderer(scene: starting.scene, width: size.width, height: size.height, fps: fps, threads: threads,
                          choose: starting.choose, chosen: starting.chosen, sizing: sizing)
    }

    /// The terminal's sink, drawing the picture and the status line `status` makes, or nil without a terminal.
    func terminalSink(status: @escaping () -> [UInt8]) -> TerminalSink? {
        guard let screen, let grid else { return nil }
        return TerminalSink(screen: screen, grid: grid, status: status)
    }

    /// The terminal's key reader (and the signals' watcher), not started yet.
    func input(signals: TerminalSignals, onKey: @escaping @Sendable (Key) -> Void,
               onStop: @escaping @Sendable () -> Void) -> TerminalInput {
        TerminalInput(screen: screen, grid: grid, signals: signals, onKey: onKey, onStop: onStop)
    }

    /// The screens' sinks: the terminal's (if any, given), then the window.
    func sinks(terminal: TerminalSink?) -> [any FrameSink] {
        var sinks: [any FrameSink] = []
        if let terminal { sinks.append(terminal) }
        if let window { sinks.append(window) }
        return sinks
    }

    /// The window's warnings and the renderer SDL chose, for the summary.
    var windowRenderer: String? { window?.rendererName }
    var windowWarnings: [String] { window?.warnings ?? [] }
}
