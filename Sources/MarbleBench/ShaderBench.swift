import Shaders
import MarbleCore
import MarbleRender

/// Times one kernel alone: `prepare` then `render` on row strips, as the compositor calls it, writing a
/// full frame. Filters read (and `media` shows) a fixed picture: the `spectrum` look drawn once.
struct ShaderBench {
    let type: any Shader.Type
    let size: BenchConfiguration.Size
    let threads: Int

    func run(features: [AudioFeatures], configuration c: BenchConfiguration, picture: Texture) throws(MarbleError) -> BenchResult {
        KernelBuilds.select()
        let d = type.descriptor
        let shader: any Shader
        let parameters: ShaderParameters
        do {
            parameters = try ShaderParameters(descriptor: d, values: [:])
            shader = try type.init(parameters: parameters)
        } catch {
            throw MarbleError(.preset, "\(d.name): \(error)")
        }
        shader.configure(width: size.width, height: size.height)
        let target = Texture(width: size.width, height: size.height)
        let scheduler = StripScheduler(threads: threads)
        let source = picture.view
        let pass = ShaderPass(shader: shader, target: target.view, source: source)
        var timer = StageTimer(name: d.name)
        var allocations = 0
        for n in 0..<(c.warmup + c.frames) {
            var uniforms = FrameUniforms(time: c.fps.seconds(ofFrame: n), frameIndex: n, fps: c.fps,
                                         width: size.width, height: size.height,
                                         features: features[n % features.count], input: source, song: Self.song)
            uniforms.strips = scheduler
            let measured = n >= c.warmup
            if n == c.warmup { AllocationCounter.start() }
            let start = c.clock.now()
            shader.prepare(uniforms, parameters: parameters)
            pass.uniforms = uniforms
            scheduler.run(count: size.height, pass)
            let elapsed = c.clock.now() &- start
            if measured { timer.record(nanoseconds: elapsed) }
        }
        allocations = AllocationCounter.count
        AllocationCounter.stop()
        if AllocationCounter.isCounting { timer.allocations = allocations }
        let stats = timer.stats(frames: c.frames)
        return BenchResult(name: d.name, kind: .shader, width: size.width, height: size.height, threads: threads,
                           frames: c.frames, total: stats, stages: [stats], fps: 1000 / max(stats.mean, 1e-6),
                           allocationsPerFrame: stats.allocationsPerFrame, peakRSSMegabytes: MachineInfo.peakRSSMegabytes())
    }

    /// The song every shader is timed with: no tags, length or cover (the layers that read them draw as
    /// without a song), and one word-timed line of lyrics, so the `lyrics` layer draws a line and fills it
    /// word by word on every frame. The line is laid out once, during the warm-up: a render lays one
    /// out only when the line changes (an allocation, like a change of preset), not per frame.
    static let song = SongInfo(lyrics: Lyrics(lines: [
        Lyrics.Line(start: 0, end: Lyrics.open, text: "Sing along, the marble rolls",
                    words: [Lyrics.Word(scalars: 0..<5, start: 0, end: 2000), Lyrics.Word(scalars: 5..<11, start: 2000, end: 60_000)]),
    ]))

    /// The picture filters and `media` read: the default preset's first frames, or a gradient.
    static func picture(size: BenchConfiguration.Size, features: AudioFeatures, fps: Rational) -> Texture {
        let texture = Texture(width: size.width, height: size.height)
        let scene = Preset(name: "picture", layers: [
            LayerSpec(shader: "gradient", parameters: ["from": .text("#0d0221"), "to": .text("#ff2ebd")]),
            LayerSpec(shader: "bars", parameters: ["mirror": .flag(true)]),
            LayerSpec(shader: "waveform"),
        ])
        if let compositor = try? Compositor(preset: scene, width: size.width, height: size.height, threads: 1) {
            let uniforms = FrameUniforms(time: 1, frameIndex: fps.frame(at: 1), fps: fps, width: size.width,
                                         height: size.height, features: features)
            compositor.render(uniforms, into: texture)
        } else {
            texture.fill(RGBA8(r: 90, g: 40, b: 160))
        }
        return texture
    }
}

/// One kernel's `render` as a strip task, as the compositor runs it (no allocation per frame).
/// Safety of @unchecked Sendable: `uniforms` is set before each `run`; strips write disjoint rows.
private final class ShaderPass: StripTask, @unchecked Sendable {
    let shader: any Shader
    let target: TextureView, source: TextureView
    var uniforms: FrameUniforms?

    init(shader: any Shader, target: TextureView, source: TextureView) {
        self.shader = shader
        self.target = target
        self.source = source
    }

    func run(strip: Range<Int>, worker: Int) {
        guard let uniforms else { return }
        shader.render(target, source: source, rows: strip, uniforms: uniforms)
    }
}
