import MarbleCore

/// Whether a preset file works here: it parses, its equations compile, and it draws frames that
/// are not blank; for a MilkDrop 2 preset, whether its HLSL shaders compile and change the picture.
/// What `marble effects --milkdrop DIR` runs over every file of a folder.
package enum MilkPresetCheck {
    /// What happened to one file's picture (with its shaders, when they compiled).
    package enum Outcome: Sendable {
        /// It drew a picture. `hasShaders`: the file has HLSL shaders; `nonFiniteFrames`: frames
        /// whose equations produced NaN or infinity (contained: those values fell back to defaults).
        case rendered(hasShaders: Bool, nonFiniteFrames: Int)
        /// Every frame came out one flat colour (often black: a preset that draws only in reaction to
        /// sounds the check does not make).
        case blank(hasShaders: Bool)
        /// It could not be read, parsed or compiled, or its code ran out of its work budget
        /// (``MilkPresetError/Reason/overBudget``: the check stopped on that frame).
        case failed(MilkPresetError)
    }

    /// What happened to one file's HLSL shaders.
    package enum ShaderOutcome: Sendable, Equatable {
        /// The file has none (MilkDrop 1.x), or they were switched off.
        case none, off
        /// One did not compile: the preset is drawn MilkDrop 1.x style (`reason` groups the report).
        case failed(reason: String, message: String)
        /// They compiled and ran. `differs`: the picture is not the one the same preset draws without
        /// them; `standIns`: disk textures that were missing and replaced by the stand-in.
        case compiled(differs: Bool, standIns: Int)
    }

    /// One file's outcome.
    package struct Result: Sendable {
        package var outcome: Outcome
        package var shaders: ShaderOutcome
        /// The most each kind of code spent in one frame (zero for a file that did not load).
        package var peakWork = MilkWorkAmounts()
        /// Core nanoseconds a pixel of its compiled shaders costs (``MilkPreset/shaderCostPerPixel``).
        package var shaderCost: Float = 0
    }

    /// Renders `frames` frames of the preset at `path` at `width × height` with ``SurveySignal``'s
    /// sound and judges the pictures of the second half; a preset whose shaders compiled is drawn a
    /// second time without them, to see whether they change the picture. `textures` finds disk
    /// textures (nil: stand-ins). A preset whose code runs out of its work budget is stopped on that
    /// frame and fails as ``MilkPresetError/Reason/overBudget``.
    package static func check(path: String, width: Int = 128, height: Int = 72, frames: Int = 60,
                              shaders: Bool = true, textures: DiskTextures? = nil) -> Result {
        let file: MilkPresetFile, preset: MilkPreset
        do {
            file = try MilkPresetParser.parse(contentsOf: path)
            preset = try MilkPreset(file: file, shaders: shaders)
        } catch {
            return Result(outcome: .failed(error), shaders: .none)
        }
        let renderer = MilkRenderer(preset: preset, seed: 0, textures: textures)
        let run = render(renderer, width: width, height: height, frames: frames)
        if let overrun = preset.overrunError {
            return Result(outcome: .failed(overrun), shaders: .none, peakWork: preset.peakWork, shaderCost: preset.shaderCostPerPixel)
        }
        let outcome: Outcome = run.flat ? .blank(hasShaders: preset.hasShaders)
            : .rendered(hasShaders: preset.hasShaders, nonFiniteFrames: preset.nonFiniteFrames)
        switch preset.shaderStatus {
        case .none: return Result(outcome: outcome, shaders: .none, peakWork: preset.peakWork, shaderCost: preset.shaderCostPerPixel)
        case .off: return Result(outcome: outcome, shaders: .off, peakWork: preset.peakWork, shaderCost: preset.shaderCostPerPixel)
        case .failed(let reason, let message):
            return Result(outcome: outcome, shaders: .failed(reason: reason, message: message), peakWork: preset.peakWork, shaderCost: preset.shaderCostPerPixel)
        case .running:
            guard let plain = try? MilkPreset(file: file, shaders: false) else {
                return Result(outcome: outcome, shaders: .compiled(differs: true, standIns: renderer.shaderStandIns.count),
                              peakWork: preset.peakWork, shaderCost: preset.shaderCostPerPixel)
            }
            let without = render(MilkRenderer(preset: plain, seed: 0), width: width, height: height, frames: frames)
            return Result(outcome: outcome, shaders: .compiled(differs: differ(run.last, without.last),
                                                                standIns: renderer.shaderStandIns.count),
                          peakWork: preset.peakWork, shaderCost: preset.shaderCostPerPixel)
        }
    }

    /// Draws the frames (up to the first that runs out of its work budget); whether every picture of
    /// the second half was flat, and the last one.
    private static func render(_ renderer: MilkRenderer, width: Int, height: Int, frames: Int) -> (flat: Bool, last: Texture) {
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
            if renderer.preset.workOverrun != nil { break }
            if n >= frames / 2 {   // the second half: after the first frames' build-up
                renderer.composite(into: picture.view, rows: 0..<height)
                if flat { flat = isFlat(picture) }
            }
        }
        return (flat, picture)
    }

    /// True when two pictures differ visibly: the mean absolute difference of their channels is above
    /// 2 levels (of 255).
    static func differ(_ a: Texture, _ b: Texture) -> Bool {
        var total = 0
        for y in 0..<a.height {
            let p = a.view.row32(y), q = b.view.row32(y)
            for x in 0..<a.width {
                for shift: UInt32 in [0, 8, 16] {
                    total += Int(absDiff((p[x] >> shift) & 0xFF, (q[x] >> shift) & 0xFF))
                }
            }
        }
        return total > 2 * 3 * a.width * a.height
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
