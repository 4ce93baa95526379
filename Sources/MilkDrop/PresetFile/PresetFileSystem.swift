#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX calls preset reading needs (stat, open/read, opendir/readdir), behind Swift values.
enum PresetFileSystem {
    enum Kind { case directory, regular, other }

    /// What `stat` (which follows symbolic links) says about a path.
    struct Status {
        var kind: Kind
        var size: Int
        /// Device and inode: the identity of the file, to visit each directory once.
        var identity: FileIdentity
    }

    struct FileIdentity: Hashable { var device: UInt64; var inode: UInt64 }

    /// The status of `path`, or the `errno` message.
    static func status(_ path: String) -> Result<Status, SystemError> {
        var st = stat()
        guard stat(path, &st) == 0 else { return .failure(SystemError()) }
        let type = st.st_mode & S_IFMT
        let kind: Kind = type == S_IFDIR ? .directory : type == S_IFREG ? .regular : .other
        return .success(Status(kind: kind, size: Int(st.st_size),
                               identity: FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))))
    }

    /// The whole file at `path`, refused before reading when it is not a regular file or too large.
    static func read(_ path: String) throws(MilkPresetError) -> [UInt8] {
        let limit = MilkDropLimits.fileBytes
        switch status(path) {
        case .failure(let e):
            throw MilkPresetError(path: path, message: "cannot read: \(e.message)", reason: .unreadable)
        case .success(let s) where s.kind == .directory:
            throw MilkPresetError(path: path, message: "is a directory", reason: .notRegularFile)
        case .success(let s) where s.kind != .regular:
            throw MilkPresetError(path: path, message: "not a regular file (a pipe or a device)", reason: .notRegularFile)
        case .success(let s) where s.size > limit:
            throw MilkPresetError(path: path, message: "\(s.size) bytes: larger than the \(limit)-byte limit", reason: .tooLarge)
        case .success:
            break
        }
        // O_NONBLOCK: should the path have become a pipe since the stat, open does not wait for a writer.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw MilkPresetError(path: path, message: "cannot open: \(SystemError().message)", reason: .unreadable)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0) }
            if n < 0 {
                if errno == EINTR { continue }
                throw MilkPresetError(path: path, message: "cannot read: \(SystemError().message)", reason: .unreadable)
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        if bytes.count > limit {
            throw MilkPresetError(path: path, message: "larger than the \(limit)-byte limit", reason: .tooLarge)
        }
        return bytes
    }

    /// The names in a directory (without `.` and `..`), unsorted, or the `errno` message.
    static func names(in directory: String) -> Result<[String], SystemError> {
        guard let dir = opendir(directory) else { return .failure(SystemError()) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    /// An `errno` value captured where a call failed, with its text.
    struct SystemError: Error {
        var code: Int32
        init() { code = errno }
        var message: String { String(cString: strerror(code)) }
    }
}

/// `read(2)`, named apart from ``PresetFileSystem/read(_:)``.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer.baseAddress, buffer.count)
    #else
    Darwin.read(fd, buffer.baseAddress, buffer.count)
    #endif
}
