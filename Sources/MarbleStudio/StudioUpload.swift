import Foundation
import MarbleCore
import MarbleMedia

/// One song being uploaded (`POST /api/upload?name=FILE`) into the first song folder.
///
/// The bytes go to a hidden temporary file beside the destination (`.upload-TAG.EXT`: hidden, so a
/// listing skips it; ending in the name's extension, which FFmpeg's probing may use; tagged with its
/// writer (``PartialName``), so the next upload deletes those a killed studio left). When
/// they are all there, FFmpeg must open the file and decode its first sound; then the file is linked
/// to its name with `link(2)`, which fails when the name exists, so an upload never replaces a file,
/// even one that appears meanwhile. Whatever goes wrong, the temporary file is removed (also when the
/// upload is dropped unfinished, and by a second Ctrl-C through ``OutputFile/removeTemporaryFiles()``).
///
/// Used by one task at a time: `append` the body's pieces as they come, then `finish`.
package final class StudioUpload {
    /// The song's file name, as given.
    package let name: String
    /// The most bytes the song may have.
    package let limit: Int
    /// Bytes written so far.
    package private(set) var received = 0
    private let folders: StudioFolders
    private let destination: String
    private let temporary: String
    private var descriptor: Int32

    /// Starts an upload of `name` (a plain file name with one of the song extensions) of at most `limit` bytes.
    /// - Throws: `.badRequest` for a bad name, `.conflict` when a file of that name is there already,
    ///   `.internalError` when the temporary file cannot be made.
    package init(_ folders: StudioFolders, name: String, limit: Int) throws(StudioFailure) {
        try Self.checkName(name)
        self.folders = folders
        self.name = name
        self.limit = max(0, limit)
        let folder = folders.songFolders[0]
        destination = folder + "/" + name
        var info = stat()
        if lstat(destination, &info) == 0 { throw StudioFailure(.conflict, "\(name): a file of that name exists already") }
        PartialName.removeLeftOvers(in: folder, tagOf: Self.tag(ofTemporary:))
        let ext = name[name.index(after: name.lastIndex(of: ".")!)...]  // checkName found the extension
        temporary = folder + "/" + Self.temporaryPrefix + PartialName.forThisProcess().tag + "." + ext
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StudioFailure(.internalError, "\(name): cannot write in the first song folder (\(String(cString: strerror(errno))))")
        }
        OutputFile.registerTemporary(temporary)
    }

    deinit { discard() }

    private static let temporaryPrefix = ".upload-"

    /// The writer's tag in an upload's temporary name (`.upload-TAG.EXT`), or nil for any other name.
    static func tag(ofTemporary name: String) -> Substring? {
        guard name.hasPrefix(temporaryPrefix), let dot = name.lastIndex(of: "."),
              dot > name.index(name.startIndex, offsetBy: temporaryPrefix.count) else { return nil }
        return name[name.index(name.startIndex, offsetBy: temporaryPrefix.count)..<dot]
    }

    /// Checks that `name` is a plain file name (no `/`, not hidden, at most 255 bytes, no control
    /// characters) with one of ``StudioFolders/songExtensions``.
    static func checkName(_ name: String) throws(StudioFailure) {
        guard !name.isEmpty else { throw StudioFailure(.badRequest, "name: the file name is empty") }
        guard name.utf8.count <= StudioPath.maximumName else {
            throw StudioFailure(.badRequest, "name: the file name is \(name.utf8.count) bytes, more than the \(StudioPath.maximumName) a file system allows")
        }
        guard !name.contains("/"), !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw StudioFailure(.badRequest, "name: give a plain file name, without a folder or control characters")
        }
        guard !name.hasPrefix(".") else { throw StudioFailure(.badRequest, "name: \(name) is a hidden name; give one that does not start with '.'") }
        guard StudioFolders.isSong(name) else {
            throw StudioFailure(.badRequest, "name: \(name) does not end in one of \(StudioFolders.songExtensions.sorted().joined(separator: " "))")
        }
    }

    /// Writes the next piece of the body.
    /// - Throws: `.tooLarge` past the limit, `.internalError` when the write fails; either way nothing is kept.
    package func append(_ bytes: UnsafeRawBufferPointer) throws(StudioFailure) {
        guard descriptor >= 0 else { throw StudioFailure(.internalError, "\(name): the upload has ended") }
        guard bytes.count <= limit - received else {
            discard()
            throw StudioFailure(.tooLarge, "\(name): larger than the \(limit >> 20) MB an upload may be")
        }
        var offset = 0
        while offset < bytes.count {
            let n = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                discard()
                throw StudioFailure(.internalError, "\(name): cannot write (\(reason))")
            }
            offset += n
        }
        received += bytes.count
    }

    /// Writes the next piece of the body (see ``append(_:)-(UnsafeRawBufferPointer)``).
    package func append(_ bytes: [UInt8]) throws(StudioFailure) {
        let result: Result<Void, StudioFailure> = bytes.withUnsafeBytes { raw in
            do throws(StudioFailure) { try append(raw); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    /// Checks that FFmpeg decodes the file, then puts it in place under its name.
    /// - Returns: the song, as the listing shows it.
    /// - Throws: `.badRequest` when it does not decode as sound, `.conflict` when a file took the name
    ///   meanwhile, `.internalError` when the file cannot be completed; the temporary file is removed.
    package func finish() throws(StudioFailure) -> StudioSong {
        guard descriptor >= 0 else { throw StudioFailure(.internalError, "\(name): the upload has ended") }
        defer { discard() }
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            descriptor = -1
            throw StudioFailure(.internalError, "\(name): cannot complete the file (\(String(cString: strerror(errno))))")
        }
        descriptor = -1
        if let problem = Self.decodingProblem(temporary) {
            throw StudioFailure(.badRequest, "\(name): not a song FFmpeg can play (\(problem))")
        }
        guard link(temporary, destination) == 0 else {
            if errno == EEXIST { throw StudioFailure(.conflict, "\(name): a file of that name exists already") }
            throw StudioFailure(.internalError, "\(name): cannot put the file in place (\(String(cString: strerror(errno))))")
        }
        guard let song = folders.song(relative: name, folder: 0) else {
            unlink(destination)
            throw StudioFailure(.badRequest, "\(name): not a song FFmpeg can play")
        }
        return song
    }

    /// Why FFmpeg cannot decode a first block of sound from the file, or nil when it can.
    private static func decodingProblem(_ path: String) -> String? {
        let decoder: AudioDecoder
        do throws(MarbleError) { decoder = try AudioDecoder(path: path) } catch {
            // The message starts with the (temporary) path: keep what follows it.
            let message = error.message
            return message.hasPrefix(path + ": ") ? String(message.dropFirst(path.count + 2)) : message
        }
        do throws(MarbleError) {
            return try decoder.decodeNext { _, _ in } ? nil : "it holds no sound"
        } catch {
            return error.message
        }
    }

    /// Closes and removes the temporary file, once.
    private func discard() {
        if descriptor >= 0 { close(descriptor); descriptor = -1 }
        if unlink(temporary) == 0 || errno == ENOENT { OutputFile.unregisterTemporary(temporary) }
    }
}

extension StudioFolders {
    /// Uploads a song from a body delivered in pieces (see ``StudioUpload``).
    package func upload<Body: AsyncSequence>(name: String, limit: Int, body: Body) async throws(StudioFailure) -> StudioSong
        where Body.Element == [UInt8] {
        let upload = try StudioUpload(self, name: name, limit: limit)
        do {
            for try await piece in body { try upload.append(piece) }
        } catch let refusal as StudioFailure {
            throw refusal
        } catch {
            throw StudioFailure(.badRequest, "\(name): the upload broke off (\(error))")
        }
        return try upload.finish()
    }
}
