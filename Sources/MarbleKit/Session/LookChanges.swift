import MarblePipeline
import MarbleRender

/// What changed in a session's look while it played, besides the preset's name: parameters set over
/// the preset's (OSC), the preset's file saved (or reloaded on SIGUSR1) and whether it loaded, and the
/// performer's cues. Part of the session's state; the renderer follows it through `SceneChoice`.
public struct LookChanges: Equatable, Sendable, Codable {
    /// The most changes kept: a new parameter past it is refused (an existing one can still change).
    public static let maxParameters = 256

    /// Parameters set over the preset's own, one entry per layer and name, in the order first set.
    public private(set) var parameters: [ParameterChange] = []
    /// Increases with every change of ``parameters``.
    public private(set) var parameterRevision = 0
    /// Increases each time the current preset's file was saved and loads.
    public private(set) var fileRevision = 0
    /// Why the current preset's file did not load when it was last saved (the last good look stays),
    /// or nil. Shown in the status line.
    public private(set) var fileError: String?
    /// Flashes asked for.
    public private(set) var flashes = 0
    /// Times the MilkDrop playlist was asked to move on.
    public private(set) var skips = 0

    /// Nothing changed yet.
    public init() {}

    /// Sets `change` over the preset (replacing an earlier value of the same parameter). Returns false,
    /// changing nothing, when ``maxParameters`` different ones are set already.
    @discardableResult
    mutating func set(_ change: ParameterChange) -> Bool {
        if let i = parameters.firstIndex(where: { $0.layer == change.layer && $0.name == change.name }) {
            guard parameters[i] != change else { return true }
            parameters[i] = change
        } else {
            guard parameters.count < Self.maxParameters else { return false }
            parameters.append(change)
        }
        parameterRevision += 1
        return true
    }

    /// Another preset is drawn: its own values, no error.
    mutating func presetChanged() {
        if !parameters.isEmpty { parameters = []; parameterRevision += 1 }
        fileError = nil
    }

    /// The current preset's file was saved: it loads again (`error` nil) and its values replace the
    /// parameters set while playing (the file is the look now), or it keeps the last good look and
    /// shows why.
    mutating func fileSaved(error: String?) {
        if let error {
            fileError = error
        } else {
            presetChanged()
            fileRevision += 1
        }
    }

    mutating func flash() { flashes += 1 }
    mutating func skip() { skips += 1 }

    /// What the renderer draws for `preset` with these changes.
    package func choice(preset: String?) -> SceneChoice {
        SceneChoice(preset: preset, fileRevision: fileRevision, parameters: parameters,
                    parameterRevision: parameterRevision, flashes: flashes, skips: skips)
    }
}
