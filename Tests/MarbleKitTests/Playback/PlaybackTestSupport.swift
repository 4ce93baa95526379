import Granite
@testable import MarbleKit
import TestSupport

/// A player test store whose failures become Swift Testing issues.
func makePlayerTestStore(
    presets: [String] = ["aura", "granite", "vinyl"],
    settings: PlayerSettings = PlayerSettings(),
    client: PlayerClient,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> GraniteTestStore<PlayerComponent.Center> {
    makeTestStore(
        PlayerComponent.Center(availablePresets: presets, client: client),
        PlayerComponent.initialState(availablePresets: presets, settings: settings),
        fileID: fileID, filePath: filePath, line: line, column: column)
}

struct MediaError: Error, CustomStringConvertible {
    let description: String
}
