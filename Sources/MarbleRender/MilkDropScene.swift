import MarbleCore

/// What `--milkdrop` asks for: a MilkDrop preset file, or a folder played as a playlist, as a scene
/// of one `milkdrop` layer (the same layer a preset YAML gets with `- shader: milkdrop` and `file:`).
package struct MilkDropScene: Sendable, Equatable {
    /// A `.milk` file or a folder of them.
    package var path: String
    /// Play a folder in a shuffled order (fixed by `seed`).
    package var shuffle = false
    /// Seconds per preset of a folder (0: never switch), and of a soft blend.
    package var switchSeconds = 30.0, blendSeconds = 2.5
    /// Cut on a strong beat at the switch time instead of blending.
    package var hardCuts = true
    /// The feedback buffer's share of the output size (0: automatic).
    package var renderScale = 0.0
    /// Seeds the shuffle and the presets' `rand`.
    package var seed = 0
    /// Run MilkDrop 2's HLSL warp and composite shaders (else MilkDrop 1.x's fixed passes).
    package var shaders = true
    /// A folder of disk textures the shaders read by name, searched before the preset's own folder.
    package var texturesFolder = ""

    package init(path: String) { self.path = path }

    /// The scene: one opaque `milkdrop` layer with these settings.
    package var preset: Preset {
        Preset(name: "milkdrop", description: "MilkDrop: \(path)", layers: [
            LayerSpec(shader: "milkdrop", parameters: [
                "file": .text(path), "shuffle": .flag(shuffle), "switch": .number(switchSeconds),
                "blend": .number(blendSeconds), "hard_cuts": .flag(hardCuts), "render_scale": .number(renderScale),
                "seed": .number(Double(seed)), "shaders": .flag(shaders), "textures": .text(texturesFolder),
            ]),
        ], source: path)
    }
}

extension Preset {
    /// A `milkdrop` layer's `file:` (and `textures:`) written relative (`presets/space.milk`) means relative to the
    /// preset file's folder, as a reader of the YAML expects; absolute paths stay as they are.
    mutating func resolveMilkDropFiles(relativeTo folder: String) {
        for i in layers.indices where layers[i].shader == "milkdrop" {
            for key in ["file", "textures"] {
                guard case .text(let path)? = layers[i].parameters[key], !path.isEmpty, !path.hasPrefix("/") else { continue }
                layers[i].parameters[key] = .text(folder + "/" + path)
            }
        }
    }
}
