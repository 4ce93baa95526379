import Foundation
import MarbleCore
@testable import MarbleKit
import MarbleRender
import TestSupport
import Testing

/// A golden image for every bundled preset (the list is read from the presets folder, so a new preset
/// without one fails): the whole render path (analysis of the bundled song, bindings, compositor, the
/// PNG writer) at 64x36, the frame at 6.1 s of Samples/sample.ogg, within 2 levels per channel.
/// The images are GoldenImages/<name>.pam (see `GoldenStore`); regenerate them with
/// `Scripts/update-goldens.sh EveryPresetGoldenTests`, which lists what changed.
@Suite("Every preset's golden image", .serialized)
struct EveryPresetGoldenTests {
    static let store = GoldenStore(
        folder: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GoldenImages"))
    static let song = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/sample.ogg").path

    @Test("every bundled preset matches its golden image (64x36, 6.1 s of the sample, ±2 per channel)",
          arguments: PresetLibrary.names())
    func golden(_ name: String) throws {
        var o = RenderOptions(input: Self.song, output: TestMedia.output("golden-\(name).png"))
        o.width = 64
        o.height = 36
        o.at = 6.1
        o.preset = name
        _ = try RenderJob(options: o).run()
        let rgba = [UInt8](try TestMedia.run("ffmpeg", ["-v", "error", "-i", o.output, "-f", "rawvideo", "-pix_fmt", "rgba", "-"]))
        try? FileManager.default.removeItem(atPath: o.output)
        Self.store.check("preset-\(name)", rgba, width: 64, height: 36)
    }
}
