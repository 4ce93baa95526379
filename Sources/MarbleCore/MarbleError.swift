/// The one error type users see: a one-line message that names what went wrong and where.
public struct MarbleError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: String, Sendable {
        case input          // a file that cannot be opened, has no audio, or does not decode
        case output         // an output path that cannot be written or encoded
        case preset         // a preset file or name that is wrong
        case option         // a bad command-line value
        case media          // an FFmpeg failure inside the pipeline
        case device         // audio device / PulseAudio
        case cancelled      // the user stopped the job
    }
    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}
