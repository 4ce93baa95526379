import Testing

/// Live capture (`Sources/MarbleKit/Capture`): the buffer and the pacing on their own, then capture
/// from a real headless PulseAudio daemon that each test starts for itself (signals, devices, following
/// the default sink, faults). `swift test --filter CaptureTests` runs them all.
@Suite("Live capture")
enum CaptureTests {}
