import MarbleMedia

extension SessionComponent {
    /// What happened to a real-time session, named after the fact: the session's lifecycle, the keys
    /// every session shares, the songs (load, their changes, the end of the media), and the events of
    /// its input, the transport (``TransportEvent``) or the connection (``ConnectionEvent``).
    public enum Event: Equatable, Sendable {
        /// The session started (the component's `onStart`): the first song loads, or a capture connects.
        case sessionStarted
        /// The component stopped (its `onStop`, after the store cancelled its effects): a session still
        /// running ends as interrupted, and the input is disconnected in any case.
        case componentStopped
        /// A key or a signal every session shares (preset, sensitivity, quit), reduced by ``SessionControlsReducer``.
        case controls(ControlEvent)
        /// A file is to play: a song of the list (the next one, or one picked) or any other file. Loading
        /// starts (the load effect; any load in flight is cancelled).
        case load(path: String)
        /// The file is ready (sent by the load effect): playing starts at 0.
        case loadFinished(duration: Double)
        /// The file could not be opened (sent by the load effect).
        case loadFailed(message: String)
        /// The input played its media to the end (a file, or a playlist's feed ran out): the store decides
        /// what follows (the next song, the first again with `loop`, the end of the session).
        case mediaEnded
        /// The input started playing a song of the list: its index and title.
        case songChanged(index: Int, title: String)
        /// The frame source reached `--duration`.
        case durationReached
        /// The transport of a file or a playlist (pause, seek, position).
        case transport(TransportEvent)
        /// The connection of a capture.
        case connection(ConnectionEvent)
    }

    /// What happens to the transport of a file or a playlist, reduced by ``TransportReducer``.
    public enum TransportEvent: Equatable, Sendable {
        /// Play ⇄ pause; from `ended`, plays the song again from its start.
        case playPauseToggled
        /// Seek by a signed number of seconds, clamped to the song (the start of the song at the
        /// earliest, its end at the latest: a seek never crosses into another song).
        case seekRequested(by: Double)
        /// The playback clock moved (a few times a second, not per frame). Only while playing.
        case positionAdvanced(to: Double)
    }

    /// What happens to a capture, reduced by ``ConnectionReducer``.
    public enum ConnectionEvent: Equatable, Sendable {
        /// The capture is running (sent by the connect effect), from the named source or, with
        /// `--wait`, still waiting for a server (nil).
        case started(source: String?)
        /// The capture could not start (sent by the connect effect).
        case failed(kind: String, message: String)
        /// The capture reported a new state (connected, reconnecting, the default sink switched).
        case changed(CaptureState)
    }
}
