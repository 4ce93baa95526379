import MarbleRender

/// What a live session's renderer draws now, read once per frame from the session's state: the
/// preset, the changes made to it while playing, and the performer's cues. Each part carries a
/// counter, so the renderer acts only when one moves (the frame path never compares arrays).
package struct SceneChoice: Sendable {
    /// The preset (a bundled name or a file's path); nil for a scene of the caller's own, which stays
    /// (`--milkdrop`): only the parameter changes and the cues apply to it.
    package var preset: String?
    /// Increases each time the preset's file was saved (or reloaded on a signal): read it again.
    package var fileRevision: Int
    /// Parameters set over the preset's own, in order; cleared when the preset changes.
    package var parameters: [ParameterChange]
    /// Increases with every change of ``parameters``.
    package var parameterRevision: Int
    /// Increases with every flash asked for.
    package var flashes: Int
    /// Increases each time the MilkDrop playlist is asked to move on.
    package var skips: Int

    /// A choice of `preset` with nothing changed yet.
    package init(preset: String?, fileRevision: Int = 0, parameters: [ParameterChange] = [], parameterRevision: Int = 0,
                 flashes: Int = 0, skips: Int = 0) {
        self.preset = preset
        self.fileRevision = fileRevision
        self.parameters = parameters
        self.parameterRevision = parameterRevision
        self.flashes = flashes
        self.skips = skips
    }
}
