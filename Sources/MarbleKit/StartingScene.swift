import MarbleRender

/// The scene a real-time session (`play`, `live`) starts with: the caller's own (`--milkdrop`), which
/// stays, or the chosen bundled preset, which the preset keys then switch.
struct StartingScene {
    let scene: Preset
    /// What the renderer reads each frame to follow the preset keys; nil for a scene of the caller's own.
    let selection: (@Sendable () -> String?)?
    /// What the status line shows instead of the chosen preset's name, for a scene of the caller's own.
    let fixedName: String?

    /// Loads and validates the scene: `fixed` when given, else the preset `chosen`, followed through `current`.
    init(fixed: Preset?, chosen: String, current: @escaping @Sendable () -> String?) throws(MarbleError) {
        if let fixed {
            scene = fixed; selection = nil; fixedName = fixed.name
        } else {
            scene = try PresetLibrary.load(chosen); selection = current; fixedName = nil
        }
        try scene.validate()
    }
}
