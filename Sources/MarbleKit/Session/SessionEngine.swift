import MarbleCore
import MarblePipeline

/// What one kind of input brings to a ``RealTimeSession``: the store's side effects, the facts it
/// reports, its keys, and its part of the frame path. The session does the rest (the store's start,
/// the screens, the keys' thread, the end) the same way for all of them.
///
/// Two engines: ``PlayerEngine`` (songs heard through the speakers, the sound card the clock, with a
/// transport) and ``LiveEngine`` (a capture, or songs paced on the system clock, with recordings and
/// streams).
protocol SessionEngine: AnyObject {
    /// The store's side effects for this input: load, follow the transport, connect, disconnect.
    var client: SessionClient { get }
    /// What the input is heard from (a capture source, the song playing), for the summary; nil if unknown.
    var name: String? { get }
    /// Songs skipped, damaged packets: one line each, for after the screens are restored.
    var warnings: [String] { get }
    /// Outputs that failed inside an encoding shared with others (their files removed), one error each.
    var lostOutputs: [MarbleError] { get }
    /// Reports the input's facts to `store` as events: a song started, the capture's state.
    func report(to store: SessionComponent)
    /// What a key does: the transport's keys for songs, then the keys every session shares.
    func keys(_ store: SessionComponent) -> @Sendable (Key) -> Void
    /// This run's part of the frame path, at `size`: the source and the sinks before the screens'.
    func framePath(store: SessionComponent, size: (width: Int, height: Int), starting: StartingScene,
                   presets: [String]) throws(MarbleError) -> EnginePath
    /// Starts what plays from the frame path's time 0 (the audio thread, the recordings' timeline).
    func start(store: SessionComponent)
    /// The frame path ended by itself (not by the store): the source's fact, for the store to reduce.
    func sourceEnded(store: SessionComponent)
    /// Stops the input's threads (idempotent).
    func stop()
}

/// An engine's part of one run's frame path.
struct EnginePath {
    /// The frames' source.
    let source: any FrameSource
    /// The engine's own sinks (recordings, streams), before the screens'.
    let sinks: [any FrameSink]
    /// The terminal's status row (called on the terminal sink's thread).
    let status: () -> [UInt8]
    /// How often the pipeline reports progress, in seconds, and what takes it (the status row's figures).
    let progressInterval: Double
    let progress: (PipelineStatistics) -> Void
}
