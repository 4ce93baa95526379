internal import CPulse
import MarbleCore

/// One record stream (`pa_stream`) on a source: interleaved float32 stereo at the capture's rate, with
/// a fragment size (`fragsize`) of one fragment and `PA_STREAM_ADJUST_LATENCY`, so the server hands
/// data over every fragment (left unset, fragsize defaults to about 2 s).
///
/// Use it on the loop's thread or with the loop's lock held; its closures run on the loop's thread.
/// The C callbacks get this object as unretained userdata; `close()` (also run by deinit) clears them
/// before the object can go away.
final class CaptureStream {
    enum Phase: Equatable {
        case ready
        /// Failed or ended (`PA_STREAM_FAILED`, `PA_STREAM_TERMINATED`), with `pa_strerror`'s words.
        case ended(String)
    }

    /// The source being recorded; updated when the server moves the stream.
    private(set) var source: String
    private var handle: OpaquePointer?
    private let onData: (_ bytes: UnsafeRawPointer?, _ frames: Int) -> Void
    private let onPhase: (CaptureStream, Phase) -> Void
    private let onMoved: (CaptureStream) -> Void

    /// Creates the stream (`pa_stream_new`) and starts recording (`pa_stream_connect_record`).
    ///
    /// - Parameters:
    ///   - movable: whether the server may move the stream to another source. When false
    ///     (`PA_STREAM_DONT_MOVE`), the stream fails instead when its source goes away.
    ///   - onData: each block as it arrives: interleaved stereo float32 frames, or nil bytes for a hole
    ///     in the stream (that many frames of nothing). The bytes are valid only during the call.
    ///   - onPhase: when the stream is ready, and when it fails or ends.
    ///   - onMoved: after the server moved the stream (`source` is the new one).
    /// - Throws: `.device` when the server refuses the format or the stream, with `pa_strerror`'s words.
    init(context: PulseContext, source: String, sampleRate: Int, fragmentFrames: Int, movable: Bool,
         onData: @escaping (_ bytes: UnsafeRawPointer?, _ frames: Int) -> Void,
         onPhase: @escaping (CaptureStream, Phase) -> Void,
         onMoved: @escaping (CaptureStream) -> Void) throws(MarbleError) {
        guard let contextPointer = context.pointer else {
            throw MarbleError(.device, "cannot capture from \"\(source)\": the connection to PulseAudio is closed")
        }
        self.source = source
        self.onData = onData
        self.onPhase = onPhase
        self.onMoved = onMoved
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: 2)
        var map = pa_channel_map()
        pa_channel_map_init_stereo(&map)
        guard let made = pa_stream_new(contextPointer, "marble capture", &spec, &map) else {
            throw MarbleError(.device, "cannot capture from \"\(source)\": \(context.errorText)")
        }
        handle = made
        installCallbacks(on: made)
        let fragmentBytes = UInt32(fragmentFrames * CaptureOptions.bytesPerFrame)
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                                        minreq: UInt32.max, fragsize: fragmentBytes)
        var flags = PA_STREAM_ADJUST_LATENCY.rawValue
        if !movable { flags |= PA_STREAM_DONT_MOVE.rawValue }
        if pa_stream_connect_record(made, source, &attributes, pa_stream_flags_t(flags)) < 0 {
            let words = context.errorText
            close()
            throw MarbleError(.device, "cannot capture from \"\(source)\": \(words)")
        }
    }

    deinit { close() }

    /// Stops recording (`pa_stream_disconnect`, `pa_stream_unref`) after clearing the callbacks, so none
    /// of the closures is called afterwards. Idempotent.
    ///
    /// A stream still being created cannot be disconnected yet (libpulse refuses with "bad state"):
    /// it gets a context-free state callback that disconnects it once the server has made it, so it
    /// does not linger on the server until the connection closes.
    func close() {
        guard let handle else { return }
        self.handle = nil
        pa_stream_set_read_callback(handle, nil, nil)
        pa_stream_set_moved_callback(handle, nil, nil)
        switch pa_stream_get_state(handle) {
        case PA_STREAM_READY:
            pa_stream_set_state_callback(handle, nil, nil)
            pa_stream_disconnect(handle)
        case PA_STREAM_CREATING:
            pa_stream_set_state_callback(handle, { stream, _ in
                if let stream, pa_stream_get_state(stream) == PA_STREAM_READY { pa_stream_disconnect(stream) }
            }, nil)
        default:
            pa_stream_set_state_callback(handle, nil, nil)
        }
        pa_stream_unref(handle)
    }

    private func installCallbacks(on stream: OpaquePointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(stream, { stream, userdata in
            guard let stream, let userdata else { return }
            let owner = Unmanaged<CaptureStream>.fromOpaque(userdata).takeUnretainedValue()
            withExtendedLifetime(owner) { owner.stateChanged(stream) }
        }, me)
        pa_stream_set_read_callback(stream, { stream, _, userdata in
            guard let stream, let userdata else { return }
            let owner = Unmanaged<CaptureStream>.fromOpaque(userdata).takeUnretainedValue()
            withExtendedLifetime(owner) { owner.readAll(stream) }
        }, me)
        pa_stream_set_moved_callback(stream, { stream, userdata in
            guard let stream, let userdata else { return }
            let owner = Unmanaged<CaptureStream>.fromOpaque(userdata).takeUnretainedValue()
            withExtendedLifetime(owner) { owner.moved(stream) }
        }, me)
    }

    private func stateChanged(_ stream: OpaquePointer) {
        switch pa_stream_get_state(stream) {
        case PA_STREAM_READY: onPhase(self, .ready)
        case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
            // Why: the connection's last error (`pa_context_errno`), e.g. "Entity killed".
            onPhase(self, .ended(PulseContext.describe(pa_context_errno(pa_stream_get_context(stream)))))
        default: break
        }
    }

    /// Hands over everything readable (`pa_stream_peek` / `pa_stream_drop`), fragment by fragment.
    /// A hole (no data, a length) is handed over as nil bytes.
    private func readAll(_ stream: OpaquePointer) {
        while handle == stream, pa_stream_readable_size(stream) > 0 {
            var data: UnsafeRawPointer?
            var length = 0
            guard pa_stream_peek(stream, &data, &length) == 0, length > 0 else { return }
            onData(data, length / CaptureOptions.bytesPerFrame)
            // The closure may have closed this stream (it never does today); drop only while it is ours.
            guard handle == stream else { return }
            pa_stream_drop(stream)
        }
    }

    private func moved(_ stream: OpaquePointer) {
        if let name = pa_stream_get_device_name(stream) { source = String(cString: name) }
        onMoved(self)
    }
}
