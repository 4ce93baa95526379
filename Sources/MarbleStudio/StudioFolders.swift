import Foundation
import MarbleCore
import MarbleRender

/// The studio's sandbox: the only folders it reads (the song folders of the command line, the MilkDrop
/// folder) and writes (its output folder, with saved presets in `presets/`).
///
/// Every folder is kept as its real path (symbolic links resolved), and every path a request names is
/// resolved the same way before it is compared: a path is inside a folder when its real path is the
/// folder or starts with the folder and a `/`. So `..`, absolute paths and links that lead out are
/// caught whatever their spelling.
package struct StudioFolders: Sendable {
    /// The song folders, in command-line order (a song's `folder` is an index here), as real paths.
    package let songFolders: [String]
    /// The MilkDrop presets folder, as a real path, or nil.
    package let milkDrop: String?
    /// Where renders go, as a real path.
    package let output: String
    /// Remembers what listing the songs learnt of each file (see StudioSongs.swift).
    let songCache = SongCache()

    /// Where saved presets go: `OUTPUT/presets`.
    package var presets: String { output + "/presets" }

    /// Checks and records the folders: every song folder (at least one) and the MilkDrop folder must
    /// exist and be folders; the output folder and its `presets/` are created when missing.
    /// - Throws: `.option`, naming the folder.
    package init(songs: [String], milkDrop: String?, output: String) throws(MarbleError) {
        guard !songs.isEmpty else { throw MarbleError(.option, "give at least one folder of songs") }
        songFolders = try songs.map { folder throws(MarbleError) in try Self.existingFolder(folder, role: "song folder") }
        self.milkDrop = try milkDrop.map { folder throws(MarbleError) in try Self.existingFolder(folder, role: "--milkdrop") }
        for folder in [output, output + "/presets"] {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw MarbleError(.option, "--output \(output): cannot create the folder \(folder) (\(StudioPath.reason(error)))")
            }
        }
        self.output = try Self.existingFolder(output, role: "--output")
    }

    /// The real path of `path`, which must be an existing folder.
    private static func existingFolder(_ path: String, role: String) throws(MarbleError) -> String {
        guard let real = StudioPath.real(path) else {
            throw MarbleError(.option, "\(role) \(path): no such folder")
        }
        guard StudioPath.kind(of: real) == S_IFDIR else {
            throw MarbleError(.option, "\(role) \(path): is not a folder")
        }
        return real
    }

    /// The absolute real path of the file `relative` names in song folder `folder`.
    /// - Throws: `.badRequest` for an unknown folder, an empty or over-long path; `.forbidden` for an
    ///   absolute path, a `..`, a NUL or a link leading out of the folder; `.notFound` when nothing is
    ///   there or it is not a regular file (a folder, a FIFO).
    package func resolve(relative: String, folder: Int) throws(StudioFailure) -> String {
        guard songFolders.indices.contains(folder) else {
            throw StudioFailure(.badRequest, "folder: \(folder) is not one of the \(songFolders.count) song folders (0…\(songFolders.count - 1))")
        }
        let real = try StudioPath.resolve(relative, in: songFolders[folder])
        guard StudioPath.kind(of: real) == S_IFREG else {
            throw StudioFailure(.notFound, "\(StudioPath.shown(relative)): is not a file")
        }
        return real
    }

    /// Every folder a look's file parameters may name: the song folders, the MilkDrop folder, the output.
    package var allFolders: [String] { songFolders + (milkDrop.map { [$0] } ?? []) + [output] }

    /// The look with its path-valued parameters checked and made absolute: a `milkdrop` layer's `file`
    /// and `textures`, and a `text` or `lyrics` layer's `font` when it holds a `/` (else it is a
    /// Fontconfig name). Each must lie inside one of ``allFolders``; a relative one is taken relative
    /// to the MilkDrop folder for a `milkdrop` layer and refused elsewhere.
    /// - Throws: `.forbidden` for a path outside the folders, `.notFound` for one that does not exist,
    ///   `.badRequest` for a malformed one; the message names the layer and parameter.
    package func checkLookPaths(_ preset: Preset) throws(StudioFailure) -> Preset {
        var checked = preset
        for (i, layer) in preset.layers.enumerated() {
            let keys: [String] = switch layer.shader {
            case "milkdrop": ["file", "textures"]
            case "text", "lyrics": ["font"]
            default: []
            }
            for key in keys {
                guard case .text(let value)? = layer.parameters[key], !value.isEmpty else { continue }
                if key == "font", !value.contains("/") { continue }
                let field = "layers[\(i)].parameters.\(key)"
                let real: String
                do throws(StudioFailure) {
                    real = try lookPath(value, relativeTo: layer.shader == "milkdrop" ? milkDrop : nil)
                } catch {
                    throw StudioFailure(error.kind, "\(field): \(error.message)")
                }
                checked.layers[i].parameters[key] = .text(real)
            }
        }
        return checked
    }

    /// The real path of a look's file parameter: an absolute path inside one of ``allFolders``, or a
    /// relative one inside `base`.
    private func lookPath(_ path: String, relativeTo base: String?) throws(StudioFailure) -> String {
        guard path.hasPrefix("/") else {
            guard let base else {
                throw StudioFailure(.forbidden, "\(StudioPath.shown(path)): a relative path has no folder to be relative to; give an absolute path inside the studio's folders")
            }
            return try StudioPath.resolve(path, in: base)
        }
        try StudioPath.checkSpelling(path, allowAbsolute: true)
        guard let real = StudioPath.real(path) else {
            throw StudioFailure(.notFound, "\(StudioPath.shown(path)): no such file or folder")
        }
        guard allFolders.contains(where: { StudioPath.isInside(real, $0) }) else {
            throw StudioFailure(.forbidden, "\(StudioPath.shown(path)): is outside the studio's folders")
        }
        return real
    }
}

/// The path rules every request obeys, on plain strings and `realpath(3)`.
enum StudioPath {
    /// Linux's PATH_MAX and NAME_MAX (bytes).
    static let maximumPath = 4096, maximumName = 255

    /// The absolute real path of `relative` inside `root` (a real path): refused when it is malformed,
    /// leaves `root`, or names nothing.
    static func resolve(_ relative: String, in root: String) throws(StudioFailure) -> String {
        try checkSpelling(relative, allowAbsolute: false)
        let joined = root == "/" ? "/" + relative : root + "/" + relative
        if let real = real(joined) {
            guard isInside(real, root) else { throw StudioFailure(.forbidden, "\(shown(relative)): leads outside its folder") }
            return real
        }
        let failure = errno
        if failure == ELOOP || failure == EACCES {
            throw StudioFailure(.forbidden, "\(shown(relative)): cannot be followed (\(String(cString: strerror(failure))))")
        }
        // Nothing there: still refused as outside when the part that exists already leads out.
        var prefix = joined
        while let slash = prefix.lastIndex(of: "/"), prefix.utf8.count > root.utf8.count {
            prefix = String(prefix[..<slash])
            if let existing = real(prefix.isEmpty ? "/" : prefix) {
                guard isInside(existing, root) else { throw StudioFailure(.forbidden, "\(shown(relative)): leads outside its folder") }
                break
            }
        }
        throw StudioFailure(.notFound, "\(shown(relative)): no such file")
    }

    /// Refuses an empty, over-long or absolute path, a NUL, and `..` components.
    static func checkSpelling(_ path: String, allowAbsolute: Bool) throws(StudioFailure) {
        guard !path.isEmpty else { throw StudioFailure(.badRequest, "the path is empty") }
        let quoted = shown(path)
        guard !path.utf8.contains(0) else { throw StudioFailure(.forbidden, "\(quoted): holds a NUL character") }
        guard path.utf8.count < maximumPath else {
            throw StudioFailure(.badRequest, "\(quoted): the path is \(path.utf8.count) bytes, more than the \(maximumPath - 1) Linux allows")
        }
        guard allowAbsolute || !path.hasPrefix("/") else {
            throw StudioFailure(.forbidden, "\(quoted): is an absolute path; give one relative to its folder")
        }
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard component != ".." else { throw StudioFailure(.forbidden, "\(quoted): holds a `..` component") }
            guard component.utf8.count <= maximumName else {
                throw StudioFailure(.badRequest, "\(quoted): a name in the path is \(component.utf8.count) bytes, more than the \(maximumName) a file system allows")
            }
        }
    }

    /// A path as a message shows it: control characters (a NUL, a line break) as `?`, and past 80
    /// bytes only its first 40 characters and `…`.
    static func shown(_ path: String) -> String {
        let cut = path.utf8.count > 80 ? String(path.prefix(40)) + "…" : path
        return String(String.UnicodeScalarView(cut.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }

    /// `realpath(3)`: the absolute path with every link, `.` and `..` resolved, or nil (errno says why).
    static func real(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether the real path `path` is `root` or inside it.
    static func isInside(_ path: String, _ root: String) -> Bool {
        root == "/" || path == root || path.hasPrefix(root + "/")
    }

    /// The file type bits (`S_IFREG`, `S_IFDIR`, …) of `path`, following links; 0 when it cannot be examined.
    static func kind(of path: String) -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return info.st_mode & S_IFMT
    }

    /// The short reason of a Foundation error (its POSIX description when it has one).
    static func reason(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return (error as NSError).localizedDescription
    }
}
