import Granite

extension SessionComponent {
    /// The transport of a file or a playlist: pause and resume, seek, the position the clock reports.
    /// Every change the engine must follow is sent to it as a versioned ``PlayerTransport`` (an effect).
    ///
    /// Seeks stay within the song playing: back past its start lands on its start, forward past its
    /// end on its end (which the engine then reports as the end of the media: the next song follows).
    /// A seek never crosses into another song, so ← at 0:02 of the second song replays it from 0:00.
    public struct TransportReducer: GranitePayloadReducer {
        public typealias Center = SessionComponent.Center
        /// Sends the transport to the engine.
        public let client: SessionClient

        /// Applies one transport event; a pause or a seek is returned as the effect that tells the engine.
        public func reduce(state: inout State, payload event: TransportEvent) -> GraniteEffect<Event> {
            switch event {
            case .playPauseToggled:
                switch state.status {
                case .playing: state.status = .paused
                case .paused: state.status = .playing
                case .ended:
                    state.position = 0
                    state.status = .playing
                    return follow(&state, seek: true)
                case .idle, .loading, .failed: return .none
                }
                return follow(&state, seek: false)
            case .seekRequested(let delta):
                guard state.status.hasMedia, delta.isFinite else { return .none }
                state.position = Self.clamped(state.position + delta, duration: state.duration)
                if state.status == .ended && state.position < state.duration { state.status = .paused }
                return follow(&state, seek: true)
            case .positionAdvanced(let time):
                guard state.status == .playing, time.isFinite else { return .none }
                state.position = Self.clamped(time, duration: state.duration)
                return .none
            }
        }

        /// A new transport version (and, for a seek, a new clock generation to the current position),
        /// sent to the engine by an effect.
        func follow(_ state: inout State, seek: Bool) -> GraniteEffect<Event> {
            state.transportVersion += 1
            if seek { state.seekGeneration += 1 }
            let command = PlayerTransport(
                version: state.transportVersion, paused: state.status != .playing,
                seek: seek ? PlayerTransport.Seek(seconds: state.position, generation: state.seekGeneration) : nil)
            return .run(id: Center.transportID) { [client] _ in await client.follow(command) }
        }

        /// `time` within `0 ... duration`; only the lower bound while the duration is unknown (0).
        static func clamped(_ time: Double, duration: Double) -> Double {
            let lower = max(0, time)
            return duration > 0 ? min(lower, duration) : lower
        }
    }
}
