import Foundation
import MarbleCore
import Testing
import TestSupport

/// Outputs never destroy what they replace: no rename over a device, FIFO, link or folder, and no output
/// that is an input, however its path is spelled.
@Suite("OutputFile: what an output may replace, and how")
struct OutputFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marble-outputfile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func makeFile(_ name: String, _ text: String = "input") throws -> String {
        let p = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }

    @Test("an output that is the input is refused, however the path is spelled (./, dir/.., symbolic and hard links)")
    func sameFileAsInput() throws {
        let input = try makeFile("song.mp4")
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path("link.mp4"), withDestinationPath: input)
        #expect(link(input, path("hard.mp4")) == 0)
        let spellings = [input, folder.path + "/./song.mp4", path("sub") + "/../song.mp4", path("link.mp4"), path("hard.mp4")]
        for output in spellings {
            #expect(throws: MarbleError.self, "\(output)") {
                try OutputFile.checkNotAnInput(output, inputs: [(path: input, role: "the input")])
            }
        }
        // Another file, or a name with nothing there yet, is fine.
        let other = try makeFile("other.mp4", "other")
        try OutputFile.checkNotAnInput(other, inputs: [(path: input, role: "the input")])
        try OutputFile.checkNotAnInput(path("new.mp4"), inputs: [(path: input, role: "the input")])
        // Any of several inputs counts, and the message names its role.
        do {
            try OutputFile.checkNotAnInput(other, inputs: [(path: input, role: "the input"), (path: other, role: "the --background picture")])
            Issue.record("the background was not recognised")
        } catch {
            #expect(error.message.contains("--background"))
        }
    }

    @Test("a regular file is replaced atomically; a symbolic link's target is replaced and the link stays")
    func regularAndLink() throws {
        let target = try makeFile("target.json", "old")
        try OutputFile.write(Data("new".utf8), to: target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        try FileManager.default.createSymbolicLink(atPath: path("link.json"), withDestinationPath: target)
        try OutputFile.write(Data("newer".utf8), to: path("link.json"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.json")) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "newer")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains(".partial-") })
    }

    @Test("writing a file first deletes what a dead run of this machine left in the folder")
    func writeClearsLeftOvers() throws {
        var dead: pid_t = 999_999
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        var writer = PartialName.Writer.thisProcess
        writer.pid = dead
        let left = ".report.json.partial-" + PartialName(writer: writer, random: "00000000000000ff").tag
        try Data("half".utf8).write(to: URL(fileURLWithPath: path(left)))
        try OutputFile.write(Data("{}".utf8), to: path("other.json"))
        #expect(!FileManager.default.fileExists(atPath: path(left)))
        #expect(FileManager.default.fileExists(atPath: path("other.json")))
    }

    @Test("a device is written through and stays a device; a full one is a clear error")
    func devices() throws {
        try OutputFile.write(Data("discarded".utf8), to: "/dev/null")
        #expect(OutputFile.kind(of: "/dev/null") == .special("a character device"))
        if OutputFile.kind(of: "/dev/full") == .special("a character device") {
            do {
                try OutputFile.write(Data("x".utf8), to: "/dev/full")
                Issue.record("writing /dev/full succeeded")
            } catch {
                #expect(error.message.contains("/dev/full"))
            }
            #expect(OutputFile.kind(of: "/dev/full") == .special("a character device"))
        }
        #expect(throws: MarbleError.self) { try OutputFile.checkReplaceable("/dev/null") }
    }

    @Test("a FIFO is written through to its reader and stays a FIFO; media outputs refuse it")
    func fifo() throws {
        let fifo = path("pipe.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = try FIFOReader(fifo)
        try OutputFile.write(Data("{\"ok\":true}".utf8), to: fifo)
        #expect(reader.text() == "{\"ok\":true}")
        #expect(OutputFile.kind(of: fifo) == .special("a FIFO"))
        #expect(throws: MarbleError.self) { try OutputFile.checkReplaceable(fifo) }
    }

    @Test("a folder is refused")
    func folderRefused() throws {
        #expect(throws: MarbleError.self) { try OutputFile.write(Data(), to: folder.path) }
        #expect(throws: MarbleError.self) { try OutputFile.checkReplaceable(folder.path) }
    }

    @Test("any legal file name gets a legal temporary name (255 bytes at most, whole UTF-8 characters)")
    func temporaryNames() throws {
        let ascii = String(repeating: "a", count: 250) + ".mp4"                       // 254 bytes
        let accented = String(repeating: "é", count: 125) + ".mp4"                    // 254 bytes, 2 per é
        for name in [ascii, accented, "short.mp4"] {
            let temporary = OutputFile.temporaryPath(for: path(name))
            let file = URL(fileURLWithPath: temporary).lastPathComponent
            #expect(file.utf8.count <= 255, "\(file.utf8.count) bytes")
            let tag = file.range(of: ".partial-", options: .backwards).map { file[$0.upperBound...] } ?? ""
            #expect(file.hasPrefix(".") && PartialName(tag: tag)?.writer == PartialName.Writer.thisProcess, "\(file)")
            try OutputFile.write(Data("x".utf8), to: path(name))
            #expect(FileManager.default.fileExists(atPath: path(name)))
        }
        #expect(OutputFile.temporaryPath(for: path("short.mp4")).contains("/.short.mp4.partial-"))
    }
}
