import Glibc
import MarbleCore

/// Renders one MilkDrop preset, frame after frame.
///
/// Per frame (``prepare(_:audio:strips:)``, alone): the per-frame equations; the warp mesh (with the
/// per-vertex equations); the previous frame warped into the new feedback buffer — by the preset's
/// HLSL warp shader when it has one (MilkDrop 2), else MilkDrop 1.x's fixed warp times `decay` — across
/// the cores; the blur levels a shader reads; then what is drawn on top of it (custom shapes and waves,
/// the built-in wave, darkened centre, borders, motion vectors). ``composite(into:rows:)`` then draws
/// the buffer on screen, for any strip of rows: with the preset's composite shader, or with MilkDrop
/// 1.x's echo, gamma and filters. The feedback buffer may be smaller than the output (`scale`):
/// MilkDrop's internal texture, scaled up bilinearly by the composite. A composite shader always runs
/// at the buffer's size (in `prepare`, across the cores) and the finished picture is scaled up.
package final class MilkRenderer {
    /// The preset being drawn.
    package let preset: MilkPreset
    private let mesh: WarpMesh
    private var buffers: [Texture] = []
    private var current = 0
    private let warpPass: WarpPass
    private let drawPass = DrawPass()
    private let wave = BuiltInWave()
    private let compositePass = CompositePass()
    /// The preset's MilkDrop 2 shaders, when it has some that compiled.
    private let shaders: MilkShaderStage?
    /// With a composite at the buffer's size: the picture, and the pass that scales it up (gain 1,
    /// no echo, no filter).
    private var picture: Texture?
    private let upscalePass = CompositePass()
    /// Random per preset in MilkDrop, repeatable here: the phases of the composite's tint.
    private let hueOffsets: (Float, Float, Float, Float)
    /// Disk textures the preset's shaders read that were missing or unreadable (replaced by a stand-in).
    package var shaderStandIns: [String] { shaders?.standIns ?? [] }
    /// What the preset's shaders cost a pixel of the feedback buffer (ns of one core; 0 without shaders).
    package var shaderCostPerPixel: Float { shaders?.costPerPixel ?? 0 }
    /// Whether the preset's HLSL warp and composite shaders run (each false when it has none, they are
    /// off, or it did not compile).
    package var runsShaders: (warp: Bool, composite: Bool) { (shaders?.warp != nil, shaders?.composite != nil) }
    /// The composite shader's corner tint, rewritten each frame.
    private var hue = [Float](repeating: 1, count: 12)
    /// The values of the last frame prepared.
    package private(set) var values = FrameValues()
    /// Frames prepared since the start.
    package private(set) var frames = 0
    private var lastFrame = 0
    /// The feedback buffer's size.
    package private(set) var bufferWidth = 0, bufferHeight = 0
    private var outputWidth = 0, outputHeight = 0

    /// A renderer for `preset` with a warp mesh of `meshColumns × meshRows` cells; `seed` fixes what
    /// MilkDrop draws at random (the tint's phases).
    package convenience init(preset: MilkPreset, meshColumns: Int = 48, meshRows: Int = 36, seed: UInt64 = 0) {
        self.init(preset: preset, meshColumns: meshColumns, meshRows: meshRows, seed: seed, textures: nil)
    }

    /// A renderer whose shaders find their disk textures with `textures` (nil: stand-ins for all).
    package init(preset: MilkPreset, meshColumns: Int = 48, meshRows: Int = 36, seed: UInt64 = 0, textures: DiskTextures?) {
        self.preset = preset
        shaders = MilkShaderStage(preset: preset, disk: textures)
        mesh = WarpMesh(columns: meshColumns, rows: meshRows)
        warpPass = WarpPass(mesh: mesh)
        var generator = SplitMix64(seed: seed ^ 0x6D69_6C6B)
        hueOffsets = (Float(generator.next() % 64841) * 0.01, Float(generator.next() % 53751) * 0.01,
                      Float(generator.next() % 42661) * 0.01, Float(generator.next() % 31571) * 0.01)
    }

    /// Allocates the feedback buffers: `width × height` output, the buffer `scale` (0…1] of it.
    /// With `compositeAtScale`, the composite too runs at the buffer's size (across the threads, in
    /// `prepare`) and ``composite(into:rows:)`` only scales the finished picture up: everything is
    /// drawn at the lower resolution, for the heaviest presets. Otherwise the composite scales the
    /// buffer up itself, per output pixel (sharper tint and echo). A new size starts from black.
    ///
    /// Without `compositeAtScale` (the automatic size), a preset whose shaders run gets at most the
    /// buffer `ShaderCost.automaticScale` affords.
    package func configure(width: Int, height: Int, scale: Float, compositeAtScale: Bool = false) {
        var s = scale > 0 && scale.isFinite ? min(1, scale) : 1
        if !compositeAtScale, let shaders {
            s = min(s, ShaderCost.automaticScale(costPerPixel: shaders.costPerPixel, width: width, height: height))
        }
        let bw = max(8, Int((Float(width) * s).rounded())), bh = max(8, Int((Float(height) * s).rounded()))
        outputWidth = width; outputHeight = height
        let lowResolution = shaders?.composite != nil || (compositeAtScale && (bw != width || bh != height))
        if lowResolution {
            if picture?.width != bw || picture?.height != bh { picture = Texture(width: bw, height: bh) }
            upscalePass.source = picture!.view
            upscalePass.prepareColumns(width: width)
        } else {
            picture = nil
        }
        guard bw != bufferWidth || bh != bufferHeight else { return }
        bufferWidth = bw; bufferHeight = bh
        buffers = [Texture(width: bw, height: bh), Texture(width: bw, height: bh)]
        for b in buffers { b.fill(RGBA8(r: 0, g: 0, b: 0)) }
        mesh.configure(width: bw, height: bh)
        frames = 0
    }

    /// Runs one frame: equations, warp, drawing into the feedback buffer.
    package func prepare(_ inputs: MilkPreset.Inputs, audio: MilkAudio, strips: (any StripRunner)?) {
        guard !buffers.isEmpty else { return }
        var inputs = inputs
        inputs.meshX = Double(mesh.columns); inputs.meshY = Double(mesh.rows)
        inputs.pixelsX = Double(bufferWidth); inputs.pixelsY = Double(bufferHeight)
        inputs.aspectX = Double(1 / mesh.aspectX); inputs.aspectY = Double(1 / mesh.aspectY)
        // A frame after the last continues; the same frame again is drawn again from the same start;
        // a frame before it (a seek back) or the first starts from scratch.
        let frame = Int(inputs.frame)
        if frames == 0 || frame < lastFrame {
            if frames > 0 { preset.restart() }
            for b in buffers { b.fill(RGBA8(r: 0, g: 0, b: 0)) }
            preset.saveState()
            current ^= 1
        } else if frame == lastFrame {
            preset.restoreState()
        } else {
            preset.saveState()
            current ^= 1
        }
        lastFrame = frame
        values = preset.runFrame(inputs)
        preset.warp(mesh, values, inputs)

        let previous = buffers[current ^ 1].view
        if let shaders {
            shaders.reserve(workers: strips?.threads ?? 1)
            shaders.update(shaderFrame(inputs))
        }
        shaders?.runWarp(from: previous, into: buffers[current].view, mesh: mesh, strips: strips)
        if shaders?.warp == nil {
            warpPass.source = previous
            warpPass.target = buffers[current].view
            warpPass.wraps = values.wrap
            warpPass.decay = Self.decayWeight(values.decay)
            run(warpPass, rows: bufferHeight, strips)
        }
        shaders?.runBlur(from: buffers[current].view, range: BlurRange(min: values.blurMin, max: values.blurMax),
                         edgeDarken: values.blurEdgeDarken, strips: strips)
        buildDrawing(inputs, audio: audio)
        preset.finishWork()
        if drawPass.list.commandCount > 0 {
            drawPass.target = buffers[current].view
            drawPass.texture = previous
            run(drawPass, rows: bufferHeight, strips)
        }
        prepareComposite(time: inputs.time)
        if let shaders, shaders.composite != nil, let picture {
            // The composite shader, at the buffer's size; `composite` scales the picture up.
            shaders.runComposite(from: buffers[current].view, into: picture.view, hue: hueCorners(time: inputs.time), strips: strips)
            upscalePass.source = picture.view
        } else if let picture {
            // Everything at the buffer's size: the composite now, across the threads; `composite`
            // then only scales it up.
            compositePass.target = picture.view
            run(compositePass, rows: bufferHeight, strips)
            upscalePass.source = picture.view
        }
        frames += 1
    }

    /// Draws the picture for `rows` of `target` (the output size given to `configure`), opaque.
    package func composite(into target: TextureView, rows: Range<Int>) {
        guard !buffers.isEmpty else { return }
        if picture != nil {
            upscalePass.draw(into: target, rows: rows)
        } else {
            compositePass.draw(into: target, rows: rows)
        }
    }

    /// What goes on top of the warped picture, in projectM's order: the motion vectors (MilkDrop
    /// draws them just before the warp, so the warp carries them on from the next frame), the custom
    /// shapes, the custom waves, the built-in wave, the darkened centre, the borders.
    private func buildDrawing(_ inputs: MilkPreset.Inputs, audio: MilkAudio) {
        let v = values, time = inputs.time
        drawPass.list.reset(width: bufferWidth, height: bufferHeight,
                            pixelScale: MilkDrawList.pixelScale(width: bufferWidth, height: bufferHeight))
        let vectors = MotionVectors.Settings(columns: v.vectorsX, rows: v.vectorsY, dx: v.vectorsDX, dy: v.vectorsDY,
                                             length: v.vectorsLength, color: SIMD4(v.vectorsR, v.vectorsG, v.vectorsB, v.vectorsA))
        MotionVectors.build(vectors, into: &drawPass.list) { mesh.sample($0) }
        if !preset.shapes.isEmpty || !preset.waves.isEmpty {
            var f = MilkFrameValues(time: time, fps: inputs.fps, frame: inputs.frame, progress: inputs.progress, audio: audio)
            for i in 0..<FrameVariables.qCount { f.q[i] = preset.q[i] }
            f.waveScale = Double(preset.waveScale)
            for shape in preset.shapes { shape.build(f, into: &drawPass.list, work: &preset.work) }
            for wave in preset.waves { wave.build(f, audio: audio, into: &drawPass.list, work: &preset.work) }
        }
        var w = BuiltInWave.Settings()
        w.mode = v.waveMode; w.x = v.waveX; w.y = v.waveY
        w.color = SIMD4(v.waveR, v.waveG, v.waveB, v.waveA)
        w.scale = preset.waveScale; w.smoothing = preset.waveSmoothing; w.mystery = v.waveMystery
        w.dots = v.waveDots; w.thick = v.waveThick; w.additive = v.waveAdditive; w.brighten = v.waveBrighten
        w.modulateAlphaByVolume = preset.modulateWaveAlpha
        w.modulateAlphaStart = preset.waveAlphaStart; w.modulateAlphaEnd = preset.waveAlphaEnd
        w.time = Float(time.truncatingRemainder(dividingBy: 100_000))
        wave.build(w, audio: audio, into: &drawPass.list)
        DarkenCenter.build(enabled: v.darkenCenter, into: &drawPass.list)
        Borders.build(Borders.Settings(outerSize: v.outerSize, outerColor: SIMD4(v.outerR, v.outerG, v.outerB, v.outerA),
                                       innerSize: v.innerSize, innerColor: SIMD4(v.innerR, v.innerG, v.innerB, v.innerA)),
                      into: &drawPass.list)
    }

    /// What the shaders see this frame (the values after the per-frame equations).
    private func shaderFrame(_ inputs: MilkPreset.Inputs) -> ShaderFrameInput {
        var f = ShaderFrameInput()
        f.time = Float(inputs.time.truncatingRemainder(dividingBy: 100_000)); f.fps = Float(inputs.fps)
        f.frame = Int(inputs.frame); f.progress = Float(inputs.progress)
        f.bass = Float(inputs.bass); f.mid = Float(inputs.mid); f.treb = Float(inputs.treb)
        f.vol = (f.bass + f.mid + f.treb) / 3
        f.bassAtt = Float(inputs.bassAtt); f.midAtt = Float(inputs.midAtt); f.trebAtt = Float(inputs.trebAtt)
        f.volAtt = (f.bassAtt + f.midAtt + f.trebAtt) / 3
        for i in 0..<FrameVariables.qCount { f.q[i] = Float(preset.q[i]) }
        f.width = bufferWidth; f.height = bufferHeight
        f.blurMin = values.blurMin; f.blurMax = values.blurMax
        return f
    }

    /// MilkDrop's `hue_shader` corners (top-left, top-right, bottom-left, bottom-right; r, g, b): the
    /// composite's tint at full strength (the shader applies as much of it as it wants). MilkDrop's
    /// corner i of `shade` sits at top-right, top-left, bottom-right, bottom-left.
    /// Where MilkDrop's `shade` corner i goes in ``hue``'s order.
    private static let hueCornerPlaces = [1, 0, 3, 2]

    private func hueCorners(time: Double) -> [Float] {
        let t = Float(time.truncatingRemainder(dividingBy: 100_000))
        for (i, place) in Self.hueCornerPlaces.enumerated() {
            let shade = Self.tint(corner: i, time: t, amount: 1, phases: hueOffsets)
            hue[place * 3] = shade.x; hue[place * 3 + 1] = shade.y; hue[place * 3 + 2] = shade.z
        }
        return hue
    }

    /// `decay` as the warp's weight in 1/256: MilkDrop 2 passes it to the GPU as an 8-bit vertex colour
    /// (`decay · 255` truncated, so 0.98 is 249/255 = 0.9765), which modulates the previous frame.
    static func decayWeight(_ decay: Float) -> UInt32 {
        let d = decay.isFinite ? max(0, min(1, decay)) : 1
        return UInt32((Float(Int(d * 255)) * 256 / 255).rounded())
    }

    /// The composite's overall gain from `gamma`, as MilkDrop 2 draws it without pixel shaders: the
    /// picture once plus additive copies summing to `gamma` — so under 1 it darkens, except with video
    /// echo, where the layers are drawn once each whatever gamma is and only the copies above 1 add.
    static func compositeGain(gamma: Float, echo: Bool) -> Float {
        let g = gamma.isFinite ? max(0, min(8, gamma)) : 1
        return echo ? max(1, g) : g
    }

    /// MilkDrop's tint of one corner (r, g, b) at `time`: three slowly drifting sines, the largest
    /// channel scaled to 1, mapped to 0.5…1, then mixed with white by `amount` (`fShader`; MilkDrop
    /// applies none when it is 0.001 or less, the default).
    static func tint(corner: Int, time: Float, amount: Float, phases: (Float, Float, Float, Float)) -> SIMD3<Float> {
        guard amount > 0.001 else { return SIMD3(repeating: 1) }
        let c = Float(corner)
        let r = 0.6 + 0.3 * sinf(time * 30 * 0.0143 + 3 + c * 21 + phases.3)
        let g = 0.6 + 0.3 * sinf(time * 30 * 0.0107 + 1 + c * 13 + phases.1)
        let b = 0.6 + 0.3 * sinf(time * 30 * 0.0129 + 6 + c * 9 + phases.2)
        let m = max(r, max(g, b))
        let shade = 0.5 + 0.5 * SIMD3(r, g, b) / m
        return shade * amount + SIMD3(repeating: 1 - amount)
    }

    private func prepareComposite(time: Double) {
        let v = values
        let pass = compositePass
        pass.source = buffers[current].view
        // MilkDrop draws the echo only above 0.001, and takes the orientation as a C remainder
        // (−1 and −3 flip x, −2 nothing).
        let echo = v.echoAlpha > 0.001
        pass.echoAlpha = echo ? UInt32(max(0, min(256, (v.echoAlpha * 256).rounded()))) : 0
        pass.echoZoom = v.echoZoom
        pass.echoOrientation = v.echoOrientation % 4
        pass.prepareColumns(width: picture?.width ?? outputWidth)
        pass.filters = Filters(brighten: v.brighten, darken: v.darken, solarize: v.solarize, invert: v.invert)
        let gain = Self.compositeGain(gamma: v.gamma, echo: echo)
        let t = Float(time.truncatingRemainder(dividingBy: 100_000))
        for corner in 0..<4 {
            let shade = Self.tint(corner: corner, time: t, amount: preset.tintAmount, phases: hueOffsets) * gain
            pass.gain[corner * 3] = shade.x
            pass.gain[corner * 3 + 1] = shade.y
            pass.gain[corner * 3 + 2] = shade.z
        }
    }

    private func run(_ task: any StripTask, rows: Int, _ strips: (any StripRunner)?) {
        if let strips, strips.threads > 1 {
            strips.run(count: rows, task)
        } else {
            task.run(strip: 0..<rows, worker: 0)
        }
    }
}

/// The draw stage as a strip task: each strip rasterizes the whole list clipped to its rows.
/// Safety of @unchecked Sendable: `list`, `target` and `texture` are set by `prepare` before `run`;
/// strips only read them and write disjoint rows of `target`.
final class DrawPass: StripTask, @unchecked Sendable {
    var list = MilkDrawList()
    var target = TextureView(pixels: UnsafeMutableRawPointer(bitPattern: 64)!, width: 1, height: 1, bytesPerRow: 4)
    var texture = TextureView(pixels: UnsafeMutableRawPointer(bitPattern: 64)!, width: 1, height: 1, bytesPerRow: 4)

    func run(strip: Range<Int>, worker: Int) {
        withDenormalsFlushed { MilkRasterizer.draw(list, into: target, rows: strip, texture: texture) }
    }
}
