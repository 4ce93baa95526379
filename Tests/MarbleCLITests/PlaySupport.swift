import Foundation
import TestSupport

/// Helpers for driving `marble play` for real: a private PulseAudio daemon with a null sink, a private
/// tmux server as the terminal, and a recorder for the sink's monitor.
enum PlayTools {
    static func which(_ name: String) -> String? { ChildProcess.which(name) }

    static let missing: [String] = ["pulseaudio", "parec", "tmux"].filter { which($0) == nil }
    static var available: Bool { missing.isEmpty }

    /// Runs a tool to completion; returns its status and standard output.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: which(tool) ?? tool)
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs a tool that leaves a daemon behind (tmux new-session, pulseaudio --daemonize) and returns
    /// its exit status (``ChildProcess/spawn(_:_:environment:)``: not through `Process`, whose
    /// `waitUntilExit` waits as long as the daemon lives).
    @discardableResult
    static func spawnDaemon(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Int32 {
        ChildProcess.reap(try ChildProcess.spawn(tool, arguments, environment: environment))
    }

    /// Runs `marble` with extra environment variables and no terminal.
    static func marble(_ arguments: [String], environment: [String: String]) throws -> CLI.Result {
        let p = Process()
        p.executableURL = CLI.executable
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLI.Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                          stderr: String(decoding: e, as: UTF8.self))
    }

    /// Polls `condition` every 100 ms until it holds or `timeout` seconds pass (by the monotonic
    /// clock); returns the last result. Only for what another process brings about that it tells
    /// nothing of (a daemon starting, a file growing, a terminal's status line), with a timeout of
    /// 30 s or more that guards against a hang: never the length of something the test measures.
    static func eventually(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        try pollProcess(failsafe: timeout, every: 0.1, condition)
    }

    /// A fresh private directory with a short path (unix socket paths are limited to 108 bytes).
    static func makeDirectory(_ prefix: String) -> String {
        var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        let path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        chmod(path, 0o700)
        return path
    }
}

/// A headless PulseAudio daemon with one null sink named `viz`, in its own runtime directory,
/// stopped by its PID.
final class PulseServer {
    let runtimeDirectory: String
    private(set) var pid: pid_t = 0

    var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory, "PULSE_SERVER": "unix:\(runtimeDirectory)/pulse/native"]
    }

    init() throws {
        runtimeDirectory = PlayTools.makeDirectory("marble-pa")
        try start()
    }

    /// Starts the daemon in this runtime directory (again, after ``kill()``: clients find it at the
    /// same socket).
    func start() throws {
        try PlayTools.spawnDaemon("pulseaudio", [
            "--daemonize=yes", "-n", "--exit-idle-time=-1", "--load=module-native-protocol-unix",
            "--load=module-null-sink sink_name=viz rate=48000", "--load=module-always-sink",
        ], environment: ["XDG_RUNTIME_DIR": runtimeDirectory])
        let pidFile = "\(runtimeDirectory)/pulse/pid"
        let up = try PlayTools.eventually(timeout: 30) {
            guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
                  let value = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
            pid = value
            return try PlayTools.run("pactl", ["set-default-sink", "viz"], environment: environment).status == 0
        }
        guard up else { stop(); throw CLIError("PulseAudio did not start in \(runtimeDirectory)") }
    }

    /// Kills the daemon at once (SIGKILL: a crash, as clients see it), keeping the runtime directory.
    func kill() {
        guard pid > 0 else { return }
        Glibc.kill(pid, SIGKILL)
        _ = PlayTools.eventually(timeout: 5) { Glibc.kill(pid, 0) != 0 }
        pid = 0
        try? FileManager.default.removeItem(atPath: "\(runtimeDirectory)/pulse/pid")
    }

    /// Plays a file into the `viz` sink in the background (`paplay`); kill the process to stop it.
    func play(_ file: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: PlayTools.which("paplay") ?? "paplay")
        p.arguments = ["-d", "viz", file]
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Stops the daemon (SIGTERM, then SIGKILL if it lingers) and removes its directory.
    func stop() {
        if pid > 0 {
            Glibc.kill(pid, SIGTERM)
            if !PlayTools.eventually(timeout: 5, { Glibc.kill(pid, 0) != 0 }) { Glibc.kill(pid, SIGKILL) }
            pid = 0
        }
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    deinit { stop() }

    /// Records `seconds` of the sink's monitor (mono float32, counted in samples received, not in time
    /// waited) and returns the RMS of the last half (the first half absorbs the recorder's start-up).
    func monitorRMS(seconds: Double = 1.2) throws -> Float {
        let pipe = Pipe()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: PlayTools.which("parec") ?? "parec")
        p.arguments = ["-d", "viz.monitor", "--format=float32le", "--rate=48000", "--channels=1", "--latency-msec=20"]
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let wanted = Int(seconds * 48_000) * 4
        var data = Data()
        while data.count < wanted {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // parec ended
            data.append(chunk)
        }
        // SIGKILL: parec inherits the test runner's blocked signal mask, so SIGTERM may never arrive.
        Glibc.kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let tail = samples.suffix(samples.count / 2)
        guard tail.count > 4800 else { return -1 }  // too little recorded to judge
        let sum = tail.reduce(Float(0)) { $0 + $1 * $1 }
        return (sum / Float(tail.count)).squareRoot()
    }
}

/// A private tmux server (its own socket) running one command in a window of a fixed size.
final class TmuxTerminal {
    let socket: String
    private let directory: String

    init(columns: Int, rows: Int, command: String) throws {
        directory = PlayTools.makeDirectory("marble-tmux")
        socket = "\(directory)/socket"
        let status = try PlayTools.spawnDaemon("tmux", ["-S", socket, "-f", "/dev/null", "new-session", "-d",
                                                        "-x", "\(columns)", "-y", "\(rows)", command])
        guard status == 0 else { throw CLIError("tmux did not start (status \(status))") }
    }

    /// The visible screen; with `escapes`, including colour escape sequences.
    func capture(escapes: Bool = false) -> String {
        (try? PlayTools.run("tmux", ["-S", socket, "capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", "0"]).output) ?? ""
    }

    /// The last non-empty line of the screen (the player's status line).
    var statusLine: String {
        capture().split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(String.init) ?? ""
    }

    func send(_ keys: String...) {
        _ = try? PlayTools.run("tmux", ["-S", socket, "send-keys", "-t", "0"] + keys)
    }

    /// A tmux format value for the pane, e.g. `#{alternate_on}`.
    func display(_ format: String) -> String {
        ((try? PlayTools.run("tmux", ["-S", socket, "display-message", "-p", "-t", "0", format]).output) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() {
        _ = try? PlayTools.run("tmux", ["-S", socket, "kill-server"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }
}
