import Foundation
import Granite

/// The persisted ``PlayerSettings``: `$XDG_CONFIG_HOME/marble/player.json`, or
/// `~/.config/marble/player.json` when `XDG_CONFIG_HOME` is unset, empty or relative (as the XDG
/// base directory spec says). Loaded synchronously; saved atomically, debounced, and on `stop()`.
public enum PlayerSettingsStore {
    /// The settings file's name inside the `marble` configuration folder.
    public static let fileName = "player.json"

    /// The settings file for this environment.
    public static func defaultFile(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        let configHome: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else if let home = environment["HOME"], !home.isEmpty {
            configHome = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config")
        } else {
            configHome = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        }
        return configHome.appendingPathComponent("marble", isDirectory: true).appendingPathComponent(fileName)
    }

    /// A settings store backed by `file`. A corrupt or unreadable file gives the defaults and one
    /// warning on `onWarning` (standard error by default); the next save replaces it.
    public static func make(
        file: URL = defaultFile(),
        autoSaveDelay: Duration = .milliseconds(500),
        clock: any GraniteClock = GraniteSystemClock(),
        onWarning: @escaping @Sendable (String) -> Void = GraniteLog.standardError
    ) -> GraniteStore<PlayerSettingsCenter> {
        GraniteStore(
            center: PlayerSettingsCenter(),
            initialState: PlayerSettings(),
            persistence: GranitePersistence(
                file: file, autoSave: true, autoSaveDelay: autoSaveDelay, preload: true, onWarning: onWarning),
            clock: clock)
    }
}
