import Foundation
import MarbleCore
import Testing

@Suite("FileBounds: files are bounded before they are parsed")
struct FileBoundsTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-bounds-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    @Test("a file up to the limit is read whole; one byte more is one line naming the file and the bound")
    func limit() throws {
        let path = folder + "/ten.txt"
        try Data(repeating: 65, count: 10).write(to: URL(fileURLWithPath: path))
        #expect(try FileBounds.read(path, limit: 10, what: "preset", kind: .preset) == Data(repeating: 65, count: 10))
        #expect(throws: MarbleError(.preset, "\(path): larger than the 0 KB a preset may be")) {
            try FileBounds.read(path, limit: 9, what: "preset", kind: .preset)
        }
    }

    @Test("an endless device reads only the bound plus one byte, then is refused; a folder is refused")
    func endlessAndFolder() throws {
        #expect(throws: MarbleError(.input, "/dev/zero: larger than the 1024 KB a playlist may be")) {
            try FileBounds.read("/dev/zero", limit: 1 << 20, what: "playlist", kind: .input)
        }
        #expect(throws: MarbleError(.preset, "\(folder): is a folder, not a preset")) {
            try FileBounds.read(folder, limit: 100, what: "preset", kind: .preset)
        }
    }

    @Test("a FIFO nobody writes into reads as empty instead of waiting forever")
    func fifoWithoutWriter() throws {
        let fifo = folder + "/fifo"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(try FileBounds.read(fifo, limit: 100, what: "playlist", kind: .input).isEmpty)
    }

    @Test("pictures up to 8192x8192 pass; one more row, or a side of 0, is refused by name")
    func pictures() throws {
        try FileBounds.checkPicture(width: 8192, height: 8192, "a.png")
        try FileBounds.checkPicture(width: 1, height: 67_108_864, "tall.png")
        #expect(throws: MarbleError(.input, "b.png: a 8192x8193 picture is larger than the 8192x8192 (67 megapixel) limit")) {
            try FileBounds.checkPicture(width: 8192, height: 8193, "b.png")
        }
        #expect(throws: MarbleError.self) { try FileBounds.checkPicture(width: 0, height: 10, "c.png") }
        #expect(throws: MarbleError.self) { try FileBounds.checkPicture(width: Int.max, height: 2, "d.png") }
    }
}
