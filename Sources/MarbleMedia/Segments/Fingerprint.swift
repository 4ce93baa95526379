internal import CFFmpeg
import Foundation
import MarbleCore

/// A 128-bit MurmurHash3 of bytes (libavutil's `av_hash`, "murmur3"), as 32 hex digits: how a segment
/// names the input and the scene it was rendered from, so pieces of different renders are never
/// joined. Not cryptographic: it tells honest mistakes apart (another song, an edited preset).
package enum Fingerprint {
    /// The fingerprint of a file's bytes, read in 1 MiB blocks (memory stays flat in the file's size).
    package static func of(file path: String) throws(MarbleError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MarbleError(.input, "\(path): cannot be read")
        }
        defer { try? handle.close() }
        let hash = try Hasher()
        while true {
            let block: Data
            do { block = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw MarbleError(.input, "\(path): cannot be read (\(error.localizedDescription))")
            }
            if block.isEmpty { break }
            hash.update(block)
        }
        return hash.hex()
    }

    /// The fingerprint of a text's UTF-8 bytes.
    package static func of(text: String) throws(MarbleError) -> String {
        let hash = try Hasher()
        hash.update(Data(text.utf8))
        return hash.hex()
    }

    /// The generic hash context, freed with its owner.
    private final class Hasher {
        private var context: OpaquePointer?

        init() throws(MarbleError) {
            guard av_hash_alloc(&context, "murmur3") >= 0, context != nil else {
                throw MarbleError(.media, "libavutil has no murmur3 hash")
            }
            av_hash_init(context)
        }

        deinit { av_hash_freep(&context) }

        func update(_ data: Data) {
            data.withUnsafeBytes { raw in
                guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return }
                av_hash_update(context, base, .init(raw.count))
            }
        }

        func hex() -> String {
            var digest = [UInt8](repeating: 0, count: Int(AV_HASH_MAX_SIZE))
            let size = Int(av_hash_get_size(context))
            av_hash_final(context, &digest)
            return digest.prefix(size).map { String(format: "%02x", $0) }.joined()
        }
    }
}
