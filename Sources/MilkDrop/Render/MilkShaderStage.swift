import Glibc
import MarbleCore

/// MilkDrop 2's pixel-shader passes for one preset: the warp shader that makes the next feedback
/// buffer, the blur levels the shaders read, and the composite shader that makes the picture, each a
/// compiled ``ShaderProgram`` run by a ``ShaderPass`` over row strips.
///
/// The order of a frame is MilkDrop 2's (`CPlugin::RenderFrame`): the warp shader reads the previous
/// buffer (`sampler_main`) through the mesh's coordinates; the blur levels are computed from the new
/// buffer before the waves and shapes are drawn on it; the composite shader reads the finished buffer
/// (`sampler_main`, with the waves) and the blur levels. With a warp shader MilkDrop applies no `decay`
/// of its own (the shader's `_vDiffuse` carries it, unread): the shader darkens as its author wrote.
///
/// The textures are bound once per preset (``TextureBinder``): the noise set is shared, disk textures
/// come from ``DiskTextures`` (missing ones get the stated stand-in, listed in ``standIns``).
final class MilkShaderStage {
    let warp: ShaderPass?
    let composite: ShaderPass?
    /// The highest blur level either shader reads (0: no blur is computed).
    let blurLevels: Int
    /// Disk textures that were missing or unreadable and were replaced by the stand-in.
    let standIns: [String]
    /// What the shaders and the blur levels cost one pixel of the feedback buffer, in nanoseconds of
    /// one core (``ShaderCost``): what the automatic render scale is chosen from.
    let costPerPixel: Float
    private let blur: BlurPyramid
    /// `sampler_main` of each shader: the previous buffer for the warp, the current one for the composite.
    private let previous: BorrowedTexture, current: BorrowedTexture
    /// What the two read before the first frame.
    private let placeholder: Texture
    private var uniforms: ShaderUniforms
    /// Each pass's textures in slot order (bound again when the passes get machines for more threads).
    private var textures: [ObjectIdentifier: [any ShaderTexture]] = [:]
    private var workers = 0
    /// The texture sizes the passes' `texsize_*` registers hold (main, blur1…3), to bind again on a change.
    private var boundSizes = SIMD8<Int32>(repeating: -1)

    /// Binds the programs of `preset` (nil when it has neither, or they cannot run). `disk` finds disk
    /// textures (nil: every disk texture gets the stand-in).
    init?(preset: MilkPreset, disk: DiskTextures?) {
        guard preset.warpProgram != nil || preset.compositeProgram != nil else { return nil }
        let placeholder = Texture(width: 1, height: 1), blur = BlurPyramid()
        let previous = BorrowedTexture(placeholder.view), current = BorrowedTexture(placeholder.view)
        self.placeholder = placeholder; self.blur = blur; self.previous = previous; self.current = current
        uniforms = ShaderUniforms(seed: preset.seed ^ 0x7368_6164)
        let folder = preset.file.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        var levels = 0
        var missing: [String] = []
        var bound: [ObjectIdentifier: [any ShaderTexture]] = [:]
        func make(_ program: ShaderProgram?, _ kind: ShaderPass.Kind, main: BorrowedTexture) -> ShaderPass? {
            guard let program else { return nil }
            let binding = TextureBinder(main: main, blur: blur, disk: disk)
                .bind(program.samplers, presetFolder: folder.isEmpty ? nil : folder, seed: preset.seed)
            let pass = ShaderPass(kind: kind)
            do {
                try pass.setProgram(program, workers: 1)
                try pass.bind(textures: binding.textures)
            } catch {
                return nil   // a program the machine refuses: the fixed pass draws instead
            }
            levels = max(levels, binding.blurLevels)
            missing += binding.standIns.map(\.description)
            bound[ObjectIdentifier(pass)] = binding.textures
            return pass
        }
        warp = make(preset.warpProgram, .warp, main: previous)
        composite = make(preset.compositeProgram, .composite, main: current)
        guard warp != nil || composite != nil else { return nil }
        blurLevels = levels
        standIns = missing
        costPerPixel = [warp?.program, composite?.program].compactMap { $0 }.reduce(ShaderCost.blur(levels: levels)) {
            $0 + ShaderCost.perPixel($1)
        }
        textures = bound
        workers = 1
    }

    /// Gives each pass a machine for each of `count` threads (allocates only when the count changes).
    func reserve(workers count: Int) {
        let count = max(1, count)
        guard count != workers else { return }
        workers = count
        for pass in [warp, composite].compactMap({ $0 }) {
            guard let program = pass.program else { continue }
            // The program was accepted once already: this cannot fail now.
            try? pass.setProgram(program, workers: count)
        }
        boundSizes = SIMD8(repeating: -1)
        warp?.setUniforms(uniforms.values)
        composite?.setUniforms(uniforms.values)
    }

    /// Binds the textures again when a size a shader reads (`texsize_*`) changed: the buffer's (a new
    /// output size) or the blur levels' (their first update at a size). Allocates only then.
    private func bindIfResized() {
        let l = blur.levels
        let sizes = SIMD8<Int32>(Int32(previous.width), Int32(previous.height), Int32(l[0].width), Int32(l[0].height),
                                 Int32(l[1].width), Int32(l[1].height), Int32(l[2].width), Int32(l[2].height))
        guard sizes != boundSizes else { return }
        boundSizes = sizes
        for pass in [warp, composite].compactMap({ $0 }) {
            // The same textures were accepted when the stage was made: this cannot fail now.
            try? pass.bind(textures: textures[ObjectIdentifier(pass)] ?? [])
        }
    }

    /// Fills the frame's uniform block and hands it to both passes (allocates nothing).
    func update(_ frame: ShaderFrameInput) {
        uniforms.update(frame)
        warp?.setUniforms(uniforms.values)
        composite?.setUniforms(uniforms.values)
    }

    /// The warp shader from `source` (the previous buffer) into `target` through `mesh`. Called every
    /// frame, with or without a warp shader (it points `sampler_main` at the frame's buffers).
    func runWarp(from source: TextureView, into target: TextureView, mesh: WarpMesh, strips: (any StripRunner)?) {
        previous.update(source)
        current.update(target)
        bindIfResized()
        guard let warp else { return }
        warp.setTarget(target)
        warp.setMesh(mesh)
        Self.run(warp, rows: target.height, strips)
    }

    /// The blur levels the shaders read, from the new buffer, with the frame's ranges.
    func runBlur(from buffer: TextureView, range: BlurRange, edgeDarken: Float, strips: (any StripRunner)?) {
        guard blurLevels > 0 else { return }
        blur.update(source: buffer, levels: blurLevels, range: range, edgeDarken: edgeDarken, strips: strips)
        bindIfResized()
    }

    /// The composite shader from `buffer` (the finished feedback buffer) into `target`, with the
    /// per-corner tint `hue` (top-left, top-right, bottom-left, bottom-right; r, g, b).
    func runComposite(from buffer: TextureView, into target: TextureView, hue: [Float], strips: (any StripRunner)?) {
        guard let composite else { return }
        current.update(buffer)
        for i in 0..<min(12, hue.count) { composite.hue[i] = hue[i] }
        composite.setTarget(target)
        Self.run(composite, rows: target.height, strips)
    }

    private static func run(_ pass: ShaderPass, rows: Int, _ strips: (any StripRunner)?) {
        if let strips, strips.threads > 1 {
            strips.run(count: rows, pass)
        } else {
            pass.run(strip: 0..<rows, worker: 0)
        }
    }
}
