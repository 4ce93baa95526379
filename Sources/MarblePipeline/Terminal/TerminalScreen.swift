import Foundation
import MarbleCore

/// The controlling terminal, taken over for a full-screen picture: raw input, the alternate screen,
/// a hidden cursor, no line wrap. ``restore()`` puts every one of those back; it is idempotent and
/// also runs on `deinit`, so every way out (quit, Ctrl-C, an error) leaves the terminal as it was.
///
/// Wraps `tcgetattr`/`tcsetattr` (termios), `ioctl(TIOCGWINSZ)`, `poll` and `read`/`write` on
/// descriptors 0 and 1. Entered and restored by the session's thread; while entered, only the input
/// thread reads (keys, the window size) and only the sink thread writes.
package final class TerminalScreen {
    private let input: Int32 = 0
    private let output: Int32 = 1
    private var saved = termios()
    private var isActive = false

    /// Checks that standard input and output are a terminal.
    /// - Throws: `.option` when either is not a terminal (a pipe, a file).
    package init() throws(MarbleError) {
        guard isatty(input) == 1, isatty(output) == 1 else {
            throw MarbleError(.option, "marble play draws in a terminal: standard input and output must be a terminal")
        }
    }

    deinit { restore() }

    /// Raw mode (`cfmakeraw`: no echo, no line editing, keys arrive at once; Ctrl-C arrives as a byte),
    /// then the alternate screen, cursor hidden, autowrap off, screen cleared.
    package func enter() throws(MarbleError) {
        guard !isActive else { return }
        guard tcgetattr(input, &saved) == 0 else {
            throw MarbleError(.device, "cannot read the terminal settings: \(String(cString: strerror(errno)))")
        }
        var raw = saved
        cfmakeraw(&raw)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            throw MarbleError(.device, "cannot switch the terminal to raw mode: \(String(cString: strerror(errno)))")
        }
        isActive = true
        writeAll(Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[0m\u{1B}[2J".utf8))
    }

    /// Leaves the alternate screen, shows the cursor, turns autowrap back on and restores the saved
    /// termios settings. Does nothing when the screen was not entered (or already restored).
    package func restore() {
        guard isActive else { return }
        isActive = false
        writeAll(Array("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8))
        _ = tcsetattr(input, TCSAFLUSH, &saved)
    }

    /// The window size in cells (`ioctl(TIOCGWINSZ)`); 80×24 when the terminal does not say.
    package var size: (columns: Int, rows: Int) {
        var w = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 0 else { return (80, 24) }
        return (Int(w.ws_col), Int(w.ws_row))
    }

    /// Waits up to `timeout` seconds for input (`poll`), then reads what is available (at most
    /// `buffer.count` bytes). Returns the byte count, 0 when nothing arrived.
    package func read(into buffer: UnsafeMutableRawBufferPointer, waitingUpTo timeout: Double) -> Int {
        var fd = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        let ms = Int32(max(0, min(1000, (timeout * 1000).rounded(.up))))
        guard poll(&fd, 1, ms) > 0, fd.revents & Int16(POLLIN) != 0 else { return 0 }
        let n = Glibc.read(input, buffer.baseAddress, buffer.count)
        return max(0, n)
    }

    /// Writes every byte (one `write` in the usual case; continues after partial writes and EINTR).
    /// - Throws: `.device` when the terminal is gone.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(MarbleError) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(output, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw MarbleError(.device, "cannot write to the terminal: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { try? write($0) }
    }
}
