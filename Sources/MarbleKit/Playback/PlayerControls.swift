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

/// Turns commands into store events, then makes the audio thread follow the store: the store is the
/// one place the transport state lives; the pump only mirrors it (paused or not, where to seek).
struct PlayerControls {
    let player: PlayerComponent
    let pump: AudioPump

    /// The clock generation the last seek will produce: until the pump reaches it, the clock still
    /// describes the old position and must not be reported to the store.
    private(set) var expectedGeneration = 0

    init(player: PlayerComponent, pump: AudioPump) {
        self.player = player
        self.pump = pump
    }

    /// Applies a command; returns how the session ends if it does.
    mutating func apply(_ command: PlayerCommand, heard position: Double) -> PlayOutcome? {
        switch command {
        case .quit: return .quit
        case .interrupt: return .interrupted
        case .togglePause:
            let before = player.snapshot.status
            reportPosition(position)
            player.send(.playPauseToggled)
            let after = player.snapshot
            if before == .ended && after.status == .playing { seek(to: after.position) }
            pump.setPaused(after.status != .playing)
        case .seek(let delta):
            reportPosition(position)
            player.send(.seekRequested(by: delta))
            let after = player.snapshot
            seek(to: after.position)
            pump.setPaused(after.status != .playing)
        case .nextPreset: player.send(.nextPresetRequested)
        case .previousPreset: player.send(.previousPresetRequested)
        case .raiseSensitivity: player.send(.sensitivityRaised)
        case .lowerSensitivity: player.send(.sensitivityLowered)
        }
        return nil
    }

    /// Tells the store where playback is (a few times a second, and before relative commands).
    func reportPosition(_ position: Double) {
        guard pump.clock.reading.generation == expectedGeneration else { return }
        player.send(.positionAdvanced(to: position))
    }

    private mutating func seek(to position: Double) {
        expectedGeneration += 1
        pump.seek(to: position)
    }
}
