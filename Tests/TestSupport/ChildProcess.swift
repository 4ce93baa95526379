import Foundation

/// Starting the real tools tests drive (daemons such as `pulseaudio` and `tmux`), written once for the
/// test targets.
public enum ChildProcess {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Full path of an executable on $PATH (or `name` itself when it is a path), or nil.
    public static func which(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts `tool` with `posix_spawn` (standard streams on /dev/null, every other descriptor closed,
    /// a clean signal mask: the test runner's threads block signals, and a blocked mask is inherited)
    /// and returns its PID. Not `Process`: its `waitUntilExit` also waits for daemons the tool leaves
    /// behind.
    ///
    /// Closing the other descriptors matters: a daemon started while another test has a `Process` pipe
    /// open would inherit the pipe's write end and keep that test's read waiting until the daemon exits.
    ///
    /// - Parameter output: a descriptor of this process to be the tool's standard output instead (a
    ///   pipe's write end, for a tool that reports on it).
    public static func spawn(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
                             output: Int32? = nil) throws -> pid_t {
        guard let path = which(tool) else { throw Failure("\(tool) not found") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 {
            if fd == 1, let output {
                posix_spawn_file_actions_adddup2(&actions, output, 1)
            } else {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        guard closeOthers(&actions) == 0 else { throw Failure("cannot close descriptors for \(tool)") }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw Failure("cannot start \(tool): error \(status)") }
        return pid
    }

    /// Waits for a child started by `spawn` and returns its exit status.
    @discardableResult
    public static func reap(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }

    /// Adds "close every descriptor from 3 up" to `actions`: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run time because it is
    /// a GNU extension the Glibc module does not export.
    private static func closeOthers(_ actions: inout posix_spawn_file_actions_t) -> Int32 {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return -1 }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }
}

/// The reading end of a FIFO, in a process of its own (`cat`): a FIFO's writer blocks until a reader
/// opens it, so the reader cannot be a task of the test that writes.
public final class FIFOReader {
    private let process = Process()
    private let pipe = Pipe()

    public init(_ path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/cat")
        process.arguments = [path]
        process.standardOutput = pipe
        try process.run()
    }

    /// Everything written to the FIFO until its writer closed it.
    public func text() -> String {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
