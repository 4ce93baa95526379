import Foundation
import MarbleCore
@testable import MarbleKit
import MarbleRender
import Shaders
import TestSupport
import Testing

/// Issue 25: every shader and bundled preset visibly follows music, measured through the path users
/// run (`RenderJob`: the whole-song analysis and its beat grid, bindings, the compositor, a lossless
/// encoder) on generated music, a click track at 120 BPM: a kick and a click every half second over a
/// quiet pad. The same render on silence is the reference. Generators and backgrounds are drawn
/// alone, filters over Samples/Pictures/magma.jpg, presets as they are; 80x44, 24 fps. The music is
/// 3 s long, so that the analysis finds its tempo and beat grid (2 s is too short for it: no beat at
/// all), and the last 2 s are drawn (a `--frames` piece: the first second is stepped, not drawn).
///
/// Two measures, on luminance (0–255):
/// - **music vs silence**: the mean share of the drawn pixels (8 levels or more in either render) that
///   differ by 12 levels or more between the render of the music and the render of silence at the
///   same frame: a scope or a meter panel is measured over what it draws. At least 5 %.
/// - **beat pulse**: the mean change from one frame to the next in the 2 frames from each click (83 ms),
///   over the mean change elsewhere, in the pixels (motion) or in the frame's mean brightness (a flash,
///   or a burst of sparks; the elsewhere figure at least half a level), whichever is larger. At least
///   1.2: the clicks show as a pulse, not as a steady drift.
///   A spectrogram scrolls every frame by design: its beats are the stripes of its last frame's newest
///   1.5 s, the brightest column over their mean, at least 1.2 too. The piano preset is exempt (see
///   ``pulseExempt``).
///
/// Layers that do not follow sound by design are left out: plain colours, the picture, text, lyrics,
/// the cover, the whole song's overview.
@Suite("Every effect reacts to generated music")
struct EveryEffectReactsTests {
    static let staticByDesign: Set<String> = ["solid", "gradient", "media", "text", "lyrics", "cover", "overview"]
    static let (width, height, fps, seconds) = (80, 44, 24, 3.0)
    /// The frames drawn: 1 s to 3 s (a beat every 12 frames, on multiples of 12).
    static let drawn = 24...71
    /// Exempt from the beat pulse: `milkdrop`, which draws a MilkDrop preset whose own equations decide
    /// how it moves (its bass, mid and treble; the MilkDrop suites test them), and the piano preset. Its bars do pulse with the clicks, but 3–4 frames
    /// (125–170 ms) after them, the delay of its constant-Q kernels (long at low notes), so the pulse
    /// falls outside the 2 frames measured; its history below them scrolls every frame. The music vs
    /// silence measure holds for it like for the rest.
    static let pulseExempt: Set<String> = ["milkdrop", "preset:piano"]

    /// Every shader (with its kind) and bundled preset, but the static ones.
    static let effects: [String] = ShaderLibrary.builtIn.map { $0.descriptor.name }.filter { !staticByDesign.contains($0) }
        + PresetLibrary.names().map { "preset:" + $0 }

    static let picture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples/Pictures/magma.jpg").path

    /// The click track, in stereo: a 55 Hz kick (decaying in ~25 ms) and a 3 kHz click (~5 ms) on every
    /// beat from 0 s, in both channels; a pad at a tenth of full scale, 220 Hz on the left and 330 Hz on
    /// the right (so a vectorscope draws a figure, not the line of a mono signal).
    static func music() throws -> String {
        let beat = "0.8*exp(-40*mod(t\\,0.5))*sin(2*PI*55*t)+0.3*exp(-200*mod(t\\,0.5))*sin(2*PI*3000*t)"
        return try TestMedia.make("reactivity-clicks.wav", [
            "-f", "lavfi", "-i", "aevalsrc=\(beat)+0.1*sin(2*PI*220*t)|\(beat)+0.1*sin(2*PI*330*t):s=44100:d=\(seconds)",
        ])
    }

    static func silence() throws -> String {
        try TestMedia.make("reactivity-silence.wav", ["-f", "lavfi", "-i", "anullsrc=r=44100:cl=stereo", "-t", "\(seconds)"])
    }

    /// The frames (luminance, `width × height` bytes each) of `effect` drawn over `input`.
    static func frames(_ effect: String, _ input: String) throws -> [[UInt8]] {
        let output = TestMedia.output("reacts-\(effect.replacingOccurrences(of: ":", with: "-"))-\(URL(fileURLWithPath: input).lastPathComponent).mov")
        defer { try? FileManager.default.removeItem(atPath: output) }
        var o = RenderOptions(input: input, output: output)
        (o.width, o.height, o.fps, o.codec) = (width, height, Rational(fps), .qtrle)
        o.segment = .frames(first: drawn.lowerBound, last: drawn.upperBound)
        if effect.hasPrefix("preset:") {
            o.preset = String(effect.dropFirst("preset:".count))
        } else if ShaderLibrary.shader(named: effect)?.descriptor.kind == .filter {
            o.background = picture
            o.effects = [effect]
        } else {
            o.scene = Preset(name: effect, layers: [LayerSpec(shader: effect)])
        }
        _ = try RenderJob(options: o).run()
        let gray = try TestMedia.run("ffmpeg", ["-v", "error", "-i", output, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let size = width * height
        return stride(from: 0, to: gray.count - size + 1, by: size).map { [UInt8](gray[$0..<($0 + size)]) }
    }

    /// Mean over frames of the share of drawn pixels (8 levels or more in either) that differ by 12
    /// levels or more.
    static func share(_ a: [[UInt8]], _ b: [[UInt8]], from first: Int) -> Double {
        let n = min(a.count, b.count)
        guard n > first else { return 0 }
        var sum = 0.0
        for k in first..<n {
            var changed = 0, drawn = 0
            for i in a[k].indices where a[k][i] >= 8 || b[k][i] >= 8 {
                drawn += 1
                if abs(Int(a[k][i]) - Int(b[k][i])) >= 12 { changed += 1 }
            }
            sum += drawn > 0 ? Double(changed) / Double(drawn) : 0
        }
        return sum / Double(n - first)
    }

    /// Mean absolute change from the previous frame in the 2 frames from each beat (every 12th frame at
    /// 24 fps, the first frame drawn is one), over the mean elsewhere: in the pixels or in the brightness.
    static func pulse(_ frames: [[UInt8]], from first: Int) -> Double {
        max(motionPulse(frames, from: first), brightnessPulse(frames, from: first))
    }

    /// The frame's mean brightness: how much it steps in the 2 frames from each beat over elsewhere.
    static func brightnessPulse(_ frames: [[UInt8]], from first: Int) -> Double {
        let mean = frames.map { f in Double(f.reduce(0) { $0 + Int($1) }) / Double(f.count) }
        var on = (0.0, 0), off = (0.0, 0)
        for k in max(1, first)..<frames.count {
            let step = abs(mean[k] - mean[k - 1])
            if k % 12 < 2 { on.0 += step; on.1 += 1 } else { off.0 += step; off.1 += 1 }
        }
        return (on.0 / Double(max(1, on.1))) / max(0.5, off.0 / Double(max(1, off.1)))
    }

    /// Pixels: the mean absolute change in the 2 frames from each beat over elsewhere.
    static func motionPulse(_ frames: [[UInt8]], from first: Int) -> Double {
        var on = (0.0, 0), off = (0.0, 0)
        for k in max(1, first)..<frames.count {
            var d = 0
            for i in frames[k].indices { d += abs(Int(frames[k][i]) - Int(frames[k - 1][i])) }
            let change = Double(d) / Double(frames[k].count)
            if k % 12 < 2 { on.0 += change; on.1 += 1 } else { off.0 += change; off.1 += 1 }
        }
        let meanOn = on.0 / Double(max(1, on.1)), meanOff = off.0 / Double(max(1, off.1))
        return meanOff > 1e-9 ? meanOn / meanOff : (meanOn > 0.5 ? 100 : 0)
    }

    /// The brightest column of `columns` over their mean brightness (1 when all are alike).
    static func stripes(_ frame: [UInt8], columns: Range<Int>) -> Double {
        let sums = columns.map { x in (0..<height).reduce(0.0) { $0 + Double(frame[$1 * width + x]) } }
        let mean = sums.reduce(0, +) / Double(sums.count)
        return mean > 0 ? (sums.max() ?? 0) / mean : 0
    }

    @Test("every shader and preset: the music changes at least 5 % of what it draws against silence, the clicks pulse (at least 1.2)",
          arguments: effects)
    func reacts(_ effect: String) throws {
        let music = try Self.frames(effect, try Self.music()), silent = try Self.frames(effect, try Self.silence())
        #expect(music.count == Self.drawn.count)
        let changed = Self.share(music, silent, from: 0)
        #expect(changed >= 0.05, "\(effect): the music changes \(String(format: "%.1f", changed * 100)) % of what it draws against silence")
        // A history view scrolls by design, beat or not: its beats are the bright stripes of the last
        // frame's newest second and a half (it scrolls left, newest at the right).
        let scrolls = effect == "spectrogram" || effect == "preset:spectrogram"
        let pulse = scrolls ? Self.stripes(music[music.count - 1], columns: (Self.width - 16)..<(Self.width - 1))
                            : Self.pulse(music, from: 1)
        guard !Self.pulseExempt.contains(effect) else { return }
        #expect(pulse >= 1.2, "\(effect): beat pulse \(String(format: "%.2f", pulse))")
    }
}
