/// Resolves the samplers of a compiled shader to textures, once per preset: `main` to the feedback
/// buffer, `blur1`…`blur3` to the pyramid's levels, the noise names to the shared generated set, and
/// any other name to a disk image — or, when the image is missing or unreadable, to the stand-in
/// (``NoiseTextures/standIn``), so the preset keeps a texture to read; each stand-in is reported.
package struct TextureBinder {
    package let main: BorrowedTexture
    package let blur: BlurPyramid
    package let noise: NoiseTextures
    /// Where disk textures come from; nil: every disk texture gets the stand-in.
    package let disk: DiskTextures?

    package init(main: BorrowedTexture, blur: BlurPyramid, noise: NoiseTextures = .shared, disk: DiskTextures?) {
        self.main = main; self.blur = blur; self.noise = noise; self.disk = disk
    }

    /// The textures of one shader.
    package struct Binding {
        /// One texture per sampler, in slot order.
        package var textures: [any ShaderTexture]
        /// The highest blur level the shader reads (0…3): the pyramid must compute this many.
        package var blurLevels: Int
        /// The disk textures replaced by the stand-in, each with its reason.
        package var standIns: [ShaderTextureError]
        /// The file each `randNN` name picked.
        package var randomPicks: [String: String]
    }

    /// Binds `samplers` for a preset in `presetFolder` (nil: none is searched), picking `randNN`
    /// textures by `seed` (a name picks the same file in every shader bound with the same seed).
    package func bind(_ samplers: [ShaderSamplerUse], presetFolder: String?, seed: UInt64) -> Binding {
        var binding = Binding(textures: [], blurLevels: 0, standIns: [], randomPicks: [:])
        for use in samplers {
            let name = use.name
            if name == "main" {
                binding.textures.append(main)
            } else if let level = SamplerName.blurLevel(name) {
                binding.textures.append(blur.levels[level - 1])
                binding.blurLevels = max(binding.blurLevels, level)
            } else if let generated = noise.texture(named: name) {
                binding.textures.append(generated)
            } else {
                binding.textures.append(diskTexture(name, presetFolder: presetFolder, seed: seed, binding: &binding))
            }
        }
        return binding
    }

    private func diskTexture(_ name: String, presetFolder: String?, seed: UInt64, binding: inout Binding) -> any ShaderTexture {
        guard let disk else {
            binding.standIns.append(ShaderTextureError(path: name, message: "no texture folders to look in"))
            return noise.standIn
        }
        let path: String?
        if let (slot, prefix) = SamplerName.randomSlot(name) {
            path = disk.randomPath(slot: slot, prefix: prefix, seed: seed)
            if let path { binding.randomPicks[name] = path }
        } else {
            path = disk.path(forTexture: name, presetFolder: presetFolder)
        }
        guard let path else {
            let wanted = SamplerName.randomSlot(name).map { "an image named \($0.prefix)*" } ?? "\(name).{\(DiskTextures.extensions.joined(separator: ","))}"
            binding.standIns.append(ShaderTextureError(path: name, message: "no \(wanted) in the texture folders or beside the preset"))
            return noise.standIn
        }
        do {
            return try disk.texture(at: path)
        } catch {
            binding.standIns.append(error)
            return noise.standIn
        }
    }
}
