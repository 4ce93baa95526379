import Granite

/// The player's dependencies, as a struct of closures: the live value is wired by `marble play`,
/// tests pass their own.
public struct PlayerClient: Sendable {
    /// Opens the media file at `path` and returns its duration in seconds (0 if unknown).
    /// Throws an error whose description is a sentence a user understands.
    public var load: @Sendable (_ path: String) async throws -> Double

    /// Told about every change of preset or sensitivity, e.g. to persist them.
    public var settingsChanged: @Sendable (PlayerSettings) -> Void

    public init(
        load: @escaping @Sendable (_ path: String) async throws -> Double,
        settingsChanged: @escaping @Sendable (PlayerSettings) -> Void = { _ in }
    ) {
        self.load = load
        self.settingsChanged = settingsChanged
    }
}

extension PlayerClient {
    /// Forwards settings changes to a persisted settings store (see ``PlayerSettingsStore``).
    public func persisting(to settings: GraniteStore<PlayerSettingsCenter>) -> PlayerClient {
        var client = self
        let previous = settingsChanged
        client.settingsChanged = { value in
            previous(value)
            if let preset = value.preset { settings.send(.presetChanged(preset)) }
            settings.send(.sensitivityChanged(value.sensitivity))
        }
        return client
    }
}
