internal import CPulse

/// One run of "which sources are there, and which is the default sink's monitor": the server's
/// defaults (`pa_context_get_server_info`), then every source (`pa_context_get_source_info_list`).
///
/// Owned by the `PulseContext` that started it until it finishes; the C callbacks get this object as
/// unretained userdata. When the connection drops, libpulse cancels the operations without calling
/// back and the context drops the lookup.
final class DeviceLookup {
    private let context: OpaquePointer
    private var defaults = PulseServerDefaults(sink: nil, source: nil)
    private var devices: [CaptureDeviceInfo] = []
    private var finished = false
    private let completion: (DeviceLookup, [CaptureDeviceInfo]?) -> Void

    /// - Parameter completion: called once on the loop's thread with the sources, or nil when the
    ///   server refused a request.
    init(context: OpaquePointer, completion: @escaping (DeviceLookup, [CaptureDeviceInfo]?) -> Void) {
        self.context = context
        self.completion = completion
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Sends the first request.
    func begin() {
        let operation = pa_context_get_server_info(context, { _, info, userdata in
            guard let userdata else { return }
            let lookup = Unmanaged<DeviceLookup>.fromOpaque(userdata).takeUnretainedValue()
            withExtendedLifetime(lookup) { lookup.received(info?.pointee) }
        }, userdata)
        guard let operation else { return finish(nil) }
        pa_operation_unref(operation)
    }

    private func received(_ server: pa_server_info?) {
        guard let server else { return finish(nil) }
        defaults = PulseServerDefaults(server)
        let operation = pa_context_get_source_info_list(context, { _, info, eol, userdata in
            guard let userdata else { return }
            let lookup = Unmanaged<DeviceLookup>.fromOpaque(userdata).takeUnretainedValue()
            withExtendedLifetime(lookup) { lookup.received(info?.pointee, end: eol) }
        }, userdata)
        guard let operation else { return finish(nil) }
        pa_operation_unref(operation)
    }

    /// One source (`end` 0), the end of the list (`end` > 0), or a failure (`end` < 0).
    private func received(_ source: pa_source_info?, end: Int32) {
        if end < 0 { return finish(nil) }
        if end > 0 { return finish(devices) }
        if let source { devices.append(CaptureDeviceInfo(source, defaults: defaults)) }
    }

    private func finish(_ result: [CaptureDeviceInfo]?) {
        guard !finished else { return }
        finished = true
        completion(self, result)
    }
}
