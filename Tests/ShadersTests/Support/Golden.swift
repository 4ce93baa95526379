import Foundation
import Testing
import TestSupport

/// The shaders' golden images (Golden/GoldenImages/<name>.pam; see `GoldenStore` for the format and how
/// to regenerate them: `Scripts/update-goldens.sh ShadersTests`).
enum Golden {
    static let store = GoldenStore(
        folder: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden/GoldenImages"))

    /// Compares `bytes` with the stored image `name` within `tolerance` per channel.
    static func check(_ name: String, _ bytes: [UInt8], width: Int, height: Int, tolerance: Int = 2,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        store.check(name, bytes, width: width, height: height, tolerance: tolerance, sourceLocation: sourceLocation)
    }
}
