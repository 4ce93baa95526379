import Foundation
import Synchronization

/// Where a file the tool writes may go, and how it gets there without destroying anything.
///
/// Every output is written beside its destination under a temporary name and renamed into place when
/// complete, so a crash or an error never leaves half a file. That is only safe over a regular file:
/// a rename replaces whatever the name points at, so renaming over a device node (`/dev/full`), a FIFO
/// or a symbolic link would replace the node or the link itself. Hence:
/// - nothing there, or a regular file: temporary file + rename;
/// - a symbolic link: followed to its final target, which the rules apply to (the link stays);
/// - a device, a FIFO or a socket: written through (``write(_:to:)``) or refused (media files);
/// - a folder: refused.
/// And an output that is one of the inputs (the same device and inode, however the paths are
/// spelled: `./a.mp4`, `dir/../a.mp4`, a symbolic or hard link) is refused before anything is written.
package enum OutputFile {
    /// What a path names at the moment, following symbolic links.
    package enum Kind: Equatable, Sendable {
        /// Nothing exists at the path (or it cannot be examined).
        case nothing
        /// A regular file: it may be replaced by rename.
        case regularFile
        /// A directory: always refused as an output.
        case folder
        /// A device, a FIFO or a socket: the name of the kind, for messages.
        case special(String)
    }

    /// What `path` names now, following symbolic links.
    package static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .nothing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .folder
        case S_IFCHR: return .special("a character device")
        case S_IFBLK: return .special("a block device")
        case S_IFIFO: return .special("a FIFO")
        case S_IFSOCK: return .special("a socket")
        default: return .special("not a regular file")
        }
    }

    /// The path a write lands on: a symbolic link's final target (so the rename replaces the target
    /// and the link stays), else the path itself.
    package static func destination(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// Refuses an output that is the same file as one of `inputs` (compared by device and inode).
    /// `role` names the inputs in the message ("the input", "--background").
    package static func checkNotAnInput(_ output: String, inputs: [(path: String, role: String)]) throws(MarbleError) {
        var out = stat()
        guard stat(output, &out) == 0 else { return }  // nothing there yet: it cannot be an input
        for input in inputs {
            var info = stat()
            guard stat(input.path, &info) == 0 else { continue }
            if info.st_dev == out.st_dev && info.st_ino == out.st_ino {
                throw MarbleError(.option, "\(output): is \(input.role) (\(input.path)); writing it would destroy it: choose another output name")
            }
        }
    }

    /// Checks that a media file (video, PNG) can be written at `path` by temporary file + rename:
    /// refuses folders and special files. Returns the path to write (a symbolic link's target).
    package static func checkReplaceable(_ path: String) throws(MarbleError) -> String {
        try checkName(path)
        let target = destination(path)
        switch kind(of: target) {
        case .nothing, .regularFile: return target
        case .folder: throw MarbleError(.output, "\(path): is a folder; give a file name")
        case .special(let what): throw MarbleError(.output, "\(path): is \(what), not a regular file; write to a file")
        }
    }

    /// Checks that `path` can name a file at all, before any work (else the render would fail only when
    /// its finished file is moved into place): no trailing `/` (a folder's name), a file name of at
    /// most 255 bytes and a path of at most 4,095 (Linux's NAME_MAX and PATH_MAX).
    package static func checkName(_ path: String) throws(MarbleError) {
        if path.hasSuffix("/") {
            throw MarbleError(.output, "\(path): ends with '/', the name of a folder; give a file name")
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        if name.utf8.count > 255 {
            throw MarbleError(.output, "\(path.prefix(40))…: the file name is \(name.utf8.count) bytes, more than the 255 a file system allows")
        }
        if path.utf8.count > 4095 {
            throw MarbleError(.output, "\(path.prefix(40))…: the path is \(path.utf8.count) bytes, more than the 4,095 Linux allows")
        }
    }

    /// Checks that the folder `path` would be written in exists and is writable (before any work, so
    /// that a wrong folder is a bad-output error rather than a failure part-way).
    package static func checkFolder(of path: String) throws(MarbleError) {
        let directory = URL(fileURLWithPath: destination(path)).deletingLastPathComponent().path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue else {
            throw MarbleError(.output, "\(path): the folder \(directory) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw MarbleError(.output, "\(path): the folder \(directory) is not writable")
        }
    }

    /// The temporary name a file is written under before it is renamed to `path`: hidden, in the same
    /// folder (so the rename stays on one file system), and tagged with who writes it
    /// (`.NAME.partial-HOST-BOOT-PIDNS-PID-START-RANDOM`, see ``PartialName``) so that no two runs share
    /// one, even on a folder many machines or containers write into. A new name at each call: keep it.
    /// The file name is shortened when the tag would make it longer than 255 bytes (the file-system
    /// limit), so any legal output name gets a legal temporary name.
    package static func temporaryPath(for path: String) -> String {
        temporaryPath(for: path, name: PartialName.forThisProcess())
    }

    /// The temporary name of `path` for the writer and random part of `partial`.
    package static func temporaryPath(for path: String, name partial: PartialName) -> String {
        let url = URL(fileURLWithPath: path)
        let suffix = partialMarker + partial.tag
        var name = url.lastPathComponent
        let room = 255 - 1 - suffix.utf8.count
        if name.utf8.count > room {
            var cut = Substring(name)
            while cut.utf8.count > room { cut = cut.dropLast() }  // whole characters, never half a UTF-8 sequence
            name = String(cut)
        }
        return url.deletingLastPathComponent().appendingPathComponent("." + name + suffix).path
    }

    private static let partialMarker = ".partial-"

    /// Writes `data` to `path` without destroying anything: a regular file (or none) is replaced
    /// atomically (temporary file + rename); a device, FIFO or socket is written through (so
    /// `/dev/stdout` works, and `/dev/full` fails with "No space left on device"); a folder is refused.
    /// A symbolic link is followed, and its target written. Like every file written, it first clears the
    /// folder of this machine's left-over temporary files (``removeStaleTemporaries(for:)``).
    package static func write(_ data: Data, to path: String) throws(MarbleError) {
        let target = destination(path)
        switch kind(of: target) {
        case .folder:
            throw MarbleError(.output, "\(path): is a folder; give a file name")
        case .special:
            try writeThrough(data, to: target, name: path)
        case .nothing, .regularFile:
            removeStaleTemporaries(for: target)
            let temporary = temporaryPath(for: target)
            do {
                try data.write(to: URL(fileURLWithPath: temporary))
            } catch {
                unlink(temporary)
                throw MarbleError(.output, "\(path): cannot write (\(error.localizedDescription))")
            }
            guard rename(temporary, target) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw MarbleError(.output, "\(path): cannot move the finished file into place (\(reason))")
            }
        }
    }

    private static func writeThrough(_ data: Data, to target: String, name: String) throws(MarbleError) {
        let fd = open(target, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MarbleError(.output, "\(name): cannot open (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        let failure: Int32? = data.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        if let failure { throw MarbleError(.output, "\(name): cannot write (\(String(cString: strerror(failure))))") }
    }

    // MARK: Temporary files in flight

    private static let inFlight = Mutex<Set<String>>([])

    /// Records a temporary file being written, so that ``removeTemporaryFiles()`` can delete it if the
    /// process has to end at once (a second Ctrl-C).
    package static func registerTemporary(_ path: String) {
        inFlight.withLock { _ = $0.insert(path) }
    }

    /// The temporary file was renamed into place or deleted.
    package static func unregisterTemporary(_ path: String) {
        inFlight.withLock { _ = $0.remove(path) }
    }

    /// Deletes every temporary file still being written: for an exit that cannot wait for the writers.
    package static func removeTemporaryFiles() {
        for path in inFlight.withLock({ paths in defer { paths.removeAll() }; return paths }) { unlink(path) }
    }

    /// Deletes the temporary files in the folder `path` is written in that runs of this machine left
    /// when they ended without cleaning up (SIGKILL, a power cut): `.NAME.partial-TAG`, of any output,
    /// whose writer is gone (see ``PartialName/isLeftOver(_:us:state:)``). Files of a live render — here
    /// or on another machine or container sharing the folder — and names in any other form are kept.
    package static func removeStaleTemporaries(for path: String) {
        let folder = URL(fileURLWithPath: destination(path)).deletingLastPathComponent().path
        PartialName.removeLeftOvers(in: folder) { name in
            guard name.hasPrefix("."), let marker = name.range(of: partialMarker, options: .backwards) else { return nil }
            return name[marker.upperBound...]
        }
    }
}
