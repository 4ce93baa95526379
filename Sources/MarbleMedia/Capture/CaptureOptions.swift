import MarbleCore

/// What live capture listens to and how: the PulseAudio source, the rate the server resamples to, and
/// how often data is handed over.
public struct CaptureOptions: Sendable, Equatable {
    /// A PulseAudio source name (`pactl list short sources`). nil: the monitor of the default sink
    /// (what is playing), following switches of the default sink.
    public var source: String?
    /// Samples per second per channel; the server resamples the source to this.
    public var sampleRate: Int = 48_000
    /// The requested fragment size (`fragsize`) in seconds: how much sound each hand-over carries, so
    /// the capture latency. 0.005…0.05.
    public var fragmentSeconds: Double = 0.010
    /// When no server answers at start: keep trying (every 250 ms) instead of failing.
    public var waitForServer: Bool = false
    /// A PulseAudio server string (e.g. `unix:/run/user/1000/pulse/native`). nil: libpulse's default
    /// (`$PULSE_SERVER`, then the socket under `$XDG_RUNTIME_DIR`).
    public var server: String? = nil

    /// Options for capturing `source` (nil: the default sink's monitor) with the other values at their defaults.
    public init(source: String? = nil) {
        self.source = source
    }

    /// Checks the values that do not need a server. Errors are `.option`, one sentence each.
    public func validate() throws(MarbleError) {
        guard (8_000...192_000).contains(sampleRate) else {
            throw MarbleError(.option, "capture sample rate \(sampleRate): must be between 8000 and 192000 Hz")
        }
        guard fragmentSeconds.isFinite, (0.005...0.05).contains(fragmentSeconds) else {
            throw MarbleError(.option, "capture fragment \(fragmentSeconds) s: must be between 0.005 and 0.05 s (5–50 ms)")
        }
        if let source, source.isEmpty {
            throw MarbleError(.option, "capture source: the name is empty (leave it out for the default sink's monitor)")
        }
        if let server, server.isEmpty {
            throw MarbleError(.option, "PulseAudio server: the address is empty (leave it out for the default server)")
        }
    }

    /// Bytes of one interleaved float32 stereo frame: what the capture stream asks the server for.
    static let bytesPerFrame = 8

    /// Frames in one requested fragment (at least one).
    var fragmentFrames: Int { max(1, Int((fragmentSeconds * Double(sampleRate)).rounded())) }
}
