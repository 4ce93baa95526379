import Foundation
import MarbleRender

/// The MilkDrop presets `marble bench` times: classic MilkDrop 1.x presets from Debian's
/// projectm-data that between them use the warp mesh, per-vertex equations, built-in waves, motion
/// vectors, borders, video echo and custom shapes, plus two MilkDrop 2 presets drawn without their
/// HLSL shaders. The same list on every machine; skipped when the package is not installed.
public enum MilkDropBenchSet {
    /// Where Debian installs the presets.
    public static let folder = "/usr/share/projectM/presets"

    /// The files, relative to ``folder``.
    public static let files = [
        "presets_stock/Geiss - Space Voyage.milk",
        "presets_stock/Rovastar - Space.milk",
        "presets_stock/Krash - 3D Shapes Demo.milk",
        "presets_stock/Geiss - Feedback.milk",
        "presets_stock/Geiss - Julia Fractal 2.milk",
        "presets_stock/Unchained - Picture Of Exile.milk",
        "presets_milkdrop_200/Aderrasi + Geiss - Airhandler (Square Mix).milk",
        "presets_milkdrop_200/Aderrasi + Geiss - Airhandler (Kali Mix) - Canvas Mix.milk",
    ]

    /// The heaviest of them again with an explicit render scale (everything drawn at that fraction of
    /// the frame and scaled up at the end).
    public static let scaled = [("presets_stock/Unchained - Picture Of Exile.milk", 0.5)]

    /// The presets present on this machine, as scenes named `milkdrop <file name>` (`… ×0.5` for the
    /// scaled ones).
    public static func scenes() -> [Preset] {
        (files.map { ($0, 0.0) } + scaled).compactMap { file, scale in
            let path = folder + "/" + file
            guard FileManager.default.isReadableFile(atPath: path) else { return nil }
            var settings = MilkDropScene(path: path)
            settings.renderScale = scale
            var scene = settings.preset
            scene.name = "milkdrop " + ((file as NSString).lastPathComponent as NSString).deletingPathExtension
                + (scale > 0 ? " ×\(scale)" : "")
            return scene
        }
    }
}
