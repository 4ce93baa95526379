import Foundation
import MarbleCore
@testable import MarbleKit
import MarbleRender
import TestSupport
import Testing

/// Golden images of classic MilkDrop presets from Debian's projectm-data (installed by CI; the
/// presets themselves are not in the repository): the whole render path at 96x54, the frame at 3 s of
/// Samples/sample.ogg, within 2 levels per channel. Skipped where the package is not installed.
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

    @Test("each classic preset matches its golden image (96x54, 3 s of the sample, ±2 per channel)", arguments: presets)
    func golden(_ file: String) throws {
        let path = "/usr/share/projectM/presets/" + file
        guard FileManager.default.fileExists(atPath: path) else {
            print("skipped: \(path) is not installed (apt-get install projectm-data)")
            return
        }
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        var o = RenderOptions(input: Self.song, output: TestMedia.output("milkdrop-\(stem).png"))
        o.width = 96
        o.height = 54
        o.at = 3
        o.scene = MilkDropScene(path: path).preset
        _ = try RenderJob(options: o).run()
        let rgba = [UInt8](try TestMedia.run("ffmpeg", ["-v", "error", "-i", o.output, "-f", "rawvideo", "-pix_fmt", "rgba", "-"]))
        try? FileManager.default.removeItem(atPath: o.output)
        #expect(rgba.count == 96 * 54 * 4)
        // Not blank: a classic preset draws something within 3 s of music.
        var levels = Set<Int>()
        for i in stride(from: 0, to: rgba.count, by: 4) {
            let sum: Int = Int(rgba[i]) + Int(rgba[i + 1]) + Int(rgba[i + 2])
            levels.insert(sum)
        }
        #expect(levels.count > 8, "\(stem): a flat picture")
        Self.store.check("milkdrop-\(stem)", rgba, width: 96, height: 54)
    }
}
