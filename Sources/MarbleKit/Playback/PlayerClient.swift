/// The player's dependencies, as a struct of closures: `marble play` passes the live value (an
/// FFmpeg probe), tests pass their own.
public struct PlayerClient: Sendable {
    /// Opens the media file at `path` and returns its duration in seconds (0 if unknown).
    /// Throws an error whose description is a sentence a user understands.
    public var load: @Sendable (_ path: String) async throws -> Double

    public init(load: @escaping @Sendable (_ path: String) async throws -> Double) {
        self.load = load
    }
}
