import Foundation
import Synchronization
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

/// The real tools the capture tests drive: a private headless PulseAudio daemon per test, `pactl` to
/// change it, `paplay` to play known tones into its null sinks (made with `ffmpeg`).
enum CaptureTools {
    static let missing: [String] = ["pulseaudio", "pactl", "paplay", "ffmpeg"].filter { which($0) == nil }
    static var available: Bool { missing.isEmpty }
    static var missingNote: Comment { "needs \(missing.joined(separator: ", ")) (apt: pulseaudio pulseaudio-utils ffmpeg)" }

    /// Seconds a poll waits for a server before the test fails: a guard against a hang, far beyond
    /// what any machine load explains (the verdicts never depend on how long something took).
    static let failsafe: Double = 60

    static func which(_ name: String) -> String? { ChildProcess.which(name) }
    static func spawn(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> pid_t {
        try ChildProcess.spawn(tool, arguments, environment: environment)
    }
    @discardableResult
    static func reap(_ pid: pid_t) -> Int32 { ChildProcess.reap(pid) }

    /// Whether `pid` is a live process (not gone, not a zombie waiting for a parent that may never reap
    /// it).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return !stat[close...].dropFirst().trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// Runs a tool to completion and returns its status and standard output.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: which(tool) ?? tool)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A fresh private directory with a short path (unix socket paths are limited to 108 bytes).
    static func makeDirectory() -> String {
        var template = Array("/tmp/marble-cap.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        let path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        chmod(path, 0o700)
        return path
    }

    /// A sine of `frequency` Hz at `amplitude`, 48 kHz stereo 16-bit (the null sinks' own format), as a
    /// WAV file made once per process; long enough to outlast any test that plays it.
    static func tone(_ frequency: Int, amplitude: Double = 0.5, seconds: Int = 20) throws -> String {
        try TestMedia.make("capture-tone-\(frequency)-\(amplitude)-\(seconds).wav", [
            "-f", "lavfi", "-i", "aevalsrc=\(amplitude)*sin(2*PI*\(frequency)*t):s=48000:c=stereo:d=\(seconds)",
            "-c:a", "pcm_s16le"])
    }

    struct ToolError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// A unix socket that listens and never accepts: libpulse connects (the kernel queues the connection)
/// and then waits for an answer that never comes, as from a server that hangs.
final class SilentSocket {
    private var descriptor: Int32

    /// Listens at `path`, making its folder.
    init(path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw CaptureTools.ToolError("socket() failed: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw CaptureTools.ToolError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            throw CaptureTools.ToolError("cannot listen at \(path): errno \(errno)")
        }
    }

    func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}

/// Polls `condition` every `interval` seconds until it holds or `timeout` seconds pass; returns
/// whether it held. Only for what a real PulseAudio daemon (another process, which offers no
/// notification) or the data it delivers brings about, and with `CaptureTools.failsafe` as the
/// timeout: a guard against a hang, never the verdict.
///
/// Blocking, on purpose: the capture tests are synchronous, like the command-line tests beside them.
/// An async test suspended in a poll waits for a thread of the cooperative pool (two on this machine)
/// to resume it, and the blocking tests may hold both for minutes; a capture test resumed that late
/// finds its 20 s tone played out. A synchronous test, once started, keeps its thread (a thread of
/// its own: the capture suites carry `.ownThread`, so the wait holds none of the pool's).
func pollBlocking(timeout: Double, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    try pollProcess(failsafe: timeout, every: interval, condition)
}

/// A clock that moves only when the test says (`advance(by:)`, synchronous, unlike swift-clocks'
/// `TestClock`, whose async advance needs a free thread of the cooperative pool). For a capture, which
/// reads its clock and never sleeps on it: `sleep` throws.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        let offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let time = Mutex(Duration.zero)

    var now: Instant { Instant(offset: time.withLock { $0 }) }
    var minimumResolution: Duration { .nanoseconds(1) }

    func advance(by duration: Duration) { time.withLock { $0 += duration } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws { throw CancellationError() }
}

/// Seconds since `start` on the monotonic clock.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Measures what a capture heard.
enum Heard {
    /// The last `count` samples of each channel (fewer when fewer were written).
    static func latest(_ buffer: CaptureBuffer, count: Int) -> (left: [Float], right: [Float]) {
        var left: [Float] = [], right: [Float] = []
        let end = buffer.written
        buffer.read(from: end - count, upTo: end) { l, r in
            left += l
            right += r
        }
        return (left, right)
    }

    /// The amplitude of the `frequency` component of `samples` (Goertzel): exact for a sine when the
    /// window holds whole cycles, as 4800 samples at 48 kHz do for 600, 1000 and 1500 Hz.
    static func amplitude(_ samples: [Float], frequency: Double, sampleRate: Double = 48_000) -> Double {
        guard !samples.isEmpty else { return 0 }
        let coefficient = 2 * cos(2 * Double.pi * frequency / sampleRate)
        var s1 = 0.0, s2 = 0.0
        for x in samples {
            let s0 = Double(x) + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = max(0, s1 * s1 + s2 * s2 - coefficient * s1 * s2)
        return 2 * power.squareRoot() / Double(samples.count)
    }

    static func rms(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Whether the last 100 ms of `buffer` are a sine of `frequency` at `amplitude` (±6 %) on both
    /// channels, with nothing else in it.
    static func tone(_ buffer: CaptureBuffer, frequency: Double, amplitude: Double = 0.5) -> Bool {
        let window = latest(buffer, count: 4800)
        guard window.left.count == 4800 else { return false }
        for channel in [window.left, window.right] {
            guard abs(Heard.amplitude(channel, frequency: frequency) - amplitude) < 0.03 * amplitude / 0.5,
                  abs(rms(channel) - amplitude / 2.0.squareRoot()) < 0.03 else { return false }
        }
        return true
    }
}

extension CaptureState {
    /// Why the capture is reconnecting; nil in any other state.
    var reconnectReason: String? {
        if case .reconnecting(let reason) = self { reason } else { nil }
    }
}
