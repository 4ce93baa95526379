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
/// alone, filters over Samples/Pictures/magma.jpg, presets as they are; 80x44, 24 fps, 2 s.
///
/// Two measures, on luminance (0–255), from frame 12 on (half a second for smoothed features to settle):
/// - **music vs silence**: the mean share of the drawn pixels (8 levels or more in either render) that
///   differ by 12 levels or more between the render of the music and the render of silence at the
///   same frame: a scope or a meter panel is measured over what it draws. At least 5 %.
/// - **beat pulse**: the mean change from one frame to the next in the 2 frames from each click (83 ms),
///   over the mean change elsewhere. At least 1.2: the clicks show as a pulse, not as a steady drift.
///   A spectrogram scrolls every frame by design: its beats are the stripes of its last frame's newest
///   1.5 s, the brightest column over their mean, at least 1.2 too. The piano preset is exempt (see
///   ``pitchOnly``).
///
/// Layers that do not follow sound by design are left out: plain colours, the picture, text, lyrics,
/// the cover, the whole song's overview.
@Suite("Every effect reacts to generated music")
struct EveryEffectReactsTests {
    static let staticByDesign: Set<String> = ["solid", "gradient", "media", "text", "lyrics", "cover", "overview"]
    static let (width, height, fps, seconds) = (80, 44, 24, 2.0)
    /// Exempt from the beat pulse: the piano preset. Its bars do pulse with the clicks, but 3–4 frames
    /// (125–170 ms) after them, the delay of its constant-Q kernels (long at low notes), so the pulse
    /// falls outside the 2 frames measured; its history below them scrolls every frame. The music vs
    /// silence measure holds for it like for the rest.
    static let pitchOnly: Set<String> = ["preset:piano"]

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
    /// 24 fps), over the mean elsewhere; `rows` limits it to part of the frame.
    static func pulse(_ frames: [[UInt8]], from first: Int, rows: Range<Int>? = nil) -> Double {
        var on = (0.0, 0), off = (0.0, 0)
        for k in max(1, first)..<frames.count {
            var d = 0
            let band = rows ?? 0..<height
            for i in (band.lowerBound * width)..<(band.upperBound * width) { d += abs(Int(frames[k][i]) - Int(frames[k - 1][i])) }
            let change = Double(d) / Double(band.count * width)
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
        #expect(music.count == Int(Self.seconds) * Self.fps)
        let changed = Self.share(music, silent, from: 12)
        #expect(changed >= 0.05, "\(effect): the music changes \(String(format: "%.1f", changed * 100)) % of what it draws against silence")
        // A history view scrolls by design, beat or not: its beats are the bright stripes of the last
        // frame's newest second and a half (it scrolls left, newest at the right).
        let scrolls = effect == "spectrogram" || effect == "preset:spectrogram"
        let pulse = scrolls ? Self.stripes(music[music.count - 1], columns: (Self.width - 16)..<(Self.width - 1))
                            : Self.pulse(music, from: 12)
        guard !Self.pitchOnly.contains(effect) else { return }
        #expect(pulse >= 1.2, "\(effect): beat pulse \(String(format: "%.2f", pulse))")
    }
}
