import MarblePipeline
import MarbleRender

/// The scene a real-time session (`play`, `live`) starts with: the caller's own (`--milkdrop`), which
/// stays, or the chosen bundled preset, which the preset keys then switch.
struct StartingScene {
    let scene: Preset
    /// What the renderer reads each frame to follow the session's choice (the preset keys, a saved
    /// preset file, OSC); for a scene of the caller's own, only its parameter changes and cues.
    let choose: @Sendable () -> SceneChoice
    /// The choice the scene was loaded for.
    let chosen: SceneChoice
    /// What the status line shows instead of the chosen preset's name, for a scene of the caller's own.
    let fixedName: String?

    /// Loads and validates the scene: `fixed` when given, else the preset `current` chooses now, then
    /// followed through `current`.
    init(fixed: Preset?, current: @escaping @Sendable () -> SceneChoice) throws(MarbleError) {
        var now = current()
        if let fixed {
            scene = fixed; fixedName = fixed.name
            now.preset = nil
            choose = { var choice = current(); choice.preset = nil; return choice }
        } else {
            let preset = now.preset ?? PresetLibrary.defaultName
            now.preset = preset
            scene = try PresetLibrary.load(preset); fixedName = nil
            choose = current
        }
        chosen = now
        try scene.validate()
    }
}
