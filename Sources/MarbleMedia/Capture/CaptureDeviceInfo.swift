internal import CPulse

/// One PulseAudio source a capture can listen to, as `CaptureDevices.list` reports it.
public struct CaptureDeviceInfo: Sendable, Equatable {
    /// The source's name, what `CaptureOptions.source` takes (e.g. `viz.monitor`).
    public var name: String
    /// Its human-readable description (e.g. `Monitor of Null Output`).
    public var description: String
    /// Whether it is the monitor of a sink (hears what plays there) rather than an input.
    public var isMonitor: Bool
    /// Whether it is the monitor of the server's default sink: what a capture with no source hears.
    public var isDefaultMonitor: Bool
    /// Whether it is the server's default source (often a microphone).
    public var isDefaultSource: Bool
    /// The source's own rate and channel count (the capture resamples and remixes to its options).
    public var sampleRate: Int
    /// The source's own channel count.
    public var channels: Int

    /// A source description with the values given (as the server reports them).
    public init(name: String, description: String, isMonitor: Bool, isDefaultMonitor: Bool,
                isDefaultSource: Bool, sampleRate: Int, channels: Int) {
        self.name = name
        self.description = description
        self.isMonitor = isMonitor
        self.isDefaultMonitor = isDefaultMonitor
        self.isDefaultSource = isDefaultSource
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Reads one entry of `pa_context_get_source_info_list`, given the server's defaults
    /// (`pa_context_get_server_info`). The C strings are copied: they live only during the callback.
    init(_ source: pa_source_info, defaults: PulseServerDefaults) {
        let name = source.name.map { String(cString: $0) } ?? ""
        let monitorOf = source.monitor_of_sink_name.map { String(cString: $0) }
        let isMonitor = source.monitor_of_sink != marble_pa_invalid_index()
        self.init(
            name: name,
            description: source.description.map { String(cString: $0) } ?? name,
            isMonitor: isMonitor,
            isDefaultMonitor: isMonitor && monitorOf != nil && monitorOf == defaults.sink,
            isDefaultSource: name == defaults.source,
            sampleRate: Int(source.sample_spec.rate),
            channels: Int(source.sample_spec.channels))
    }
}
