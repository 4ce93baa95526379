internal import CPulse

/// A connection to a PulseAudio server (`pa_context`) on a `PulseMainloop`, with its state changes,
/// subscription events and the device lookup the capture needs, as Swift closures.
///
/// Use it only on the loop's thread or with the loop's lock held; its closures run on the loop's
/// thread. Every C callback's userdata is this object (or a `DeviceLookup` it keeps), unretained:
/// `disconnect()` (also run by deinit) clears the callbacks and cancels pending operations before the
/// object can go away, so no callback outlives it.
final class PulseContext {
    /// What the connection is doing, as far as its users care.
    enum Phase: Equatable {
        case connecting
        case ready
        /// Lost or refused (`PA_CONTEXT_FAILED`), with `pa_strerror`'s words for why.
        case failed(String)
        /// Closed (`PA_CONTEXT_TERMINATED`).
        case terminated
    }

    private var handle: OpaquePointer?
    private var lookups: [DeviceLookup] = []
    /// Whether the connection was ever up (a drop after that is the server going away).
    private(set) var wasReady = false
    /// Called on each change of phase.
    var onPhase: ((PulseContext, Phase) -> Void)?
    /// Called for each subscribed event: its facility (`PA_SUBSCRIPTION_EVENT_SERVER`, …) and type
    /// (`PA_SUBSCRIPTION_EVENT_NEW`, `…_CHANGE`, `…_REMOVE`).
    var onEvent: ((_ facility: UInt32, _ type: UInt32) -> Void)?

    /// `pa_context_new` on `loop`; nil when libpulse cannot make one (out of memory).
    init?(loop: PulseMainloop, name: String = "marble") {
        guard let made = pa_context_new(loop.api, name) else { return nil }
        handle = made
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(made, { context, userdata in
            guard let context, let userdata else { return }
            let owner = Unmanaged<PulseContext>.fromOpaque(userdata).takeUnretainedValue()
            withExtendedLifetime(owner) { owner.stateChanged(pa_context_get_state(context)) }
        }, me)
        pa_context_set_subscribe_callback(made, { _, event, _, userdata in
            guard let userdata else { return }
            let owner = Unmanaged<PulseContext>.fromOpaque(userdata).takeUnretainedValue()
            let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
            let type = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
            withExtendedLifetime(owner) { owner.onEvent?(facility, type) }
        }, me)
    }

    deinit { disconnect() }

    /// Starts connecting (`pa_context_connect`, never autospawning a daemon) to `server`, or libpulse's
    /// default server when nil. Returns nil when under way (the outcome arrives through `onPhase`), or
    /// `pa_strerror`'s words when it failed at once (a malformed server string, no socket).
    func connect(server: String?) -> String? {
        guard let handle else { return "connection closed" }
        return pa_context_connect(handle, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 ? errorText : nil
    }

    /// `pa_strerror(pa_context_errno())`: why the last call on this connection failed.
    var errorText: String {
        guard let handle else { return "connection closed" }
        return Self.describe(pa_context_errno(handle))
    }

    /// Whether the connection is up (`PA_CONTEXT_READY`).
    var isReady: Bool { handle.map { pa_context_get_state($0) == PA_CONTEXT_READY } ?? false }

    /// The `pa_context *` for streams made on this connection; nil once disconnected.
    var pointer: OpaquePointer? { handle }

    /// Asks the server for events of the facilities in `mask` (`pa_context_subscribe`); they arrive
    /// through `onEvent`. A refusal shows up as a failed connection.
    func subscribe(_ mask: pa_subscription_mask_t) {
        guard let handle, let operation = pa_context_subscribe(handle, mask, nil, nil) else { return }
        pa_operation_unref(operation)
    }

    /// Looks up every source with the server's defaults marked (`pa_context_get_server_info`, then
    /// `pa_context_get_source_info_list`) and calls `completion` with them, or with nil when the server
    /// refused a request. Never called when the connection drops first (the operations are cancelled;
    /// `onPhase` reports the drop).
    func lookUpDevices(_ completion: @escaping ([CaptureDeviceInfo]?) -> Void) {
        guard let handle else { return }
        let lookup = DeviceLookup(context: handle) { [unowned self] lookup, devices in
            lookups.removeAll { $0 === lookup }
            completion(devices)
        }
        lookups.append(lookup)
        lookup.begin()
    }

    /// Closes the connection (`pa_context_disconnect`, `pa_context_unref`) after clearing its callbacks,
    /// so neither `onPhase` nor a lookup's completion is called afterwards. Idempotent.
    func disconnect() {
        guard let handle else { return }
        self.handle = nil
        pa_context_set_state_callback(handle, nil, nil)
        pa_context_set_subscribe_callback(handle, nil, nil)
        pa_context_disconnect(handle)
        pa_context_unref(handle)
        lookups.removeAll()
    }

    private func stateChanged(_ state: pa_context_state_t) {
        let phase: Phase
        switch state {
        case PA_CONTEXT_READY:
            wasReady = true
            phase = .ready
        case PA_CONTEXT_FAILED: phase = .failed(errorText)
        case PA_CONTEXT_TERMINATED: phase = .terminated
        default: phase = .connecting
        }
        onPhase?(self, phase)
    }

    /// `pa_strerror` as a Swift string.
    static func describe(_ code: Int32) -> String {
        guard let text = pa_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
