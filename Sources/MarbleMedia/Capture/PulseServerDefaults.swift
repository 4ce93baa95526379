internal import CPulse

/// The server's default sink and source names (`pa_server_info`), either of which may be unset.
struct PulseServerDefaults: Sendable, Equatable {
    var sink: String?
    var source: String?

    init(sink: String?, source: String?) {
        self.sink = sink
        self.source = source
    }

    init(_ info: pa_server_info) {
        sink = info.default_sink_name.map { String(cString: $0) }
        source = info.default_source_name.map { String(cString: $0) }
    }
}
