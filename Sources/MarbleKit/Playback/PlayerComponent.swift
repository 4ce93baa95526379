import Granite

/// The state of `marble play`: source, transport, position, preset and sensitivity, in one
/// Granite store.
///
/// The UI and the playback engine send ``Event``s; the frame loop reads ``snapshot`` (a lock and a
/// copy, cheap and thread-safe) and never sends per frame. The playback clock sends
/// `positionAdvanced` a few times a second and `reachedEnd` once.
///
/// ```swift
/// let player = PlayerComponent(
///     availablePresets: names, settingsStore: PlayerSettingsStore.make(),
///     client: PlayerClient(load: probeDuration))
/// player.start()
/// player.send(.fileOpened(path: "song.mp3"))
/// ...
/// player.stop(); settingsStore.stop()   // writes a pending save
/// ```
public struct PlayerComponent: GraniteComponent {
    /// The store holding the player's state; send events to the component or to this store.
    public let store: GraniteStore<Center>
    /// Keeps the settings store in step with the player (see `init(availablePresets:settingsStore:…)`).
    private let settingsSync: GraniteSubscription?

    /// A player that starts from `settings` and does not record later changes (see the `settingsStore` initialiser for that).
    ///
    /// - Parameters:
    ///   - availablePresets: the preset names the player cycles through, in order.
    ///   - settings: the remembered preset and sensitivity. A preset that is not available falls
    ///     back to the first available one.
    ///   - keepOpen: whether the session goes on at the end of the media (else it ends there).
    ///   - client: the player's side effects (open a file, follow the transport); its closures run in
    ///     the store's effect tasks, never under the store's lock.
    ///   - clock: the clock effects sleep on; pass a `GraniteTestClock` in tests.
    public init(
        availablePresets: [String],
        settings: PlayerSettings = PlayerSettings(),
        keepOpen: Bool = true,
        client: PlayerClient,
        clock: any GraniteClock = GraniteSystemClock()
    ) {
        store = GraniteStore(
            center: Center(availablePresets: availablePresets, client: client),
            initialState: Self.initialState(availablePresets: availablePresets, settings: settings, keepOpen: keepOpen),
            clock: clock)
        settingsSync = nil
    }

    /// A player that starts from the settings in `settingsStore` and records every later change of
    /// preset or sensitivity there. The changes travel through the player's post-commit
    /// notifications, which arrive one at a time in commit order, so the last choice is the one
    /// saved.
    public init(
        availablePresets: [String],
        settingsStore: GraniteStore<PlayerSettingsCenter>,
        keepOpen: Bool = true,
        client: PlayerClient,
        clock: any GraniteClock = GraniteSystemClock()
    ) {
        store = GraniteStore(
            center: Center(availablePresets: availablePresets, client: client),
            initialState: Self.initialState(availablePresets: availablePresets, settings: settingsStore.state,
                                            keepOpen: keepOpen),
            clock: clock)
        settingsSync = store.subscribe(receiveCurrent: false) { state in
            let settings = state.settings
            if settingsStore.state != settings { settingsStore.send(.playerSettingsChanged(settings)) }
        }
    }

    /// The state a player starts in: idle, with the remembered settings applied; with `keepOpen` false
    /// the session ends at the end of the media.
    public static func initialState(availablePresets: [String], settings: PlayerSettings, keepOpen: Bool = true) -> State {
        let preset = settings.preset.flatMap { availablePresets.contains($0) ? $0 : nil }
            ?? availablePresets.first
        return State(preset: preset, sensitivity: settings.sensitivity, keepOpen: keepOpen)
    }

    /// The current state, for the frame loop: one lock hold and a copy.
    public var snapshot: State { store.state }
}
