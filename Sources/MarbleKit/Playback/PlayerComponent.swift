import Granite

/// The state of `marble play`: source, transport, position, preset and sensitivity, in one
/// Granite store.
///
/// The UI and the playback engine send ``Event``s; the frame loop reads ``snapshot`` (a lock and a
/// copy, cheap and thread-safe) and never sends per frame. The playback clock sends
/// `positionAdvanced` a few times a second and `reachedEnd` once.
///
/// ```swift
/// let settings = PlayerSettingsStore.make()
/// let player = PlayerComponent(
///     availablePresets: names, settings: settings.state,
///     client: PlayerClient(load: probeDuration).persisting(to: settings))
/// player.start()
/// player.send(.fileOpened(path: "song.mp3"))
/// ```
public struct PlayerComponent: GraniteComponent {
    public let store: GraniteStore<Center>

    /// - Parameters:
    ///   - availablePresets: the preset names the player cycles through, in order.
    ///   - settings: the remembered preset and sensitivity. A preset that is not available falls
    ///     back to the first available one.
    public init(
        availablePresets: [String],
        settings: PlayerSettings = PlayerSettings(),
        client: PlayerClient,
        clock: any GraniteClock = GraniteSystemClock()
    ) {
        store = GraniteStore(
            center: Center(availablePresets: availablePresets, client: client),
            initialState: Self.initialState(availablePresets: availablePresets, settings: settings),
            clock: clock)
    }

    /// The state a player starts in: idle, with the remembered settings applied.
    public static func initialState(availablePresets: [String], settings: PlayerSettings) -> State {
        let preset = settings.preset.flatMap { availablePresets.contains($0) ? $0 : nil }
            ?? availablePresets.first
        return State(preset: preset, sensitivity: settings.sensitivity)
    }

    /// The current state, for the frame loop: one lock hold and a copy.
    public var snapshot: State { store.state }
}
