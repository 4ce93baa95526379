import Foundation
import Granite
import MarbleKit
import Synchronization
import Testing
import TestSupport

/// A player test store whose failures become Swift Testing issues.
func makePlayerTestStore(
    presets: [String] = ["aura", "granite", "vinyl"],
    settings: PlayerSettings = PlayerSettings(),
    client: PlayerClient,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> GraniteTestStore<PlayerComponent.Center> {
    GraniteTestStore(
        center: PlayerComponent.Center(availablePresets: presets, client: client),
        initialState: PlayerComponent.initialState(availablePresets: presets, settings: settings),
        fileID: fileID, filePath: filePath, line: line, column: column,
        reportIssue: recordIssue)
}

struct MediaError: Error, CustomStringConvertible {
    let description: String
}
