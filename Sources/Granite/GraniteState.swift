/// The one value a ``GraniteCenter`` holds.
///
/// It must be plain data: `Codable` so that ``GranitePersistence`` can store it, `Equatable` so that
/// stores notify only real changes and tests can compare it, `Sendable` so that snapshots can be
/// handed to any thread (the frame loop reads them without going through reducers).
public protocol GraniteState: Codable, Equatable, Sendable {}
