import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where and how a store keeps its state on disk (Granite's `@Store(persist:autoSave:preload:)`).
///
/// - `file`: the JSON file. Its folder is created on the first save.
/// - `autoSave`: save after changes, debounced: the write happens once `autoSaveDelay` has passed
///   on the store clock without a further change, and always on ``GraniteStore/stop()``.
/// - `preload`: load synchronously in the store's initialiser (the state is ready at once);
///   otherwise load in the background, see ``GraniteStore/isLoaded`` and ``GraniteStore/didLoad()``.
///
/// Writes are atomic: the snapshot goes to a temporary file in the same folder, is flushed, and is
/// renamed over the old file, so a crash leaves the old file or the new one, never half of one.
/// A missing file gives the initial state silently; an unreadable or corrupt one gives the initial
/// state and a warning (the corrupt file is kept beside it as `<name>.corrupt`). Never a crash.
public struct GranitePersistence<State: GraniteState>: Sendable {
    /// The JSON file the state is kept in; its folder is created on the first save.
    public var file: URL
    /// Whether committed changes are saved by themselves (debounced by ``autoSaveDelay``, and on stop).
    public var autoSave: Bool
    /// How long the state must stay unchanged, on the store's clock, before an automatic save writes it.
    public var autoSaveDelay: Duration
    /// Whether the store's initialiser loads the file synchronously (otherwise it loads in the background).
    public var preload: Bool
    /// Receives warnings (unreadable or corrupt file, failed save). Default: standard error.
    public var onWarning: @Sendable (String) -> Void

    /// Persistence in `file`; see the properties for the other parameters.
    public init(
        file: URL,
        autoSave: Bool = true,
        autoSaveDelay: Duration = .milliseconds(500),
        preload: Bool = true,
        onWarning: @escaping @Sendable (String) -> Void = GraniteLog.standardError
    ) {
        self.file = file
        self.autoSave = autoSave
        self.autoSaveDelay = autoSaveDelay
        self.preload = preload
        self.onWarning = onWarning
    }

    /// The persisted state, or `nil` (with a warning unless the file simply does not exist).
    public func load() -> State? {
        let path = file.path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            onWarning("Could not read \(path) (\(error.localizedDescription)); using the defaults.")
            return nil
        }
        do {
            return try JSONDecoder().decode(State.self, from: data)
        } catch {
            let backup = path + ".corrupt"
            let kept = rename(path, backup) == 0
            onWarning(
                "\(path) is not a valid saved state (\(Self.describe(error))); using the defaults."
                    + (kept ? " The unreadable file was kept as \(backup)." : ""))
            return nil
        }
    }

    /// Encodes `state` as JSON and replaces the file atomically (temporary file + rename).
    public func save(_ state: State) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(state)
        try Self.writeAtomically(data, to: file)
    }

    /// A symbolic link (a settings file kept in a dotfiles repository) is followed, so its target is
    /// replaced and the link stays; anything but a regular file at the destination is refused rather
    /// than renamed over.
    static func writeAtomically(_ data: Data, to link: URL) throws {
        let file = link.resolvingSymlinksInPath()
        var info = stat()
        if stat(file.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw GranitePersistenceError.notARegularFile(path: file.path)
        }
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(
            ".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp")
        do {
            try data.write(to: temporary)
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.synchronize()
            try handle.close()
            guard rename(temporary.path, file.path) == 0 else {
                throw GranitePersistenceError.renameFailed(path: file.path, errno: errno)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context),
             DecodingError.keyNotFound(_, let context),
             DecodingError.typeMismatch(_, let context),
             DecodingError.valueNotFound(_, let context):
            return context.debugDescription
        default:
            return "\(error)"
        }
    }
}

/// Why a save failed; thrown by ``GranitePersistence/save(_:)`` and ``GraniteStore/save()``.
public enum GranitePersistenceError: Error, Equatable, CustomStringConvertible {
    /// The snapshot was written to a temporary file but could not be renamed over `path` (`errno` says why).
    case renameFailed(path: String, errno: Int32)
    /// A folder, a device or a FIFO where the file should be: never renamed over.
    case notARegularFile(path: String)

    /// A sentence naming the file and the reason.
    public var description: String {
        switch self {
        case .renameFailed(let path, let code):
            return "Could not replace \(path): \(String(cString: strerror(code)))"
        case .notARegularFile(let path):
            return "Could not save to \(path): it is not a regular file"
        }
    }
}
