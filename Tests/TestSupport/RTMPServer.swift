import Foundation

/// A real RTMP server on loopback for stream tests: nginx with Debian's RTMP module (nginx-light +
/// libnginx-mod-rtmp), one process (`master_process off`), in a temporary folder of its own. Its
/// application `live` records every published stream to `rec/KEY-<unix time>.flv` (`record_unique`, so
/// a publish after a reconnect gets a file of its own), for the test to read back with ffprobe.
///
/// Threading: one test at a time. Errors: `ChildProcess.Failure` when nginx is missing or does not
/// start listening within five seconds.
public final class RTMPServer {
    public static let module = "/usr/lib/nginx/modules/ngx_rtmp_module.so"
    public let folder: URL
    public let port: Int
    public private(set) var pid: pid_t = 0

    /// Whether nginx and its RTMP module are installed.
    public static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") && FileManager.default.fileExists(atPath: module)
    }

    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marble-rtmp-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("rec"), withIntermediateDirectories: true)
        port = try Self.freePort()
        let config = """
            load_module \(Self.module);
            daemon off;
            master_process off;
            error_log \(folder.path)/error.log info;
            pid \(folder.path)/nginx.pid;
            events { worker_connections 64; }
            rtmp {
                server {
                    listen 127.0.0.1:\(port);
                    application live {
                        live on;
                        record all;
                        record_path \(folder.path)/rec;
                        record_unique on;
                    }
                }
            }
            """
        try config.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// `rtmp://127.0.0.1:PORT/live/KEY`.
    public func url(_ key: String) -> String { "rtmp://127.0.0.1:\(port)/live/\(key)" }

    /// Starts nginx on ``port`` and waits until it accepts connections.
    public func start() throws {
        precondition(pid == 0, "nginx is running")
        pid = try ChildProcess.spawn("/usr/sbin/nginx", ["-c", "\(folder.path)/nginx.conf", "-p", folder.path,
                                                         "-e", "\(folder.path)/error.log"])
        var exited = false
        let listening = pollProcess {
            var status: Int32 = 0
            exited = waitpid(pid, &status, WNOHANG) == pid
            return exited || Self.accepts(port)
        }
        if exited {
            pid = 0
            let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            throw ChildProcess.Failure("nginx exited: \(log)")
        }
        if listening { return }
        throw ChildProcess.Failure("nginx did not listen on \(port) within 60 s")
    }

    /// Kills nginx (SIGKILL: connections drop as if the server died) and waits for it.
    public func stop() {
        guard pid != 0 else { return }
        kill(pid, SIGCONT)
        kill(pid, SIGKILL)
        ChildProcess.reap(pid)
        pid = 0
    }

    /// Freezes nginx (SIGSTOP): connections stay open but nothing is read, as on a stalled network.
    public func pause() { if pid != 0 { kill(pid, SIGSTOP) } }
    public func resume() { if pid != 0 { kill(pid, SIGCONT) } }

    /// The recordings of stream `key`, oldest first.
    public func recordings(_ key: String) -> [String] {
        let rec = folder.appendingPathComponent("rec")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: rec.path)) ?? []
        return names.filter { $0.hasPrefix("\(key)-") && $0.hasSuffix(".flv") }
            .sorted { Self.stamp($0) < Self.stamp($1) }.map { rec.appendingPathComponent($0).path }
    }

    private static func stamp(_ name: String) -> Int {
        Int(name.split(separator: "-").last?.split(separator: ".").first ?? "") ?? 0
    }

    /// Whether nginx still has a recording of stream `key` open (its descriptors, in /proc): once the
    /// publisher has left, nginx closes it, and only then is the file complete.
    public func isRecording(_ key: String) -> Bool {
        guard pid != 0 else { return false }
        let fds = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []).contains { fd in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\(fd)")) ?? ""
            return (target as NSString).lastPathComponent.hasPrefix("\(key)-") && target.hasSuffix(".flv")
        }
    }

    /// Whether a socket is bound to UDP `port` (/proc/net/udp: a reader listening there).
    public static func udpPortIsBound(_ port: Int) -> Bool {
        let table = (try? String(contentsOfFile: "/proc/net/udp", encoding: .utf8)) ?? ""
        let suffix = ":" + String(format: "%04X", port)
        return table.split(separator: "\n").dropFirst().contains { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first?.hasSuffix(suffix) ?? false
        }
    }

    /// Whether something accepts TCP connections on loopback `port`.
    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A loopback port nobody listens on now (the kernel's pick for a TCP socket bound to port 0).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ChildProcess.Failure("socket failed") }
        defer { close(fd) }
        var address = loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw ChildProcess.Failure("bind failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func loopback(_ port: Int) -> sockaddr_in {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = UInt16(port).bigEndian
        a.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return a
    }
}
