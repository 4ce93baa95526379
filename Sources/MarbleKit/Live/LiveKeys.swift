import MarblePipeline
extension LiveComponent.Event {
    /// The key map of `marble live`: n/p preset, +/- sensitivity, q quit, Ctrl-C.
    init?(key: Key) {
        switch key {
        case .character("n"), .character("N"): self = .nextPresetRequested
        case .character("p"), .character("P"): self = .previousPresetRequested
        case .character("+"), .character("="): self = .sensitivityRaised
        case .character("-"), .character("_"): self = .sensitivityLowered
        case .character("q"), .character("Q"): self = .quitRequested
        case .interrupt: self = .interrupted
        default: return nil
        }
    }
}
