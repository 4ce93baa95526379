/// The sources a capture can listen to.
public enum CaptureDevices {
    /// Every PulseAudio source, inputs and monitors, with the default sink's monitor and the default
    /// source marked (`pa_context_get_server_info`, then `pa_context_get_source_info_list`, on a
    /// connection of its own that is closed before returning).
    ///
    /// - Parameter server: a server string; nil for libpulse's default (`$PULSE_SERVER`, then the
    ///   socket under `$XDG_RUNTIME_DIR`).
    /// - Throws: `.device` "no PulseAudio server is running (…)" when none answers (within 5 s), or when
    ///   the server refuses the requests; the parenthesis holds `pa_strerror`'s words.
    public static func list(server: String? = nil) throws(MarbleError) -> [CaptureDeviceInfo] {
        let loop = try PulseMainloop()
        let query = Query()
        loop.lock()
        query.run(on: loop, server: server)
        do throws(MarbleError) {
            try loop.start()
            while query.result == nil { loop.wait() }
        } catch {
            query.result = .failure(error)
        }
        query.close()
        loop.unlock()
        loop.stop()
        return try query.result!.get()
    }

    /// The listing's connection, deadline and answer. Used only with the loop's lock held (by `list`,
    /// or by the loop's thread running the callbacks), and closed before the loop stops.
    private final class Query {
        var result: Result<[CaptureDeviceInfo], MarbleError>?
        private var context: PulseContext?
        private var deadline: PulseTimer?

        func run(on loop: PulseMainloop, server: String?) {
            deadline = PulseTimer(on: loop, after: 5, repeats: false) { [unowned self] in
                answer(.failure(MarbleError(.device, "no PulseAudio server is running (none answered within 5 s)")), loop)
            }
            guard let context = PulseContext(loop: loop, name: "marble list") else {
                return answer(.failure(MarbleError(.device, "cannot create a PulseAudio context (out of memory)")), loop)
            }
            self.context = context
            context.onPhase = { [unowned self] context, phase in
                switch phase {
                case .connecting: break
                case .ready:
                    context.lookUpDevices { [unowned self] devices in
                        answer(devices.map { .success($0) }
                               ?? .failure(MarbleError(.device, "cannot list PulseAudio sources (\(context.errorText))")), loop)
                    }
                case .failed(let words): answer(.failure(MarbleError(.device, "no PulseAudio server is running (\(words))")), loop)
                case .terminated: answer(.failure(MarbleError(.device, "no PulseAudio server is running (connection terminated)")), loop)
                }
            }
            if let words = context.connect(server: server) {
                answer(.failure(MarbleError(.device, "no PulseAudio server is running (\(words))")), loop)
            }
        }

        private func answer(_ answer: Result<[CaptureDeviceInfo], MarbleError>, _ loop: PulseMainloop) {
            guard result == nil else { return }
            result = answer
            loop.signal()
        }

        func close() {
            deadline?.cancel()
            context?.disconnect()
            context = nil
        }
    }
}
