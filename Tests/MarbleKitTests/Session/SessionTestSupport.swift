import Granite
@testable import MarbleKit
import TestSupport

/// A session test store whose failures become Swift Testing issues: by default a file, song.mp3,
/// kept open at its end (space plays it again).
func makeSessionTestStore(
    input: SessionInput = .file("song.mp3"),
    presets: [String] = ["aura", "granite", "vinyl"],
    settings: PlayerSettings = PlayerSettings(),
    keepOpen: Bool = true,
    client: SessionClient,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) -> GraniteTestStore<SessionComponent.Center> {
    makeTestStore(
        SessionComponent.Center(availablePresets: presets, client: client),
        SessionComponent.initialState(input: input, availablePresets: presets, settings: settings, keepOpen: keepOpen),
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// A load error whose description is the sentence the user sees.
struct MediaError: Error, CustomStringConvertible {
    let description: String
}
