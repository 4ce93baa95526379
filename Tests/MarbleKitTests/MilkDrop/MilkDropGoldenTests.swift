import Foundation
import MarbleCore
@testable import MarbleKit
import MarbleRender
import TestSupport
import Testing

/// Golden images of MilkDrop presets from Debian's projectm-data (installed by CI; the presets
/// themselves are not in the repository): six classic MilkDrop 1.x presets and twelve MilkDrop 2
/// presets run with their HLSL shaders, the whole render path at 96x54, the frame at 1 s of
/// Samples/sample.ogg, within 2 levels per channel. Without the package the tests fail (they are
/// not skipped: a missing preset would hide a broken renderer).
/// The images are GoldenImages/<name>.pam (see `GoldenStore`); regenerate them with
/// `Scripts/update-goldens.sh MilkDropGoldenTests`, which lists what changed.
@Suite("MilkDrop presets' golden images", .serialized)
struct MilkDropGoldenTests {
    static let store = GoldenStore(
        folder: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GoldenImages"))
    static let song = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/sample.ogg").path

    /// Classic MilkDrop 1.x presets (warp, waves, shapes, echo): the benchmark set's, except Rovastar's
    /// Space, whose 64×48 grid of motion-vector stars covers a picture this small entirely.
    static let presets = [
        "presets_stock/Geiss - Space Voyage.milk",
        "presets_stock/Aderrasi - Airs (Windy Mix).milk",
        "presets_stock/Krash - 3D Shapes Demo.milk",
        "presets_stock/Geiss - Feedback.milk",
        "presets_stock/Geiss - Julia Fractal 2.milk",
        "presets_stock/Unchained - Picture Of Exile.milk",
    ]

    /// MilkDrop 2 presets whose warp and composite shaders run: the side-by-side set of
    /// docs/MILKDROP-REFERENCE.md (blur levels, noise textures, volume noise, loops, a missing disk texture).
    static let shaderPresets = [
        "presets_milkdrop_200/Geiss - Plasma.milk",
        "presets_milkdrop_200/Geiss - Chrome.milk",
        "presets_milkdrop_200/Geiss - Tokamak Plus 2.milk",
        "presets_milkdrop_200/Geiss - Reaction Diffusion (Royal Crown Mix).milk",
        "presets_milkdrop_200/Geiss - Cepia Dither.milk",
        "presets_milkdrop_200/Geiss - Color Pox (Acid Impression Mix).milk",
        "presets_milkdrop_200/Geiss - Liquid Beats 2.milk",
        "presets_milkdrop_200/Geiss - Rose 4 (LSB mix).milk",
        "presets_milkdrop_200/Geiss - Drop Shadow 1.milk",
        "presets_milkdrop_200/Flexi + Geiss - Tokamak mindblob 2-0.milk",
        "presets_milkdrop_200/Zylot - Age of Science (seeking truth mix).milk",
        "presets_milkdrop_200/Geiss - Myriad Spirals.milk",
    ]

    @Test("each preset matches its golden image (96x54, 1 s of the sample, ±2 per channel)", arguments: presets + shaderPresets)
    func golden(_ file: String) throws {
        let path = "/usr/share/projectM/presets/" + file
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is not installed (apt-get install projectm-data)")
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        var o = RenderOptions(input: Self.song, output: TestMedia.output("milkdrop-\(stem).png"))
        o.width = 96
        o.height = 54
        o.at = 1
        o.scene = MilkDropScene(path: path).preset
        _ = try RenderJob(options: o).run()
        let rgba = [UInt8](try TestMedia.run("ffmpeg", ["-v", "error", "-i", o.output, "-f", "rawvideo", "-pix_fmt", "rgba", "-"]))
        try? FileManager.default.removeItem(atPath: o.output)
        #expect(rgba.count == 96 * 54 * 4)
        // Not blank: a classic preset draws something within 1 s of music.
        var levels = Set<Int>()
        for i in stride(from: 0, to: rgba.count, by: 4) {
            let sum: Int = Int(rgba[i]) + Int(rgba[i + 1]) + Int(rgba[i + 2])
            levels.insert(sum)
        }
        #expect(levels.count > 8, "\(stem): a flat picture")
        Self.store.check("milkdrop-\(stem)", rgba, width: 96, height: 54)
    }
}
