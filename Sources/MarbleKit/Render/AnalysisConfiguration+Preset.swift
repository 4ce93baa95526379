import MarbleAnalysis
import MarbleRender

extension AnalysisConfiguration {
    /// This configuration with a preset's `analysis:` section applied over it (fields the preset
    /// leaves out keep their value). The preset has been validated, so every value is in range.
    package func applying(_ preset: PresetAnalysis) -> AnalysisConfiguration {
        var c = self
        if let layout = preset.layout { c.layout = layout == "semitone" ? .semitone : .logarithmic }
        if let bands = preset.bands { c.bandCount = bands }
        if let low = preset.minFrequency { c.minFrequency = low }
        if let high = preset.maxFrequency { c.maxFrequency = high }
        if let floor = preset.noiseFloor { c.noiseFloor = floor }
        if let sensitivity = preset.sensitivity { c.sensitivity = sensitivity }
        if let auto = preset.autoSensitivity { c.autoSensitivity = auto }
        if let dynamics = preset.dynamics { c.dynamics = dynamics }
        if let tilt = preset.tilt { c.tilt = tilt }
        if let gravity = preset.gravity { c.gravity = gravity }
        if let attack = preset.attack { c.attack = attack }
        if let release = preset.release { c.release = release }
        return c
    }
}
