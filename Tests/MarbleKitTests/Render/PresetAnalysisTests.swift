import Foundation
import MarbleAnalysis
import MarbleCore
@testable import MarbleKit
@testable import MarbleRender
import TestSupport
import Testing

/// A preset's `analysis:` section reaches the analysis of a render (issue 12, defect 6: let a preset set
/// the frequency layout, noise floor and sensitivity).
@Suite("Preset analysis section", .serialized)
struct PresetAnalysisTests {
    @Test func theSectionParsesAndApplies() throws {
        let preset = try Preset.parse("""
            layers: [ { shader: bars } ]
            analysis: { layout: semitone, min_frequency: 55, max_frequency: 1760, noise_floor: -50,
                        sensitivity: 2, auto_sensitivity: false, dynamics: 1, tilt: 0, gravity: 5, attack: 0, release: 0.3 }
            """, source: "p.yaml")
        let c = AnalysisConfiguration().applying(preset.analysis)
        #expect(c.layout == .semitone && c.minFrequency == 55 && c.maxFrequency == 1760)
        #expect(c.noiseFloor == -50 && c.sensitivity == 2 && !c.autoSensitivity && c.dynamics == 1)
        #expect(c.tilt == 0 && c.gravity == 5 && c.attack == 0 && c.release == 0.3)
        #expect(throws: Never.self) { try c.validate() }
        // Nothing given: the defaults, untouched.
        #expect(AnalysisConfiguration().applying(PresetAnalysis()) == AnalysisConfiguration())
    }

    @Test("bad values are named in the error", arguments: [
        ("analysis: { noise_floor: 3 }", "analysis.noise_floor: 3.0 is out of range"),
        ("analysis: { dynamics: .nan }", "analysis.dynamics: nan is out of range"),
        ("analysis: { bands: 100000 }", "analysis.bands: 100000 is out of range 8…512"),
        ("analysis: { layout: octave }", "analysis.layout: unknown layout \"octave\""),
        ("analysis: { min_frequency: 500, max_frequency: 400 }", "analysis.max_frequency: 400.0 Hz must be above"),
        ("analysis: { noisefloor: -40 }", "analysis.noisefloor: unknown field"),
        ("analysis: { tilt: loud }", "analysis.tilt: expected a number"),
    ])
    func badValues(text: String, expected: String) {
        do {
            _ = try Preset.parse("layers: [ { shader: bars } ]\n" + text, source: "bad.yaml")
            Issue.record("\(text) should not parse")
        } catch {
            #expect(error.kind == .preset)
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    /// Lit pixels of a one-frame render of a quiet tone (−30 dBFS) with bars and `analysis`.
    func litPixels(_ analysis: PresetAnalysis, name: String) throws -> Int {
        let tone = try TestMedia.make("quiet-tone.wav", ["-f", "lavfi", "-i", "sine=f=300:r=44100:d=2,volume=-12dB"])
        var o = RenderOptions(input: tone, output: TestMedia.output("analysis-\(name).png"))
        o.width = 64
        o.height = 36
        o.at = 1.5
        o.scene = Preset(name: "quiet", layers: [LayerSpec(shader: "bars")], analysis: analysis)
        _ = try RenderJob(options: o).run()
        let raw = [UInt8](try TestMedia.run("ffmpeg", ["-v", "error", "-i", o.output, "-f", "rawvideo", "-pix_fmt", "gray", "-"]))
        return raw.filter { $0 > 40 }.count
    }

    @Test("a render follows the preset's noise floor")
    func renderUsesTheSection() throws {
        let shown = try litPixels(PresetAnalysis(), name: "default")
        var gated = PresetAnalysis()
        gated.noiseFloor = -16   // the tone (−30 dBFS) is under it: no bars
        let hidden = try litPixels(gated, name: "gated")
        #expect(shown > 20, "\(shown)")   // the tone's bar, most of the height
        #expect(hidden == 0, "\(hidden)")
    }
}
