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

    init(player: PlayerComponent, pump: AudioPump) {
        self.player = player
        self.pump = pump
    }

    /// Applies a command; returns how the session ends if it does.
    func apply(_ command: PlayerCommand, heard position: Double) -> PlayOutcome? {
        switch command {
        case .quit: return .quit
        case .interrupt: return .interrupted
        case .togglePause:
            let before = player.snapshot.status
            reportPosition(position)
            player.send(.playPauseToggled)
            let after = player.snapshot
            if before == .ended && after.status == .playing { pump.seek(to: after.position) }
            pump.setPaused(after.status != .playing)
        case .seek(let delta):
            reportPosition(position)
            player.send(.seekRequested(by: delta))
            let after = player.snapshot
            pump.seek(to: after.position)
            pump.setPaused(after.status != .playing)
        case .nextPreset: player.send(.nextPresetRequested)
        case .previousPreset: player.send(.previousPresetRequested)
        case .raiseSensitivity: player.send(.sensitivityRaised)
        case .lowerSensitivity: player.send(.sensitivityLowered)
        }
        return nil
    }

    /// Whether `reading` describes playback after the last seek requested: until the pump reaches
    /// that seek, the clock still describes the old position, which must not be reported to the store.
    func isCurrent(_ reading: AudioClock.Reading) -> Bool {
        reading.generation == pump.requestedGeneration
    }

    /// Tells the store where playback is (before relative commands), unless a seek is on its way.
    func reportPosition(_ position: Double) {
        guard isCurrent(pump.clock.reading) else { return }
        player.send(.positionAdvanced(to: position))
    }
}
