import Foundation
import MarbleCore
import Testing

/// Inputs read once are copied within a bound, and inputs that must be files are refused, unread, when
/// they are devices, FIFOs or folders.
@Suite("InputFile: stream copies have a bound; files are files", .serialized)
struct InputFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marble-inputfile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// This process's copies in `$TMPDIR` (their tag starts with its writer's fields).
    func copies() throws -> [String] {
        let w = PartialName.Writer.thisProcess
        let mine = "marble-input-\(w.host)-\(w.boot)-\(w.namespace)-\(w.pid)-\(w.start)-"
        return try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter { $0.hasPrefix(mine) }
    }

    /// A FIFO that `bytes` zero bytes are written into, by a writer of its own.
    func fifo(holding bytes: Int) throws -> (path: String, writer: Process) {
        let path = folder.appendingPathComponent("stream-\(bytes)").path
        #expect(mkfifo(path, 0o600) == 0)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "head -c \(bytes) /dev/zero > \"$0\"", path]
        writer.standardError = FileHandle.nullDevice
        try writer.run()
        return (path, writer)
    }

    @Test("a stream of exactly the bound is copied whole; one byte more is refused, and the copy deleted")
    func bound() throws {
        let limit = 1 << 20
        let fits = try fifo(holding: limit)
        do {
            let input = try InputFile(fits.path, limit: limit)
            #expect(input.isCopy)
            #expect((try FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int) == limit)
        }
        fits.writer.waitUntilExit()
        let over = try fifo(holding: limit + 1)
        do {
            _ = try InputFile(over.path, limit: limit)
            Issue.record("a stream over the bound was copied")
        } catch {
            #expect(error.kind == .input)
            #expect(error.message == "\(over.path): longer than 1 MiB, the most a stream input is copied to $TMPDIR; give it as a file")
        }
        kill(over.writer.processIdentifier, SIGKILL)  // it may still wait to write its last byte
        over.writer.waitUntilExit()
        #expect(try copies().isEmpty)
    }

    @Test("an endless device is refused at the bound, not copied until the disk is full")
    func endlessDevice() throws {
        do {
            _ = try InputFile("/dev/zero", limit: 1 << 20)
            Issue.record("/dev/zero was copied")
        } catch {
            #expect(error.message.hasPrefix("/dev/zero: longer than 1 MiB"))
        }
        #expect(try copies().isEmpty)
        #expect(InputFile.copyLimit == 4_294_967_296)
    }

    @Test("where a file is needed, a device, a FIFO or a folder is refused by name and kind; a file or a missing path passes")
    func regularFiles() throws {
        let file = folder.appendingPathComponent("piece.mp4").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let pipe = folder.appendingPathComponent("pipe.mp4").path
        #expect(mkfifo(pipe, 0o600) == 0)
        try InputFile.requireRegularFile(file, as: "a piece")
        try InputFile.requireRegularFile(folder.appendingPathComponent("missing.mp4").path, as: "a piece")
        let refused = [("/dev/zero", "/dev/zero: is a character device, not a regular file; a piece must be a file"),
                       (pipe, "\(pipe): is a FIFO, not a regular file; a piece must be a file"),
                       (folder.path, "\(folder.path): is a folder; a piece must be a file")]
        for (path, message) in refused {
            do {
                try InputFile.requireRegularFile(path, as: "a piece")
                Issue.record("\(path) passed")
            } catch {
                #expect(error.kind == .input && error.message == message)
            }
        }
    }
}
