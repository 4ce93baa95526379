import MarbleCore

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
        private var loop: PulseMainloop?
        private var context: PulseContext?
        private var deadline: PulseTimer?

        func run(on loop: PulseMainloop, server: String?) {
            self.loop = loop
            deadline = PulseTimer(on: loop, after: 5, repeats: false) { [unowned self] in
                fail("no PulseAudio server is running (none answered within 5 s)")
            }
            guard let context = PulseContext(loop: loop, name: "marble list") else {
                return fail("cannot create a PulseAudio context (out of memory)")
            }
            self.context = context
            context.onPhase = { [unowned self] context, phase in
                switch phase {
                case .connecting: break
                case .ready:
                    context.lookUpDevices { [unowned self, unowned context] devices in
                        guard let devices else { return fail("cannot list PulseAudio sources (\(context.errorText))") }
                        answer(.success(devices))
                    }
                case .failed(let words): fail("no PulseAudio server is running (\(words))")
                case .terminated: fail("no PulseAudio server is running (connection terminated)")
                }
            }
            if let words = context.connect(server: server) { fail("no PulseAudio server is running (\(words))") }
        }

        private func fail(_ message: String) { answer(.failure(MarbleError(.device, message))) }

        private func answer(_ answer: Result<[CaptureDeviceInfo], MarbleError>) {
            guard result == nil else { return }
            result = answer
            loop?.signal()
        }

        func close() {
            deadline?.cancel()
            context?.disconnect()
            context = nil
            loop = nil
        }
    }
}
