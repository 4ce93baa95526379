import Foundation
import MarbleCore
import Testing
@testable import MarbleStudio

@Suite("MilkDrop shelf")
struct MilkDropShelfTests {
    /// The test's own folder, removed after it.
    private let scratch: StudioScratch

    init() throws { scratch = try StudioScratch() }

    /// Debian's projectm-data, which the tests depend on (see the brief's rules: installed, not committed).
    static let projectM = "/usr/share/projectM/presets"
    /// A few of its presets: MilkDrop 1.x and 2 (with HLSL shaders), waves, shapes, textures.
    static let samples = [
        "presets_stock/Geiss - Space Voyage.milk",
        "presets_milkdrop_200/Aderrasi + Geiss - Airhandler (Square Mix).milk",
        "presets_stock/Aderrasi - Agitator.milk",
    ]

    private func refusal(_ body: () throws(StudioFailure) -> Void) -> StudioFailure? {
        do { try body(); return nil } catch { return error }
    }

    private func makeShelf() throws -> MilkDropShelf {
        for name in ["b/x.milk", "a.milk", "B/Y.MILK", "a/deep/z.milk", ".hidden.milk", "notes.txt", "c/.milk"] {
            try scratch.file("milk/" + name, "[preset00]\nzoom=1\n")
        }
        try scratch.file("elsewhere/out.milk")
        try scratch.link("milk/inside.milk", to: "a.milk")
        try scratch.link("milk/outside.milk", to: scratch.path + "/elsewhere/out.milk")
        try scratch.link("milk/loop", to: ".")
        return MilkDropShelf(folder: scratch.path + "/milk", frames: 8)
    }

    @Test("the .milk files under the folder, sorted; hidden names, other files and links leading out are left out")
    func lists() throws {
        let shelf = try makeShelf()
        #expect(try shelf.list() == MilkDropShelf.Page(total: 5, offset: 0, presets: ["B/Y.MILK", "a.milk", "a/deep/z.milk", "b/x.milk", "inside.milk"]))
    }

    @Test("pages and the search")
    func pages() throws {
        let shelf = try makeShelf()
        #expect(try shelf.list(offset: 1, limit: 2) == MilkDropShelf.Page(total: 5, offset: 1, presets: ["a.milk", "a/deep/z.milk"]))
        #expect(try shelf.list(offset: 4, limit: 500) == MilkDropShelf.Page(total: 5, offset: 4, presets: ["inside.milk"]))
        #expect(try shelf.list(offset: 9) == MilkDropShelf.Page(total: 5, offset: 9, presets: []))
        #expect(try shelf.list(search: "y.m") == MilkDropShelf.Page(total: 1, offset: 0, presets: ["B/Y.MILK"]))
        #expect(try shelf.list(search: "B/") == MilkDropShelf.Page(total: 2, offset: 0, presets: ["B/Y.MILK", "b/x.milk"]))
        #expect(try shelf.list(search: "nothing like it").total == 0)
    }

    @Test("bad pages and a studio without a MilkDrop folder are refused")
    func refusals() throws {
        let shelf = try makeShelf()
        #expect(refusal { () throws(StudioFailure) in _ = try shelf.list(offset: -1) } == StudioFailure(.badRequest, "offset: -1 is below 0"))
        #expect(refusal { () throws(StudioFailure) in _ = try shelf.list(limit: 0) } == StudioFailure(.badRequest, "limit: 0 is out of range 1…500"))
        #expect(refusal { () throws(StudioFailure) in _ = try shelf.list(limit: 501) } == StudioFailure(.badRequest, "limit: 501 is out of range 1…500"))
        #expect(refusal { () throws(StudioFailure) in _ = try shelf.list(search: String(repeating: "s", count: 257)) }
                == StudioFailure(.badRequest, "search: longer than 256 bytes"))
        let none = MilkDropShelf(folder: nil)
        let message = "the studio has no MilkDrop folder (give --milkdrop DIR)"
        #expect(try none.list() == MilkDropShelf.Page(total: 0, offset: 0, presets: []))
        #expect(refusal { () throws(StudioFailure) in _ = try none.thumbnail("a.milk") } == StudioFailure(.notFound, message))
    }

    @Test("projectM's whole folder lists in pages of at most 500")
    func projectMFolder() throws {
        let shelf = MilkDropShelf(folder: Self.projectM, frames: 8)
        let first = try shelf.list(limit: 500)
        #expect(first.total > 4000)
        #expect(first.presets.count == 500)
        #expect(first.presets == first.presets.sorted())
        for sample in Self.samples { #expect(try shelf.list(search: sample).presets == [sample]) }
    }

    @Test("a thumbnail is a 160x90 JPEG of the preset after its frames, remembered until the file changes")
    func thumbnails() throws {
        let shelf = MilkDropShelf(folder: Self.projectM, frames: 8)
        var pictures: [[UInt8]] = []
        for sample in Self.samples {
            let jpeg = try shelf.thumbnail(sample)
            #expect(jpeg.prefix(2) == [0xFF, 0xD8])
            #expect(jpeg.suffix(2) == [0xFF, 0xD9])
            let size = Self.size(ofJPEG: jpeg)
            #expect(size?.0 == 160 && size?.1 == 90)
            pictures.append(jpeg)
        }
        #expect(Set(pictures).count == Self.samples.count)
        #expect(shelf.thumbnailsDrawn == Self.samples.count)
        #expect(try shelf.thumbnail(Self.samples[0]) == pictures[0])
        #expect(shelf.thumbnailsDrawn == Self.samples.count)  // from memory
    }

    @Test("a thumbnail is the same bytes whenever it is drawn, whatever was drawn before")
    func repeatable() throws {
        let first = try MilkDropShelf.draw(Self.projectM + "/" + Self.samples[2], frames: 8)
        _ = try MilkDropShelf.draw(Self.projectM + "/" + Self.samples[1], frames: 8)
        #expect(try MilkDropShelf.draw(Self.projectM + "/" + Self.samples[2], frames: 8) == first)
    }

    @Test("a thumbnail shows something: over 1% of the pixels are not black")
    func drawsSomething() throws {
        for sample in Self.samples.prefix(2) {   // two whole thumbnails (45 frames each: seconds in a debug build)
            let frame = try MilkDropShelf.frame(Self.projectM + "/" + sample)
            var lit = 0
            for y in 0..<frame.height {
                let row = frame.view.row32(y)
                for x in 0..<frame.width where row[x] & 0x00FF_FFFF > 0x0010_1010 { lit += 1 }
            }
            #expect(lit > 160 * 90 / 100, "\(sample)")
        }
    }

    @Test("a changed file is drawn again")
    func redraws() throws {
        let path = try scratch.copy(Self.projectM + "/" + Self.samples[0], to: "milk/p.milk")
        let shelf = MilkDropShelf(folder: scratch.path + "/milk", frames: 8)
        _ = try shelf.thumbnail("p.milk")
        _ = try shelf.thumbnail("p.milk")
        #expect(shelf.thumbnailsDrawn == 1)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n".utf8))
        try handle.close()
        _ = try shelf.thumbnail("p.milk")
        #expect(shelf.thumbnailsDrawn == 2)
    }

    @Test("a broken preset gives one line, naming the file by its path in the folder")
    func broken() throws {
        try scratch.file("milk/empty.milk", "")
        try scratch.file("milk/garbage.milk", String(repeating: "\u{1}\u{2}((((]]]=\n", count: 200))
        try scratch.file("milk/notes.txt", "[preset00]\n")
        try scratch.file("milk/bad-code.milk", "[preset00]\nzoom=1.01\nper_frame_1=zoom = ((((zoom;\nper_pixel_1=rot = sin(;\n")
        let shelf = MilkDropShelf(folder: scratch.path + "/milk", frames: 8)
        for name in ["empty.milk", "garbage.milk"] {
            let refused = try #require(refusal { () throws(StudioFailure) in _ = try shelf.thumbnail(name) })
            #expect(refused.kind == .badRequest)
            #expect(refused.message.hasPrefix("\(name): "), "\(refused.message)")
            #expect(!refused.message.contains("\n"))
            #expect(!refused.message.contains(scratch.path))
        }
        #expect(refusal { () throws(StudioFailure) in _ = try shelf.thumbnail("notes.txt") }
                == StudioFailure(.badRequest, "notes.txt: is not a MilkDrop preset (.milk)"))
        #expect(refusal { () throws(StudioFailure) in _ = try shelf.thumbnail("../milk/empty.milk") }?.kind == .forbidden)
        #expect(refusal { () throws(StudioFailure) in _ = try shelf.thumbnail("none.milk") } == StudioFailure(.notFound, "none.milk: no such file"))
        // Equations that do not compile are the loader's to judge: a picture or one line, never a crash.
        do throws(StudioFailure) {
            let jpeg = try shelf.thumbnail("bad-code.milk")
            #expect(jpeg.prefix(2) == [0xFF, 0xD8])
        } catch {
            #expect(error.message.hasPrefix("bad-code.milk: ") && !error.message.contains("\n"))
        }
        #expect(shelf.thumbnailsDrawn == 3)
    }

    @Test("the thumbnail memory keeps the last 512, the oldest going first")
    func bounded() {
        var cache = ThumbnailCache()
        func key(_ i: Int) -> ThumbnailCache.Key { ThumbnailCache.Key(path: "p\(i).milk", seconds: 1, nanoseconds: 2, size: 3) }
        for i in 0...MilkDropShelf.maximumThumbnails { cache.insert([UInt8(i & 255)], for: key(i)) }
        #expect(cache.picture(for: key(0)) == nil)
        #expect(cache.picture(for: key(1)) == [1])
        #expect(cache.picture(for: key(512)) == [0])
        cache.insert([9], for: key(1))  // already there: not added twice, nothing else goes
        #expect(cache.picture(for: key(2)) == [2])
        #expect(cache.picture(for: ThumbnailCache.Key(path: "p1.milk", seconds: 1, nanoseconds: 2, size: 4)) == nil)
    }

    /// The width and height a JPEG's first start-of-frame marker (SOF0…SOF2) states.
    static func size(ofJPEG bytes: [UInt8]) -> (Int, Int)? {
        var i = 2
        while i + 9 < bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1], length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if (0xC0...0xC2).contains(marker) {
                return (Int(bytes[i + 7]) << 8 | Int(bytes[i + 8]), Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]))
            }
            i += 2 + length
        }
        return nil
    }
}
