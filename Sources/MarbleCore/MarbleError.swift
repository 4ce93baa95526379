/// The one error type users see: a one-line message that names what went wrong and where.
public struct MarbleError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, broadly; the command-line tool maps it to its exit code.
    public enum Kind: String, Sendable {
        /// A file that cannot be opened, has no audio, or does not decode.
        case input
        /// An output path that cannot be written or encoded.
        case output
        /// A preset file or name that is wrong.
        case preset
        /// A bad option value (on the command line or in an options struct).
        case option
        /// An FFmpeg failure inside the pipeline.
        case media
        /// A sound device or display that cannot be used: no PulseAudio server, an unknown sink, no window.
        case device
        /// The user stopped the job.
        case cancelled
        /// A failure while the work ran, after every check had passed (a write that failed, a full
        /// disk, an FFmpeg or memory failure): trying again may succeed, so a farm retries it.
        case transient
    }

    /// The same message as a ``Kind/transient`` failure when it is an output or FFmpeg failure (the
    /// kinds a retry can cure once the checks have passed); other kinds stay as they are.
    public var asFailureWhileRunning: MarbleError {
        kind == .output || kind == .media ? MarbleError(.transient, message) : self
    }
    /// The category of the failure.
    public let kind: Kind
    /// One sentence for a person, naming the file, option or device concerned.
    public let message: String

    /// An error of `kind` with `message`, one sentence without a trailing newline.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    /// The message, as shown to the user.
    public var description: String { message }
}
