import Granite

/// The state of a real-time session (`marble play`, `marble live`) in one Granite store: the look
/// and the end every session shares, and its input's part, the transport of its songs or the
/// connection of its capture (see ``Center`` for how the reducers compose).
///
/// The keys, the engine's facts (a song started, the media ended, the capture reconnected) and the
/// frame source's end arrive as ``Event``s; loading, following the transport, connecting and
/// disconnecting run as effects. The frame path reads ``snapshot`` (a lock and a copy) once per frame
/// and never sends per frame.
///
/// ```swift
/// let session = SessionComponent(input: .file("song.mp3"), availablePresets: names,
///                                client: SessionClient(load: probeDuration))
/// session.start()                           // loads the first song: .loadFinished follows
/// session.send(.transport(.seekRequested(by: 5)))
/// session.send(.controls(.quitRequested))   // outcome .quit; the input is disconnected
/// session.stop()                            // a session still running ends as .interrupted
/// ```
public struct SessionComponent: GraniteComponent {
    /// The store holding the session's state; send events to the component or to this store.
    public let store: GraniteStore<Center>
    /// Keeps the settings store in step with the session (see `init(input:availablePresets:settingsStore:…)`).
    private let settingsSync: GraniteSubscription?
    /// The preset names (or files) the keys cycle through, in order.
    public let availablePresets: [String]

    /// A session that starts from `settings` and does not record later changes.
    ///
    /// - Parameters:
    ///   - input: what the session plays (its songs) or captures (the source asked for).
    ///   - availablePresets: the preset names the keys cycle through, in order.
    ///   - settings: the preset and sensitivity to start with; a preset that is not available falls
    ///     back to the first available one.
    ///   - keepOpen: whether the session goes on at the end of the last song (else it ends there).
    ///   - client: the input's side effects; its closures run in the store's effect tasks.
    ///   - clock: the clock effects sleep on; pass a `GraniteTestClock` in tests.
    public init(input: SessionInput, availablePresets: [String], settings: PlayerSettings = PlayerSettings(),
                keepOpen: Bool = false, client: SessionClient, clock: any GraniteClock = GraniteSystemClock()) {
        self.availablePresets = availablePresets
        store = GraniteStore(
            center: Center(availablePresets: availablePresets, client: client),
            initialState: Self.initialState(input: input, availablePresets: availablePresets, settings: settings,
                                            keepOpen: keepOpen),
            clock: clock)
        settingsSync = nil
    }

    /// A session that starts from the settings in `settingsStore` and records every later change of
    /// preset or sensitivity there. The changes travel through the store's post-commit notifications,
    /// which arrive one at a time in commit order, so the last choice is the one saved.
    public init(input: SessionInput, availablePresets: [String], settingsStore: GraniteStore<PlayerSettingsCenter>,
                keepOpen: Bool = false, client: SessionClient, clock: any GraniteClock = GraniteSystemClock()) {
        self.availablePresets = availablePresets
        store = GraniteStore(
            center: Center(availablePresets: availablePresets, client: client),
            initialState: Self.initialState(input: input, availablePresets: availablePresets,
                                            settings: settingsStore.state, keepOpen: keepOpen),
            clock: clock)
        settingsSync = store.subscribe(receiveCurrent: false) { state in
            let settings = state.settings
            if settingsStore.state != settings { settingsStore.send(.playerSettingsChanged(settings)) }
        }
    }

    /// The state a session starts in: idle, with `settings` applied (a preset that is not available
    /// gives the first available one).
    public static func initialState(input: SessionInput, availablePresets: [String],
                                    settings: PlayerSettings = PlayerSettings(), keepOpen: Bool = false) -> State {
        let preset = settings.preset.flatMap { availablePresets.contains($0) ? $0 : nil } ?? availablePresets.first
        var requested: String?
        if case .capture(let source) = input { requested = source }
        return State(preset: preset, sensitivity: settings.sensitivity, songs: input.songs, loop: input.loops,
                     keepOpen: keepOpen, requestedSource: requested)
    }

    /// The current state, for the frame path: one lock hold and a copy.
    public var snapshot: State { store.state }
}
