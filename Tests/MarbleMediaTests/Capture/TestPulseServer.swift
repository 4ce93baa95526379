import Foundation
import MarbleCore
@testable import MarbleMedia

/// A headless PulseAudio daemon with one null sink `viz` (48 kHz) in a private runtime directory,
/// reached through `serverString` (never through this process's environment: tests run in parallel).
/// Stopped by its PID; can be stopped and started again on the same socket.
final class TestPulseServer {
    let directory: String
    private(set) var pid: pid_t = 0
    private var players: [pid_t] = []

    var serverString: String { "unix:\(directory)/pulse/native" }

    /// Starts a daemon in `directory` (a fresh one when nil).
    init(directory: String? = nil) throws {
        self.directory = directory ?? CaptureTools.makeDirectory()
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts the daemon and waits until `pactl` reaches it (the daemon tells nothing: polled, with a
    /// failsafe deadline).
    func start() throws {
        let status = try CaptureTools.reap(CaptureTools.spawn("pulseaudio", [
            "--daemonize=yes", "-n", "--exit-idle-time=-1", "--load=module-native-protocol-unix",
            "--load=module-null-sink sink_name=viz rate=48000", "--load=module-always-sink",
        ], environment: ["XDG_RUNTIME_DIR": directory]))
        guard status == 0 else { throw CaptureTools.ToolError("pulseaudio exited with \(status) in \(directory)") }
        let pidFile = "\(directory)/pulse/pid"
        let up = try pollBlocking(timeout: CaptureTools.failsafe, every: 0.05) {
            guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
                  let value = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
            pid = value
            return try pactl("set-default-sink", "viz")
        }
        guard up else { throw CaptureTools.ToolError("PulseAudio did not start in \(directory)") }
    }

    /// Stops the players and the daemon (`signal`, then SIGKILL if it lingers) and waits until it is
    /// gone. The directory stays, so `start()` can bring the server back on the same socket. A killed
    /// daemon leaves its pid file behind, and until this machine's init reaps the zombie (seconds) a
    /// new daemon would take it for a running one: the file is removed once the process is dead.
    func stop(signal: Int32 = SIGTERM) {
        for player in players {
            kill(player, SIGKILL)
            CaptureTools.reap(player)
        }
        players = []
        guard pid > 0 else { return }
        kill(pid, signal)
        if !pollBlocking(timeout: 5, { !CaptureTools.isRunning(pid) }) {
            kill(pid, SIGKILL)
            _ = pollBlocking(timeout: 5, { !CaptureTools.isRunning(pid) })
        }
        pid = 0
        try? FileManager.default.removeItem(atPath: "\(directory)/pulse/pid")
    }

    /// Runs `pactl` against this server; returns whether it succeeded.
    @discardableResult
    func pactl(_ arguments: String...) throws -> Bool {
        try CaptureTools.run("pactl", ["--server=\(serverString)"] + arguments).status == 0
    }

    /// Adds a 48 kHz null sink named `name`.
    func addSink(_ name: String) throws {
        guard try pactl("load-module", "module-null-sink", "sink_name=\(name)", "rate=48000") else {
            throw CaptureTools.ToolError("cannot add sink \(name)")
        }
    }

    /// A sink whose sound goes on to `sink` and stays there when the default sink changes, for tests
    /// that switch the default: PulseAudio 16 moves every stream of the old default sink to the new one
    /// unless it was made with `PA_STREAM_DONT_MOVE`, which `paplay` cannot ask for. So the tone plays
    /// into a null sink of its own (never the default, so never moved), looped into `sink` by a
    /// `module-loopback` that may not move. Returns the name to play into.
    func pinnedFeed(into sink: String) throws -> String {
        let feed = "feed-\(sink)"
        try addSink(feed)
        guard try pactl("load-module", "module-loopback", "source=\(feed).monitor", "sink=\(sink)",
                        "source_dont_move=true", "sink_dont_move=true", "latency_msec=20") else {
            throw CaptureTools.ToolError("cannot loop \(feed) into \(sink)")
        }
        return feed
    }

    /// Plays a sine of `frequency` Hz at amplitude 0.5 into `sink` with the server's own module-sine,
    /// for as long as the server runs: unlike a file, it cannot end before a starved test's last check.
    func playSine(_ frequency: Int, into sink: String) throws {
        guard try pactl("load-module", "module-sine", "sink=\(sink)", "frequency=\(frequency)") else {
            throw CaptureTools.ToolError("cannot play a sine into \(sink)")
        }
    }

    /// Plays `file` into `sink` with `paplay` until `stop()` (or the file ends).
    func play(_ file: String, into sink: String = "viz") throws {
        players.append(try CaptureTools.spawn("paplay", ["--server=\(serverString)", "-d", sink, file]))
    }
}
