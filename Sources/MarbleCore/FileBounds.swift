import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The size bounds of the files a user hands over as text or as a picture, checked before anything is
/// parsed or decoded: beyond them a file is a mistake or an attack (a 50 MB preset took 195 s and
/// 1.9 GB to refuse), and gets one line instead. Each bound is far past what a real file needs.
package enum FileBounds {
    /// A preset YAML file: the bundled ones are 0.3–3 KB.
    package static let presetBytes = 256 << 10
    /// Nesting in a preset's YAML (flow brackets, or indentation and `- ` steps in 2-column units): the
    /// bundled presets nest 5 deep; the parser recurses once per level.
    package static let presetDepth = 32
    /// An M3U playlist: 10,000 songs of 100-byte paths.
    package static let playlistBytes = 1 << 20
    /// Songs one M3U may name.
    package static let playlistEntries = 10_000
    /// A lyrics or captions file (`.lrc`, `.srt`, `.vtt`): a song's synced lyrics are 2–10 KB, three
    /// hours of captions ~200 KB.
    package static let lyricsBytes = 2 << 20
    /// A picture (background, cover, texture): 8192 × 8192 pixels, 256 MB as RGBA; 8K video is 33 Mpx.
    package static let picturePixels = 8192 * 8192

    /// The bytes of the file at `path`, refused with a `kind` error (one line naming `what` and the
    /// bound) when it holds more than `limit`: at most `limit + 1` bytes are ever read, whatever the
    /// file is (a device, a FIFO, a growing file), a FIFO without a writer reads as empty instead of
    /// waiting, and a folder is refused.
    package static func read(_ path: String, limit: Int, what: String, kind: MarbleError.Kind) throws(MarbleError) -> Data {
        // Non-blocking to open: a FIFO without a writer would otherwise wait forever (read then says end of file).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw MarbleError(kind, "\(path): cannot read the \(what) (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var info = stat()
        if fstat(fd, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw MarbleError(kind, "\(path): is a folder, not a \(what)") }
            if (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > limit { throw tooLarge(path, limit, what, kind) }
        }
        var data = Data(count: limit + 1)
        var filled = 0
        let failure: Int32? = data.withUnsafeMutableBytes { raw -> Int32? in
            while filled < raw.count {
                let n = Glibc.read(fd, raw.baseAddress! + filled, raw.count - filled)
                if n == 0 { return nil }
                if n < 0 { if errno == EINTR { continue }; return errno }
                filled += n
            }
            return nil
        }
        if let failure { throw MarbleError(kind, "\(path): cannot read the \(what) (\(String(cString: strerror(failure))))") }
        guard filled <= limit else { throw tooLarge(path, limit, what, kind) }
        data.count = filled
        return data
    }

    /// Whether a picture of `width` × `height` is within ``picturePixels`` (else one line naming it).
    package static func checkPicture(width: Int, height: Int, _ path: String) throws(MarbleError) {
        guard width > 0, height > 0, width <= picturePixels / height else {
            throw MarbleError(.input, "\(path): a \(width)x\(height) picture is larger than the 8192x8192 (67 megapixel) limit")
        }
    }

    private static func tooLarge(_ path: String, _ limit: Int, _ what: String, _ kind: MarbleError.Kind) -> MarbleError {
        MarbleError(kind, "\(path): larger than the \(limit >> 10) KB a \(what) may be")
    }
}
