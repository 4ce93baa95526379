/// The player's dependencies, as a struct of closures: `marble play` passes one that reports the
/// duration its ``PlayerSession`` read when it opened the file, tests pass their own.
public struct PlayerClient: Sendable {
    /// Opens the media file at `path` and returns its duration in seconds (0 if unknown).
    /// Throws an error whose description is a sentence a user understands.
    public var load: @Sendable (_ path: String) async throws -> Double

    public init(load: @escaping @Sendable (_ path: String) async throws -> Double) {
        self.load = load
    }
}
