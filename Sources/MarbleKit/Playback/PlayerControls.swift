import MarblePipeline

/// What a key asks the player to do.
enum PlayerCommand: Equatable {
    case togglePause
    case seek(by: Double)
    case nextPreset, previousPreset
    case raiseSensitivity, lowerSensitivity
    case quit, interrupt

    /// The key map: space, ←/→ (±5 s), n/p, +/-, q; Ctrl-C.
    init?(key: Key) {
        switch key {
        case .character(" "): self = .togglePause
        case .left: self = .seek(by: -5)
        case .right: self = .seek(by: 5)
        case .character("n"), .character("N"): self = .nextPreset
        case .character("p"), .character("P"): self = .previousPreset
        case .character("+"), .character("="): self = .raiseSensitivity
        case .character("-"), .character("_"): self = .lowerSensitivity
        case .character("q"), .character("Q"): self = .quit
        case .interrupt: self = .interrupt
        default: return nil
        }
    }
}

/// Turns commands into store events. The store is the one place the transport state lives: its
/// reducers send the playback engine a ``PlayerTransport`` as an effect; this only reports where
/// playback is before a relative command, and maps the rest.
struct PlayerControls: Sendable {
    let player: PlayerComponent
    let clock: AudioClock

    init(player: PlayerComponent, clock: AudioClock) {
        self.player = player
        self.clock = clock
    }

    /// Sends the events for a command; `heard` is the position being heard now.
    func apply(_ command: PlayerCommand, heard position: Double) {
        switch command {
        case .quit: player.send(.quitRequested)
        case .interrupt: player.send(.interrupted)
        case .togglePause:
            reportPosition(position)
            player.send(.playPauseToggled)
        case .seek(let delta):
            reportPosition(position)
            player.send(.seekRequested(by: delta))
        case .nextPreset: player.send(.nextPresetRequested)
        case .previousPreset: player.send(.previousPresetRequested)
        case .raiseSensitivity: player.send(.sensitivityRaised)
        case .lowerSensitivity: player.send(.sensitivityLowered)
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
        player.send(.positionAdvanced(to: position))
    }
}
