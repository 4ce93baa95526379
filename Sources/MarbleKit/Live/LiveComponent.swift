import Granite

/// The state of `marble live` in one Granite store: the source, the connection, the look, and how
/// the session ended.
///
/// The capture's state changes, the keys and the frame source's end arrive as ``Event``s; connecting
/// and disconnecting run as effects. The frame path reads ``snapshot`` (a lock and a copy) once per
/// frame and never sends per frame.
///
/// ```swift
/// let live = LiveComponent(availablePresets: names, preset: "spectrum", client: .capturing(capture))
/// live.start()                       // connects; .captureStarted or .captureFailed follows
/// ...
/// live.send(.controls(.quitRequested)) // outcome .quit; the capture is disconnected
/// live.stop()                         // a session still running ends as .interrupted
/// ```
public struct LiveComponent: GraniteComponent {
    /// The store holding the session's state; send events to the component or to this store.
    public let store: GraniteStore<Center>

    /// A live session's state, idle until `start()`.
    ///
    /// - Parameters:
    ///   - availablePresets: the preset names the keys cycle through, in order.
    ///   - requestedSource: the capture source asked for, or nil for the default sink's monitor.
    ///   - preset: the preset to start with; a name that is not available falls back to the first one.
    ///   - sensitivity: the starting sensitivity, clamped to ``Sensitivity/range``.
    ///   - client: connects and disconnects the capture (``LiveClient/capturing(_:)`` for a real one).
    ///   - clock: the clock effects sleep on; pass a `GraniteTestClock` in tests.
    public init(availablePresets: [String], requestedSource: String? = nil, preset: String? = nil,
                sensitivity: Float = Sensitivity.default, client: LiveClient,
                clock: any GraniteClock = GraniteSystemClock()) {
        let chosen = preset.flatMap { availablePresets.contains($0) ? $0 : nil } ?? availablePresets.first
        store = GraniteStore(
            center: Center(availablePresets: availablePresets, client: client),
            initialState: State(requestedSource: requestedSource, preset: chosen, sensitivity: sensitivity),
            clock: clock)
    }

    /// The current state, for the frame path: one lock hold and a copy.
    public var snapshot: State { store.state }
}
