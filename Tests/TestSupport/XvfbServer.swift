import Foundation

/// A real X server with no screen (`Xvfb`), for tests that open windows: started on a free display
/// number, named in this process's `DISPLAY` while a test uses it, photographed with `xwd`, stopped.
///
/// `DISPLAY` is process-wide and the test targets share one process, so ``withDisplay(width:height:_:)``
/// runs one window test at a time in the whole process (a lock), each with a server of its own.
///
/// A machine without Xvfb fails the test with a message saying what to install: window tests are
/// never skipped silently (CI installs xvfb, x11-apps and xdotool from .ci/apt-packages).
public final class XvfbServer {
    /// The display name, ":N".
    public let display: String
    public let width: Int, height: Int
    private var pid: pid_t?

    private static let exclusive = NSLock()

    /// Starts a server with one `width` x `height` screen of depth 24, sets `DISPLAY` to it, runs
    /// `body`, then stops the server and restores `DISPLAY`. One at a time in the process.
    public static func withDisplay<T>(width: Int, height: Int, _ body: (XvfbServer) throws -> T) throws -> T {
        exclusive.lock()
        defer { exclusive.unlock() }
        let server = try XvfbServer(width: width, height: height)
        defer { server.stop() }
        let previous = ProcessInfo.processInfo.environment["DISPLAY"]
        setenv("DISPLAY", server.display, 1)
        defer {
            if let previous { setenv("DISPLAY", previous, 1) } else { unsetenv("DISPLAY") }
        }
        return try body(server)
    }

    /// Runs `body` with `DISPLAY` naming a display nobody serves (no server listens on it), or unset,
    /// under the same lock as the servers.
    public static func withoutDisplay<T>(unset: Bool = false, _ body: () throws -> T) rethrows -> T {
        exclusive.lock()
        defer { exclusive.unlock() }
        let previous = ProcessInfo.processInfo.environment["DISPLAY"]
        if unset { unsetenv("DISPLAY") } else { setenv("DISPLAY", ":\(freeDisplayNumber(from: 700) ?? 799)", 1) }
        defer {
            if let previous { setenv("DISPLAY", previous, 1) } else { unsetenv("DISPLAY") }
        }
        return try body()
    }

    /// Starts `Xvfb -displayfd 1 -screen 0 WxHx24 -nolisten tcp`: the server picks a free display
    /// number itself and writes it to its standard output (a pipe read here) once it accepts
    /// connections. Waiting for that line is waiting for the server to be ready: no polling, no
    /// deadline, and no race with other processes choosing the same number (they used to see another
    /// server's socket appear and take it for their own). The read ends at the line, or when the
    /// server exits without one.
    public init(width: Int, height: Int) throws {
        guard ChildProcess.which("Xvfb") != nil else {
            throw ChildProcess.Failure("Xvfb is not installed: the window tests need a real X server; install it with `apt-get install -y xvfb x11-apps xdotool` (see .ci/apt-packages)")
        }
        self.width = width
        self.height = height
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ChildProcess.Failure("cannot make a pipe for Xvfb") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }  // the spawn's dup2 clears it on the copy
        let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let started: pid_t
        do {
            started = try ChildProcess.spawn("Xvfb", ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"],
                                             output: ends[1])
        } catch {
            close(ends[1])
            throw error
        }
        close(ends[1])
        var line = ""
        while !line.contains("\n") {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line += String(decoding: chunk, as: UTF8.self)
        }
        guard let n = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(started, SIGKILL)
            ChildProcess.reap(started)
            throw ChildProcess.Failure("Xvfb did not start (it reported \"\(line)\" for its display)")
        }
        pid = started
        display = ":\(n)"
    }

    deinit { stop() }

    /// Sends `signal` to the server: SIGKILL makes it go away at once (its clients' connections
    /// break), SIGSTOP freezes it (their calls that wait for it block) until SIGCONT or ``stop()``.
    public func send(_ signal: Int32) {
        if let pid { kill(pid, signal) }
    }

    /// Stops the server (SIGTERM, and SIGCONT in case it was frozen, then waits for it). Calling it
    /// again does nothing.
    public func stop() {
        guard let pid else { return }
        kill(pid, SIGTERM)
        kill(pid, SIGCONT)
        ChildProcess.reap(pid)
        self.pid = nil
    }

    /// The first display number from `from` (below 1000) with neither a lock file nor a socket.
    static func freeDisplayNumber(from: Int) -> Int? {
        (from..<1000).first { n in
            !FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock")
                && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)")
        }
    }

    /// Runs `tool` with `DISPLAY` set to this server and returns its standard output; throws with its
    /// standard error when it fails (for `xwd`, `xdotool`).
    @discardableResult
    public func run(_ tool: String, _ arguments: [String]) throws -> Data {
        guard let path = ChildProcess.which(tool) else {
            throw ChildProcess.Failure("\(tool) is not installed (apt-get install -y xvfb x11-apps xdotool)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { $1 }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw ChildProcess.Failure("\(tool) \(arguments.joined(separator: " ")) failed (\(p.terminationStatus)): \(String(decoding: errors, as: UTF8.self))")
        }
        return data
    }

    /// Asks the client owning X window `id` to close it, as a window manager's close button does: a
    /// `WM_PROTOCOLS` client message with `WM_DELETE_WINDOW`, sent through Xlib (loaded at run time, so
    /// the test targets do not link it; xdotool's `windowclose` would destroy the window instead).
    public func requestClose(window id: UInt) throws {
        guard let xlib = dlopen("libX11.so.6", RTLD_NOW) else { throw ChildProcess.Failure("cannot load libX11.so.6") }
        defer { dlclose(xlib) }
        func symbol<T>(_ name: String, _ type: T.Type) throws -> T {
            guard let s = dlsym(xlib, name) else { throw ChildProcess.Failure("libX11 has no \(name)") }
            return unsafeBitCast(s, to: type)
        }
        typealias Open = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
        typealias Close = @convention(c) (OpaquePointer?) -> Int32
        typealias InternAtom = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> UInt
        typealias SendEvent = @convention(c) (OpaquePointer?, UInt, Int32, Int, UnsafeMutableRawPointer?) -> Int32
        typealias Flush = @convention(c) (OpaquePointer?) -> Int32
        guard let connection = try symbol("XOpenDisplay", Open.self)(display) else {
            throw ChildProcess.Failure("cannot connect to \(display)")
        }
        defer { _ = try? symbol("XCloseDisplay", Close.self)(connection) }
        let intern = try symbol("XInternAtom", InternAtom.self)
        let protocols = intern(connection, "WM_PROTOCOLS", 0), delete = intern(connection, "WM_DELETE_WINDOW", 0)
        // XClientMessageEvent in an XEvent (192 bytes) on LP64: type, serial, send_event, display,
        // window, message_type, format, then data.l[5].
        var event = [UInt8](repeating: 0, count: 192)
        event.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: Int32(33), toByteOffset: 0, as: Int32.self)  // ClientMessage
            raw.storeBytes(of: Int32(1), toByteOffset: 16, as: Int32.self)  // send_event
            raw.storeBytes(of: id, toByteOffset: 32, as: UInt.self)
            raw.storeBytes(of: protocols, toByteOffset: 40, as: UInt.self)
            raw.storeBytes(of: Int32(32), toByteOffset: 48, as: Int32.self)  // format
            raw.storeBytes(of: delete, toByteOffset: 56, as: UInt.self)  // data.l[0]
        }
        let sent = event.withUnsafeMutableBytes { try? symbol("XSendEvent", SendEvent.self)(connection, id, 0, 0, $0.baseAddress) }
        guard sent != nil && sent != 0 else { throw ChildProcess.Failure("XSendEvent failed") }
        _ = try symbol("XFlush", Flush.self)(connection)
    }

    /// The whole screen as it is now (`xwd -root -silent`, parsed here).
    public func screenshot() throws -> Screenshot {
        try Screenshot(xwd: run("xwd", ["-root", "-silent", "-display", display]))
    }
}

/// An RGB picture of an X screen, 3 bytes a pixel, rows `width * 3` apart.
public struct Screenshot: Sendable {
    public let width: Int, height: Int
    public let rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// The pixel at (x, y).
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (rgb[i], rgb[i + 1], rgb[i + 2])
    }

    /// Parses an XWD file (X11's window dump, version 7): a header of big-endian 32-bit fields, the
    /// window name, the colour map (12 bytes an entry), then a ZPixmap of 24 or 32 bits a pixel whose
    /// channels the header's masks locate, in the header's byte order.
    public init(xwd data: Data) throws {
        let bytes = [UInt8](data)
        func field(_ i: Int) throws -> Int {
            let at = i * 4
            guard at + 4 <= bytes.count else { throw ChildProcess.Failure("xwd: truncated header") }
            return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        let headerSize = try field(0), version = try field(1), format = try field(2)
        let width = try field(4), height = try field(5)
        let byteOrder = try field(7), bitsPerPixel = try field(11), bytesPerLine = try field(12)
        let masks = (r: try field(14), g: try field(15), b: try field(16))
        let colours = try field(19)
        guard version == 7, format == 2, bitsPerPixel == 24 || bitsPerPixel == 32, width > 0, height > 0 else {
            throw ChildProcess.Failure("xwd: unsupported dump (version \(version), format \(format), \(bitsPerPixel) bits a pixel)")
        }
        let start = headerSize + colours * 12
        guard start + bytesPerLine * height <= bytes.count else { throw ChildProcess.Failure("xwd: truncated pixels") }
        let step = bitsPerPixel / 8
        func channel(_ value: Int, _ mask: Int) -> UInt8 {
            guard mask != 0 else { return 0 }
            return UInt8(truncatingIfNeeded: (value & mask) >> mask.trailingZeroBitCount)
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let at = start + y * bytesPerLine + x * step
                var value = 0
                for k in 0..<step {
                    // byte order 0: least significant byte first.
                    let shift = byteOrder == 0 ? 8 * k : 8 * (step - 1 - k)
                    value |= Int(bytes[at + k]) << shift
                }
                let o = (y * width + x) * 3
                rgb[o] = channel(value, masks.r)
                rgb[o + 1] = channel(value, masks.g)
                rgb[o + 2] = channel(value, masks.b)
            }
        }
        self.init(width: width, height: height, rgb: rgb)
    }
}
