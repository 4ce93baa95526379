import MarbleCore
import MilkDrop
import Synchronization

/// A MilkDrop preset (`.milk`), or a folder of them played as a playlist, drawn on the CPU.
///
/// `file` is a `.milk` file or a folder searched recursively (empty: a preset written for MarbleKit). With several presets, each plays for
/// `switch` seconds and is replaced by a hard cut on a strong beat (`hard_cuts`) or else a soft
/// blend of `blend` seconds; `shuffle` plays them in an order fixed by `seed`. The preset draws into a
/// feedback buffer of `render_scale` times the output size (0: automatic, at most 1280×720's area,
/// like MilkDrop's internal texture) which the composite scales up; an explicit `render_scale` draws
/// the composite at that size too and scales the finished picture up (for the heaviest presets). The warp mesh has `mesh_x × mesh_y`
/// cells (MilkDrop's 48 × 36). Presets with HLSL warp/composite shaders run without them (MilkDrop
/// 1.x's fixed warp and composite); see `marble effects --milkdrop DIR` for what loads.
package final class MilkDropLayer: SkippingShader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `prepare` alone advances the presets and writes
    // their feedback buffers, `render` only reads them and writes its own rows.
    package static let descriptor = ShaderDescriptor(
        name: "milkdrop", summary: "MilkDrop presets (.milk) on the CPU: one file, or a folder as a playlist.",
        kind: .generator, isOpaque: true, needs: [.spectrum],
        parameters: [
            ParameterDescriptor("file", "A .milk preset, or a folder of them (searched recursively) to play as a playlist; none: a built-in preset.",
                                .text(default: "")),
            ParameterDescriptor("shuffle", "Play a folder in a shuffled order (fixed by seed) instead of by name.", .flag(default: false)),
            ParameterDescriptor("switch", "Seconds each preset of a folder plays (0: never switch).", .number(default: 30, range: 0...3600)),
            ParameterDescriptor("blend", "Seconds of a soft blend between presets (0: always cut).", .number(default: 2.5, range: 0...10)),
            ParameterDescriptor("hard_cuts", "Switch with a hard cut on a strong beat when one comes at the switch time.",
                                .flag(default: true)),
            ParameterDescriptor("render_scale", "Draw at this fraction of the output size and scale up (0: automatic, the feedback buffer at most 1280x720's area).",
                                .number(default: 0, range: 0...1)),
            ParameterDescriptor("mesh_x", "Warp mesh cells across.", .integer(default: 48, range: 8...192)),
            ParameterDescriptor("mesh_y", "Warp mesh cells down.", .integer(default: 36, range: 6...144)),
            ParameterDescriptor("seed", "Seeds the shuffle and the presets' rand().", .integer(default: 0, range: 0...2_147_483_647)),
            ParameterDescriptor("shaders", "Run MilkDrop 2 presets' HLSL warp and composite shaders (off: MilkDrop 1.x's fixed warp and composite).",
                                .flag(default: true)),
            ParameterDescriptor("textures", "A folder of textures the shaders read by name (sampler_worms, rand00…), searched before the preset's own folder.",
                                .text(default: "")),
        ])

    /// Decodes the disk textures presets' shaders read; the render layer installs FFmpeg's (this module
    /// sees no codec). Without one, every disk texture gets the stand-in.
    package static let imageLoader = Mutex<(any ShaderImageLoader)?>(nil)

    /// The presets being played.
    package let playlist: MilkPlaylist
    private let audio = MilkAudio()
    private let renderScale: Float
    private var blendBuffer: Texture?
    private var blendWeight: UInt32 = 0
    private var blending = false

    package init(parameters: ShaderParameters) throws {
        let file = parameters.text("file")
        let paths: [String]
        if file.isEmpty {
            paths = [DefaultPreset.name]
        } else {
            let catalog = MilkPresetCatalog(path: file)
            if let problem = catalog.problems.first, catalog.paths.isEmpty {
                throw MarbleError(.input, "milkdrop: \(problem.description)")
            }
            paths = catalog.paths
            guard !paths.isEmpty else { throw MarbleError(.input, "milkdrop: no .milk presets in \(file)") }
        }
        var options = MilkPlaylist.Options()
        options.shuffle = parameters.flag("shuffle")
        options.switchSeconds = Double(parameters.number("switch"))
        options.blendSeconds = Double(parameters.number("blend"))
        options.hardCuts = parameters.flag("hard_cuts")
        options.seed = UInt64(parameters.integer("seed"))
        options.meshColumns = parameters.integer("mesh_x")
        options.meshRows = parameters.integer("mesh_y")
        options.shaders = parameters.flag("shaders")
        let textures = parameters.text("textures")
        options.textureFolders = textures.isEmpty ? [] : [textures]
        options.imageLoader = Self.imageLoader.withLock { $0 }
        do {
            playlist = try MilkPlaylist(paths: paths, options: options)
        } catch {
            throw MarbleError(.input, "milkdrop: \(error.description)")
        }
        renderScale = parameters.number("render_scale")
    }

    /// The feedback buffer's share of the output for a size: the parameter, or automatic (the buffer
    /// at most 1280×720's area).
    package static func scale(_ requested: Float, width: Int, height: Int) -> Float {
        if requested > 0 { return requested }
        return min(1, (Float(1280 * 720) / Float(max(1, width * height))).squareRoot())
    }

    package func configure(width: Int, height: Int) {
        // An explicit render scale draws everything at that size (the composite too) and scales the
        // picture up at the end; the automatic one keeps the composite at the output size.
        playlist.configure(width: width, height: height, scale: Self.scale(renderScale, width: width, height: height),
                           compositeAtScale: renderScale > 0)
        if blendBuffer?.width != width || blendBuffer?.height != height {
            blendBuffer = playlist.paths.count > 1 ? Texture(width: width, height: height) : nil
        }
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let f = uniforms.features
        audio.update(from: f, fps: uniforms.fps.doubleValue, frame: uniforms.frameIndex)
        playlist.update(time: uniforms.time, isBeat: f.isBeat, bass: audio.bass)
        var inputs = MilkPreset.Inputs()
        inputs.time = uniforms.time
        inputs.fps = uniforms.fps.doubleValue
        inputs.frame = Double(uniforms.frameIndex)
        inputs.progress = playlist.progress(at: uniforms.time)
        inputs.bass = Double(audio.bass); inputs.mid = Double(audio.mid); inputs.treb = Double(audio.treble)
        inputs.bassAtt = Double(audio.bassAttenuated); inputs.midAtt = Double(audio.midAttenuated)
        inputs.trebAtt = Double(audio.trebleAttenuated)
        playlist.active.prepare(inputs, audio: audio, strips: uniforms.strips)
        if case .blending(let w) = playlist.transition, let next = playlist.incoming, blendBuffer != nil {
            next.prepare(inputs, audio: audio, strips: uniforms.strips)
            blendWeight = UInt32(max(0, min(256, w * 256)))
            blending = true
        } else {
            blending = false
        }
    }

    /// Cuts to the playlist's next preset at the next frame (OSC `/marble/milkdrop/next`).
    package func skipToNext() { playlist.skipToNext() }

    /// The presets skipped (not loaded, or out of their work budget), each once by file and line.
    package var warnings: [String] { playlist.warnings().map { "milkdrop: \($0)" } }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        playlist.active.composite(into: target, rows: rows)
        guard blending, let next = playlist.incoming, let buffer = blendBuffer else { return }
        let other = buffer.view
        next.composite(into: other, rows: rows)
        let w = blendWeight, keep = 256 - w
        for y in rows {
            let a = target.row32(y), b = other.row32(y)
            for x in 0..<target.width {
                let p = a[x], q = b[x]
                let rb = ((p & 0x00FF_00FF) &* keep &+ (q & 0x00FF_00FF) &* w) >> 8
                let g = ((p & 0x0000_FF00) &* keep &+ (q & 0x0000_FF00) &* w) >> 8
                a[x] = (rb & 0x00FF_00FF) | (g & 0x0000_FF00) | 0xFF00_0000
            }
        }
    }
}
