import Granite
import MarblePipeline
import MarbleRender

/// What the user changes in any real-time session (`marble play`, `marble live`), whatever it plays:
/// the look and the way out. One event type, one key map and one reducer (``SessionControlsReducer``),
/// which the player's and the live session's stores compose with the reducer of their own input (the
/// transport of a file, the connection of a capture).
public enum ControlEvent: Equatable, Sendable {
    /// Next preset in the available list (wraps around).
    case nextPresetRequested
    /// Previous preset in the available list (wraps around).
    case previousPresetRequested
    /// The user picked a preset by name; ignored when the name is not available.
    case presetSelected(name: String)
    /// Sensitivity × ``Sensitivity/step``, clamped to ``Sensitivity/range``.
    case sensitivityRaised
    /// Sensitivity ÷ ``Sensitivity/step``, clamped to ``Sensitivity/range``.
    case sensitivityLowered
    /// The sensitivity set to a value (OSC `/marble/sensitivity`), clamped to ``Sensitivity/range``.
    case sensitivitySet(Float)
    /// A parameter of a layer of the current preset set while playing (OSC `/marble/param`), checked
    /// against the preset before it is sent.
    case parameterSet(ParameterChange)
    /// A flash over the picture (OSC `/marble/flash`).
    case flashRequested
    /// The MilkDrop playlist moves to its next preset (OSC `/marble/milkdrop/next`).
    case milkdropNextRequested
    /// The file of preset `name` was saved (or SIGUSR1 asked for a reload): it loads (`error` nil) and
    /// is drawn again if it is the current preset, or it does not and the last good look stays.
    case presetFileSaved(name: String, error: String?)
    /// The user pressed q.
    case quitRequested
    /// Ctrl-C or a termination signal.
    case interrupted

    /// The keys every session shares: n/p preset, +/- sensitivity, q quit, Ctrl-C.
    package init?(key: Key) {
        switch key {
        case .character("n"), .character("N"): self = .nextPresetRequested
        case .character("p"), .character("P"): self = .previousPresetRequested
        case .character("+"), .character("="): self = .sensitivityRaised
        case .character("-"), .character("_"): self = .sensitivityLowered
        case .character("q"), .character("Q"): self = .quitRequested
        case .interrupt: self = .interrupted
        default: return nil
        }
    }
}

/// How a user (or a signal) ended a session.
public enum SessionEnd: Sendable, Equatable {
    /// q, or the window closed.
    case quit
    /// Ctrl-C or a termination signal.
    case interrupted
}

/// The part of a session's state that ``ControlEvent``s change.
public protocol SessionControlState: GraniteState {
    /// One of the available preset names, or nil when none are available.
    var preset: String? { get set }
    /// Within ``Sensitivity/range``.
    var sensitivity: Float { get set }
    /// What changed in the look while playing (parameters, the preset's file, cues).
    var look: LookChanges { get set }
    /// Records that the user ended the session; a session that already ended keeps its first outcome.
    mutating func end(by reason: SessionEnd)
}

/// The reducer every session shares, for ``ControlEvent``s: steps and picks presets, raises and
/// lowers the sensitivity, ends the session. No effects: what ending means for an input (a capture
/// to disconnect) is up to the center that composes it.
public struct SessionControlsReducer<Center: GraniteCenter>: GranitePayloadReducer
where Center.State: SessionControlState {
    /// The preset names the keys cycle through, in order.
    public let presets: [String]

    /// The reducer over `presets` (in cycling order).
    public init(presets: [String]) { self.presets = presets }

    /// Applies one control event.
    public func reduce(state: inout Center.State, payload event: ControlEvent) -> GraniteEffect<Center.Event> {
        let preset = state.preset
        switch event {
        case .nextPresetRequested: state.preset = PresetCycle.step(from: state.preset, by: 1, in: presets)
        case .previousPresetRequested: state.preset = PresetCycle.step(from: state.preset, by: -1, in: presets)
        case .presetSelected(let name): if presets.contains(name) { state.preset = name }
        case .sensitivityRaised: state.sensitivity = Sensitivity.raised(state.sensitivity)
        case .sensitivityLowered: state.sensitivity = Sensitivity.lowered(state.sensitivity)
        case .sensitivitySet(let value): state.sensitivity = Sensitivity.clamped(value)
        case .parameterSet(let change): state.look.set(change)
        case .flashRequested: state.look.flash()
        case .milkdropNextRequested: state.look.skip()
        case .presetFileSaved(let name, let error): if name == state.preset { state.look.fileSaved(error: error) }
        case .quitRequested: state.end(by: .quit)
        case .interrupted: state.end(by: .interrupted)
        }
        if state.preset != preset { state.look.presetChanged() }
        return .none
    }
}
