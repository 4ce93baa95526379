internal import CPulse
import MarbleCore

/// Plays interleaved float32 stereo through PulseAudio: a thin wrapper over `pa_simple` playback.
///
/// One instance belongs to one thread (the player's audio thread): `pa_simple` makes no promise about
/// calls from several threads, so every call here, including ``latency()``, comes from that thread,
/// which publishes what others need (see ``AudioClock``).
///
/// Every failure is a ``MarbleError`` of kind `.device` whose message ends with `pa_strerror`'s words.
package final class PulseAudioOutput: AudioOutput {
    package let sampleRate: Int
    private let connection: OpaquePointer

    /// Connects to the server (`pa_simple_new`, default server unless `$PULSE_SERVER` says otherwise)
    /// and opens a playback stream on `device` (the default sink when nil).
    ///
    /// - Parameter bufferSeconds: target latency of the stream (`tlength`); with the stream flag
    ///   `PA_STREAM_ADJUST_LATENCY`, which `pa_simple` sets, this bounds sink + buffer latency.
    /// - Throws: `.device` when no server answers, the sink does not exist, or the format is refused.
    package init(sampleRate: Int, device: String?, streamName: String, bufferSeconds: Double = 0.1) throws(MarbleError) {
        self.sampleRate = sampleRate
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: 2)
        let bytesPerSecond = Double(sampleRate * Self.bytesPerFrame)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32(bytesPerSecond * bufferSeconds),
            prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
        var code: Int32 = 0
        let made = pa_simple_new(nil, "marble", PA_STREAM_PLAYBACK, device, streamName, &spec, nil, &attributes, &code)
        guard let made else {
            let target = device.map { "sink \"\($0)\"" } ?? "the default sink"
            throw MarbleError(.device, "cannot play through PulseAudio (\(target)): \(Self.describe(code))")
        }
        connection = made
    }

    deinit { pa_simple_free(connection) }

    /// Interleaved float32 stereo.
    static let bytesPerFrame = 8

    /// Writes `frames` interleaved stereo frames (`pa_simple_write`); blocks while the stream's buffer
    /// is full, so the caller is paced by the sound card's clock.
    package func write(_ samples: UnsafePointer<Float>, frames: Int) throws(MarbleError) {
        var code: Int32 = 0
        if pa_simple_write(connection, samples, frames * Self.bytesPerFrame, &code) < 0 {
            throw MarbleError(.device, "PulseAudio playback failed: \(Self.describe(code))")
        }
    }

    /// Seconds between a sample written now and the moment it is heard (`pa_simple_get_latency`):
    /// the stream's buffer plus the sink's own latency.
    package func latency() throws(MarbleError) -> Double {
        var code: Int32 = 0
        let usec = pa_simple_get_latency(connection, &code)
        if usec == pa_usec_t.max { throw MarbleError(.device, "PulseAudio latency query failed: \(Self.describe(code))") }
        return Double(usec) / 1e6
    }

    /// Drops what is buffered and not yet heard (`pa_simple_flush`), for a seek.
    package func flush() throws(MarbleError) {
        var code: Int32 = 0
        if pa_simple_flush(connection, &code) < 0 {
            throw MarbleError(.device, "PulseAudio flush failed: \(Self.describe(code))")
        }
    }

    /// Waits until everything written has been played (`pa_simple_drain`): at the end of the media.
    package func drain() throws(MarbleError) {
        var code: Int32 = 0
        if pa_simple_drain(connection, &code) < 0 {
            throw MarbleError(.device, "PulseAudio drain failed: \(Self.describe(code))")
        }
    }

    /// `pa_strerror` as a Swift string.
    private static func describe(_ code: Int32) -> String {
        guard let text = pa_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
