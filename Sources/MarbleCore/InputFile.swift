import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An input as the readers need it: a file they can open as often as they like and seek in.
///
/// A render reads its input several times (the analysis pass, the pictures, the sound), and FFmpeg
/// seeks. A pipe, a FIFO or standard input (`-`) can be read only once, from the start: opening a FIFO
/// a second time waits for a writer that never comes. Such an input is copied once, as it arrives, to a
/// temporary file beside the system's others (`$TMPDIR`), which every reader then opens; the copy
/// is deleted when this value goes away, and by ``OutputFile/removeTemporaryFiles()`` on a second
/// Ctrl-C. A regular file is used where it is, with no copy.
///
/// The copy waits for data with `poll` in 100 ms steps, so a stop request (`shouldContinue`) is seen
/// within 100 ms even while nobody writes into the FIFO.
package final class InputFile: Sendable {
    /// What the readers open.
    package let path: String
    /// Whether `path` is a temporary copy.
    package let isCopy: Bool

    /// Opens `path`, copying it first to a temporary file when it can be read only once (standard input, a FIFO, a pipe); blocks until the writer closes it.
    ///
    /// - Parameters:
    ///   - path: a file name, or `-` for standard input.
    ///   - limit: the most bytes a copy may hold (``copyLimit``): past it the copy is deleted and the
    ///     input refused, so an endless stream (`/dev/zero`) cannot fill the disk.
    ///   - shouldContinue: polled (from the calling thread) at least every 100 ms while a pipe or FIFO
    ///     is copied; returning false stops the copy and throws.
    /// - Throws: ``MarbleError`` with kind `.input` when the input cannot be opened or read or is longer
    ///   than `limit`, `.output` when the temporary copy cannot be written, `.cancelled` when
    ///   `shouldContinue` said stop.
    package init(_ path: String, limit: Int = copyLimit, shouldContinue: () -> Bool = { true }) throws(MarbleError) {
        if path != "-" {
            var info = stat()
            // A missing or regular file is left to the readers (they report a missing one themselves).
            if stat(path, &info) != 0 || (info.st_mode & S_IFMT) == S_IFREG || (info.st_mode & S_IFMT) == S_IFDIR {
                self.path = path
                isCopy = false
                return
            }
        }
        Self.removeStaleCopies()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(Self.prefix + PartialName.forThisProcess().tag).path
        try Self.spool(from: path, to: copy, limit: limit, shouldContinue: shouldContinue)
        self.path = copy
        isCopy = true
    }

    deinit {
        if isCopy {
            unlink(path)
            OutputFile.unregisterTemporary(path)
        }
    }

    /// Refuses `path` when it names a device, a FIFO, a socket or a folder where a command needs a
    /// regular file (one it opens more than once, or reads to the end: `join`'s pieces and sound): such
    /// an input can be read only once, or never ends. Nothing is read from it. `role` names it in the
    /// message ("a piece"); a missing path is left to the reader, which reports it.
    package static func requireRegularFile(_ path: String, as role: String) throws(MarbleError) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw MarbleError(.input, "\(path): is a folder; \(role) must be a file")
        default:
            guard case .special(let what) = OutputFile.kind(of: path) else { return }
            throw MarbleError(.input, "\(path): is \(what), not a regular file; \(role) must be a file")
        }
    }

    private static let prefix = "marble-input-"

    /// The most a copy of a stream input may hold: 4 GiB, 100 hours of MP3 at 80 kbit/s or ten of
    /// CD-quality FLAC. A longer input is given as a file (read in place, with no copy).
    package static let copyLimit = 4 << 30

    /// Deletes copies left by runs of this machine that ended without cleaning up (SIGKILL, a
    /// default-action signal): `marble-input-TAG` in `$TMPDIR` whose writer is gone (``PartialName``).
    static func removeStaleCopies() {
        PartialName.removeLeftOvers(in: FileManager.default.temporaryDirectory.path) { name in
            name.hasPrefix(prefix) ? name.dropFirst(prefix.count) : nil
        }
    }

    private static func spool(from source: String, to copy: String, limit: Int, shouldContinue: () -> Bool) throws(MarbleError) {
        let label = source == "-" ? "standard input" : source
        // Non-blocking open: a FIFO with no writer yet must not block before the first stop check.
        let input = source == "-" ? dup(0) : open(source, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else { throw MarbleError(.input, "\(label): cannot open (\(String(cString: strerror(errno))))") }
        defer { close(input) }
        let output = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw MarbleError(.output, "\(copy): cannot create a copy of \(label) (\(String(cString: strerror(errno))))") }
        OutputFile.registerTemporary(copy)
        var finished = false
        defer {
            close(output)
            if !finished {
                unlink(copy)
                OutputFile.unregisterTemporary(copy)
            }
        }
        let chunk = 1 << 16
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            guard shouldContinue() else { throw MarbleError(.cancelled, "\(label): stopped while reading it") }
            var waiting = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, 100)
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { throw MarbleError(.input, "\(label): cannot read (\(String(cString: strerror(errno))))") }
            if ready == 0 { continue }
            let n = read(input, buffer, chunk)
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw MarbleError(.input, "\(label): cannot read (\(String(cString: strerror(errno))))")
            }
            if n == 0 { break }   // the writer closed its end: the whole input is here
            guard total + n <= limit else {
                throw MarbleError(.input, "\(label): longer than \(describe(bytes: limit)), the most a stream input is copied to $TMPDIR; give it as a file")
            }
            var written = 0
            while written < n {
                let w = write(output, buffer + written, n - written)
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else {
                    throw MarbleError(.output, "\(copy): cannot keep a copy of \(label) (\(String(cString: strerror(errno))))")
                }
                written += w
            }
            total += n
        }
        guard total > 0 else { throw MarbleError(.input, "\(label): the input is empty") }
        finished = true
    }

    /// "4 GiB", "1 MiB", or bytes.
    private static func describe(bytes: Int) -> String {
        if bytes >= 1 << 30 && bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }
}
