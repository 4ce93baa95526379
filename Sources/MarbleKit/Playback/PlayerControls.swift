import MarblePipeline

/// What a key asks the player to do: the transport's own keys, or the keys every session shares.
enum PlayerCommand: Equatable {
    case togglePause
    case seek(by: Double)
    case control(ControlEvent)

    /// The key map: space, ←/→ (±5 s), then the shared ones (``ControlEvent/init(key:)``: n/p, +/-, q, Ctrl-C).
    init?(key: Key) {
        switch key {
        case .character(" "): self = .togglePause
        case .left: self = .seek(by: -5)
        case .right: self = .seek(by: 5)
        default:
            guard let control = ControlEvent(key: key) else { return nil }
            self = .control(control)
        }
    }
}

/// Turns commands into store events. The store is the one place the transport state lives: its
/// reducers send the playback engine a ``PlayerTransport`` as an effect; this only reports where
/// playback is before a relative command, and maps the rest.
struct PlayerControls: Sendable {
    let player: SessionComponent
    let clock: AudioClock

    init(player: SessionComponent, clock: AudioClock) {
        self.player = player
        self.clock = clock
    }

    /// Sends the events for a command; `heard` is the position being heard now.
    func apply(_ command: PlayerCommand, heard position: Double) {
        switch command {
        case .control(let control): player.send(.controls(control))
        case .togglePause:
            reportPosition(position)
            player.send(.transport(.playPauseToggled))
        case .seek(let delta):
            reportPosition(position)
            player.send(.transport(.seekRequested(by: delta)))
        }
    }

    /// Whether `reading` describes playback after the store's last seek: until the engine reaches
    /// that seek, the clock still describes the old position, which must not be reported to the store.
    func isCurrent(_ reading: AudioClock.Reading) -> Bool {
        reading.generation == player.snapshot.seekGeneration
    }

    /// Tells the store where playback is (before relative commands), unless a seek is on its way.
    func reportPosition(_ position: Double) {
        guard isCurrent(clock.reading) else { return }
        player.send(.transport(.positionAdvanced(to: position)))
    }
}
