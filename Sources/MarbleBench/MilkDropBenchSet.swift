import Foundation
import MarbleRender

/// The MilkDrop presets `marble bench` times: classic MilkDrop 1.x presets from Debian's
/// projectm-data that between them use the warp mesh, per-vertex equations, built-in waves, motion
/// vectors, borders, video echo and custom shapes; then eight MilkDrop 2 presets with their HLSL warp
/// and composite shaders, from light (a few operations, one blur level) to heavy (loops, three blur
/// levels, volume noise) at their automatic render scale and again at full size (`×1.0`), and two of
/// them drawn without their shaders (`off`) for the comparison. The same list on every machine; skipped when the package is not installed.
package enum MilkDropBenchSet {
    /// Where Debian installs the presets.
    package static let folder = "/usr/share/projectM/presets"

    /// The files, relative to ``folder``.
    package static let files = [
        "presets_stock/Geiss - Space Voyage.milk",
        "presets_stock/Rovastar - Space.milk",
        "presets_stock/Krash - 3D Shapes Demo.milk",
        "presets_stock/Geiss - Feedback.milk",
        "presets_stock/Geiss - Julia Fractal 2.milk",
        "presets_stock/Unchained - Picture Of Exile.milk",
        "presets_milkdrop_200/Aderrasi + Geiss - Airhandler (Square Mix).milk",
        "presets_milkdrop_200/Aderrasi + Geiss - Airhandler (Kali Mix) - Canvas Mix.milk",
    ]

    /// MilkDrop 2 presets whose shaders run, lightest first (as the compiler counts their operations).
    package static let shaderFiles = [
        "presets_milkdrop_200/Geiss - Plasma.milk",
        "presets_milkdrop_200/Geiss - Chrome.milk",
        "presets_milkdrop_200/Geiss - Reaction Diffusion (Royal Crown Mix).milk",
        "presets_milkdrop_200/Geiss - Color Pox (Acid Impression Mix).milk",
        "presets_milkdrop_200/Geiss - Drop Shadow 1.milk",
        "presets_milkdrop_200/Geiss - Myriad Spirals.milk",
        "presets_milkdrop_200/Flexi - ferny ernie.milk",
        "presets_milkdrop_200/Flexi + Geiss - Tokamak mindblob 2-0.milk",
    ]

    /// Shader presets timed again without their shaders (MilkDrop 1.x's fixed warp and composite).
    package static let withoutShaders = [
        "presets_milkdrop_200/Geiss - Plasma.milk",
        "presets_milkdrop_200/Flexi + Geiss - Tokamak mindblob 2-0.milk",
    ]

    /// The heaviest of them again with an explicit render scale (everything drawn at that fraction of
    /// the frame and scaled up at the end).
    package static let scaled = [("presets_stock/Unchained - Picture Of Exile.milk", 0.5)]

    /// The presets present on this machine, as scenes named `milkdrop <file name>` (`… ×0.5` for the
    /// scaled ones, `… off` for those drawn without their shaders).
    package static func scenes() -> [Preset] {
        let runs = files.map { ($0, 0.0, true) } + scaled.map { ($0.0, $0.1, true) }
            + shaderFiles.map { ($0, 0.0, true) } + shaderFiles.map { ($0, 1.0, true) } + withoutShaders.map { ($0, 0.0, false) }
        return runs.compactMap { file, scale, shaders in
            let path = folder + "/" + file
            guard FileManager.default.isReadableFile(atPath: path) else { return nil }
            var settings = MilkDropScene(path: path)
            settings.renderScale = scale
            settings.shaders = shaders
            var scene = settings.preset
            scene.name = "milkdrop " + ((file as NSString).lastPathComponent as NSString).deletingPathExtension
                + (scale > 0 ? " ×\(scale)" : "") + (shaders ? "" : " off")
            return scene
        }
    }
}
