import MarbleCore

/// Whether a preset file works here: it parses, its equations compile, and it draws frames that
/// are not blank. What `marble effects --milkdrop DIR` runs over every file of a folder.
public enum MilkPresetCheck {
    /// What happened to one file.
    public enum Outcome: Sendable {
        /// It drew a picture. `hasShaders`: drawn without its HLSL shaders; `nonFiniteFrames`: frames
        /// whose equations produced NaN or infinity (contained: those values fell back to defaults).
        case rendered(hasShaders: Bool, nonFiniteFrames: Int)
        /// Every frame came out one flat colour (often black: a preset that needs its pixel shader,
        /// or one that draws only in reaction to sounds the check does not make).
        case blank(hasShaders: Bool)
        /// It could not be read, parsed or compiled.
        case failed(MilkPresetError)
    }

    /// Renders `frames` frames of the preset at `path` at `width × height` with ``SurveySignal``'s
    /// sound and judges the last picture.
    public static func check(path: String, width: Int = 128, height: Int = 72, frames: Int = 60) -> Outcome {
        let preset: MilkPreset
        do {
            preset = try MilkPreset(file: try MilkPresetParser.parse(contentsOf: path))
        } catch {
            return .failed(error)
        }
        let renderer = MilkRenderer(preset: preset)
        renderer.configure(width: width, height: height, scale: 1)
        let audio = MilkAudio(), signal = SurveySignal()
        let picture = Texture(width: width, height: height)
        var flat = true
        for n in 0..<max(1, frames) {
            audio.update(from: signal.features(frame: n))
            var inputs = MilkPreset.Inputs()
            inputs.time = Double(n) / 60; inputs.frame = Double(n); inputs.fps = 60
            inputs.bass = Double(audio.bass); inputs.mid = Double(audio.mid); inputs.treb = Double(audio.treble)
            inputs.bassAtt = Double(audio.bassAttenuated); inputs.midAtt = Double(audio.midAttenuated)
            inputs.trebAtt = Double(audio.trebleAttenuated)
            renderer.prepare(inputs, audio: audio, strips: nil)
            if n >= frames / 2 {   // the second half: after the first frames' build-up
                renderer.composite(into: picture.view, rows: 0..<height)
                if flat { flat = isFlat(picture) }
            }
        }
        return flat ? .blank(hasShaders: preset.hasShaders)
                    : .rendered(hasShaders: preset.hasShaders, nonFiniteFrames: preset.nonFiniteFrames)
    }

    /// True when every pixel has (nearly) the same colour.
    static func isFlat(_ t: Texture) -> Bool {
        let first = t.view.row32(0)[0]
        for y in 0..<t.height {
            let row = t.view.row32(y)
            for x in 0..<t.width where row[x] != first {
                let a = row[x], b = first
                let d = max(absDiff(a & 0xFF, b & 0xFF), absDiff((a >> 8) & 0xFF, (b >> 8) & 0xFF), absDiff((a >> 16) & 0xFF, (b >> 16) & 0xFF))
                if d > 2 { return false }
            }
        }
        return true
    }

    private static func absDiff(_ a: UInt32, _ b: UInt32) -> UInt32 { a > b ? a - b : b - a }
}
