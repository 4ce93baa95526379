import Foundation
import Glibc
import MarbleCore

/// Tells when one of a set of files is saved, through Linux's inotify, on a thread of its own.
///
/// It watches the files' folders, not the files: editors save by writing a new file and renaming it
/// over the old one (vim, VS Code, `sed -i`), which would end a watch on the file itself. A file counts
/// as saved when it is closed after writing (`IN_CLOSE_WRITE`) or renamed into place (`IN_MOVED_TO`);
/// a save may report more than once (the receiver reads the file again, which is harmless).
package final class FileWatcher: Sendable {
    private let fd: Int32
    /// Watch descriptor → (folder, the names in it being watched).
    private let folders: [Int32: (folder: String, names: Set<String>)]
    private let thread = ReadinessThread()

    /// Watches `paths` (files that may not exist yet; their folders must).
    /// - Throws: `.device` when inotify cannot be used or a folder cannot be watched, naming it.
    package init(paths: [String]) throws(MarbleError) {
        let fd = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard fd >= 0 else { throw MarbleError(.device, "cannot watch preset files: \(String(cString: strerror(errno)))") }
        var byFolder: [String: Set<String>] = [:]
        for path in paths {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            byFolder[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        var folders: [Int32: (folder: String, names: Set<String>)] = [:]
        for (folder, names) in byFolder {
            let wd = inotify_add_watch(fd, folder, UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO))
            guard wd >= 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw MarbleError(.device, "cannot watch \(folder) for saved presets: \(reason)")
            }
            folders[wd] = (folder: folder, names: names)
        }
        self.fd = fd
        self.folders = folders
    }

    deinit { close(fd) }

    /// Starts the thread: `saved` gets the path of each watched file saved (in the form the folder was
    /// watched in: absolute, standardized).
    package func start(saved: @escaping @Sendable (String) -> Void) {
        thread.start(name: "marble.watch", fd: fd) { [self] in drain(saved) }
    }

    /// Stops the thread and waits for it (idempotent).
    package func stop() { thread.stop() }

    /// Reads the events waiting, reporting the watched names among them.
    private func drain(_ saved: @Sendable (String) -> Void) {
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, size)
            guard count > 0 else { return }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                offset = nameStart + Int(event.len)
                guard event.len > 0, offset <= count, let watched = folders[event.wd] else { continue }
                let name = String(cString: buffer.advanced(by: nameStart).assumingMemoryBound(to: CChar.self))
                if watched.names.contains(name) { saved(watched.folder + "/" + name) }
            }
        }
    }
}
