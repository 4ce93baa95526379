import Foundation
import MarbleCore
import MarbleRender
import Testing
@testable import MarbleStudio

/// A fresh folder for one test, removed when the test ends; `path` is its real path.
final class StudioScratch {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("marble-studio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.resolvingSymlinksInPath().path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Makes the folder `relative` (and its parents); returns its path.
    @discardableResult
    func folder(_ relative: String) throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }

    /// Writes `text` to the file `relative` (making its folder); returns its path.
    @discardableResult
    func file(_ relative: String, _ text: String = "x") throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// Copies the file at `source` to `relative`; returns its path.
    @discardableResult
    func copy(_ source: String, to relative: String) throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: full)
        return full
    }

    /// Makes `relative` a symbolic link to `target`; returns its path.
    @discardableResult
    func link(_ relative: String, to target: String) throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: target)
        return full
    }

    /// The names of the entries of the folder `relative`, sorted, hidden ones included.
    func entries(_ relative: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? path : path + "/" + relative).sorted()
    }
}

@Suite("Studio folders")
struct StudioFoldersTests {
    /// The test's own folder, removed after it.
    private let scratch: StudioScratch

    init() throws { scratch = try StudioScratch() }

    /// song folder "songs" (with a.mp3, sub/b.mp3), MilkDrop folder "milk", output "out"; "outside" beside them.
    private func layout() throws -> StudioFolders {
        try scratch.file("songs/a.mp3")
        try scratch.file("songs/sub/b.mp3")
        try scratch.file("milk/set/one.milk")
        try scratch.file("outside/secret.mp3")
        let folders = try StudioFolders(songs: [scratch.path + "/songs"], milkDrop: scratch.path + "/milk",
                                        output: scratch.path + "/out")
        return folders
    }

    private func refusal(_ body: () throws(StudioFailure) -> Void) -> StudioFailure? {
        do { try body(); return nil } catch { return error }
    }

    @Test("the folders are kept as real paths; the output folder and its presets folder are made")
    func makes() throws {
        let folders = try layout()
        #expect(folders.songFolders == [scratch.path + "/songs"])
        #expect(folders.milkDrop == scratch.path + "/milk")
        #expect(folders.output == scratch.path + "/out")
        #expect(folders.presets == scratch.path + "/out/presets")
        #expect(try scratch.entries("out") == ["presets"])
        // Spelled with a link and a `..`, a folder is still its real path.
        try scratch.link("alias", to: scratch.path + "/songs")
        let again = try StudioFolders(songs: [scratch.path + "/alias/../songs/sub/.."], milkDrop: nil, output: scratch.path + "/out")
        #expect(again.songFolders == [scratch.path + "/songs"])
        #expect(again.milkDrop == nil)
        #expect(again.allFolders == [scratch.path + "/songs", scratch.path + "/out"])
    }

    @Test("a missing song folder, a file given as one, or no folder at all is an option error")
    func refusesBadFolders() throws {
        try scratch.file("song.mp3")
        #expect(throws: MarbleError(.option, "song folder \(scratch.path)/nope: no such folder")) {
            try StudioFolders(songs: [scratch.path + "/nope"], milkDrop: nil, output: scratch.path + "/out")
        }
        #expect(throws: MarbleError(.option, "song folder \(scratch.path)/song.mp3: is not a folder")) {
            try StudioFolders(songs: [scratch.path + "/song.mp3"], milkDrop: nil, output: scratch.path + "/out")
        }
        #expect(throws: MarbleError(.option, "--milkdrop \(scratch.path)/none: no such folder")) {
            try StudioFolders(songs: [scratch.path], milkDrop: scratch.path + "/none", output: scratch.path + "/out")
        }
        #expect(throws: MarbleError(.option, "give at least one folder of songs")) {
            try StudioFolders(songs: [], milkDrop: nil, output: scratch.path + "/out")
        }
        let blocked = try #require(throws: MarbleError.self) {
            try StudioFolders(songs: [scratch.path], milkDrop: nil, output: scratch.path + "/song.mp3/out")
        }
        #expect(blocked.kind == .option)
        #expect(blocked.message.hasPrefix("--output \(scratch.path)/song.mp3/out: cannot create the folder"))
    }

    @Test("a relative path inside a song folder resolves to its real path")
    func resolves() throws {
        let folders = try layout()
        #expect(try folders.resolve(relative: "a.mp3", folder: 0) == scratch.path + "/songs/a.mp3")
        #expect(try folders.resolve(relative: "sub/b.mp3", folder: 0) == scratch.path + "/songs/sub/b.mp3")
        #expect(try folders.resolve(relative: "./sub//b.mp3", folder: 0) == scratch.path + "/songs/sub/b.mp3")
        // A link to a file inside the folder is followed: the answer is the target.
        try scratch.link("songs/latest.mp3", to: "sub/b.mp3")
        #expect(try folders.resolve(relative: "latest.mp3", folder: 0) == scratch.path + "/songs/sub/b.mp3")
    }

    @Test("absolute paths, `..`, NUL and links leading out are forbidden, whatever the spelling")
    func forbids() throws {
        let folders = try layout()
        try scratch.link("songs/out.mp3", to: scratch.path + "/outside/secret.mp3")
        try scratch.link("songs/away", to: scratch.path + "/outside")
        try scratch.link("songs/etc", to: "/etc")
        let cases: [(String, String)] = [
            ("/etc/hostname", "/etc/hostname: is an absolute path; give one relative to its folder"),
            ("../outside/secret.mp3", "../outside/secret.mp3: holds a `..` component"),
            ("sub/../a.mp3", "sub/../a.mp3: holds a `..` component"),
            ("a.mp3\0.txt", "a.mp3?.txt: holds a NUL character"),
            ("out.mp3", "out.mp3: leads outside its folder"),
            ("away/secret.mp3", "away/secret.mp3: leads outside its folder"),
            ("away/missing.mp3", "away/missing.mp3: leads outside its folder"),
            ("etc/hostname", "etc/hostname: leads outside its folder"),
        ]
        for (path, message) in cases {
            #expect(refusal { () throws(StudioFailure) in _ = try folders.resolve(relative: path, folder: 0) }
                    == StudioFailure(.forbidden, message), "\(path)")
        }
        #expect(StudioFailure(.forbidden, "").status == 403)
    }

    @Test("empty and over-long paths and unknown folders are bad requests; missing files and folders are not found")
    func badAndMissing() throws {
        let folders = try layout()
        func resolve(_ path: String, _ folder: Int = 0) -> StudioFailure? {
            refusal { () throws(StudioFailure) in _ = try folders.resolve(relative: path, folder: folder) }
        }
        #expect(resolve("") == StudioFailure(.badRequest, "the path is empty"))
        let longName = String(repeating: "n", count: 256)
        #expect(resolve("sub/" + longName) == StudioFailure(.badRequest, "sub/nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn…: a name in the path is 256 bytes, more than the 255 a file system allows"))
        let longPath = Array(repeating: String(repeating: "d", count: 200), count: 21).joined(separator: "/")
        #expect(resolve(longPath)?.message.hasSuffix(": the path is 4220 bytes, more than the 4095 Linux allows") == true)
        #expect(resolve(longPath)?.kind == .badRequest)
        #expect(resolve("a.mp3", 1) == StudioFailure(.badRequest, "folder: 1 is not one of the 1 song folders (0…0)"))
        #expect(resolve("a.mp3", -1)?.kind == .badRequest)
        #expect(resolve("missing.mp3") == StudioFailure(.notFound, "missing.mp3: no such file"))
        #expect(resolve("two\nlines.mp3") == StudioFailure(.notFound, "two?lines.mp3: no such file"))
        #expect(resolve("a.mp3/inside") == StudioFailure(.notFound, "a.mp3/inside: no such file"))
        #expect(resolve("sub") == StudioFailure(.notFound, "sub: is not a file"))
        #expect(resolve("sub")?.status == 404)
    }

    @Test("a look's milkdrop file and textures resolve inside the folders and become absolute")
    func lookPaths() throws {
        let folders = try layout()
        try scratch.folder("milk/textures")
        try scratch.link("songs/alias.mp3", to: "a.mp3")
        let look = Preset(name: "m", layers: [
            LayerSpec(shader: "milkdrop", parameters: ["file": .text("set/one.milk"), "textures": .text("textures"),
                                                       "seed": .number(3)]),
            LayerSpec(shader: "text", parameters: ["text": .text("hi"), "font": .text("DejaVu Sans:bold")]),
            LayerSpec(shader: "milkdrop", parameters: ["file": .text(scratch.path + "/songs/alias.mp3")]),
            LayerSpec(shader: "milkdrop", parameters: ["file": .text("")]),
        ])
        let checked = try folders.checkLookPaths(look)
        #expect(checked.layers[0].parameters == ["file": .text(scratch.path + "/milk/set/one.milk"),
                                                 "textures": .text(scratch.path + "/milk/textures"), "seed": .number(3)])
        #expect(checked.layers[1] == look.layers[1])  // a Fontconfig name is not a path
        #expect(checked.layers[2].parameters["file"] == .text(scratch.path + "/songs/a.mp3"))
        #expect(checked.layers[3] == look.layers[3])  // empty: the built-in preset
    }

    @Test("a look's paths outside the folders, relative fonts and missing files are refused, naming the field")
    func lookPathRefusals() throws {
        let folders = try layout()
        func check(_ shader: String, _ key: String, _ value: String, milkDrop: Bool = true) -> StudioFailure? {
            let preset = Preset(name: "m", layers: [LayerSpec(shader: "solid"), LayerSpec(shader: shader, parameters: [key: .text(value)])])
            let using = milkDrop ? folders : try! StudioFolders(songs: folders.songFolders, milkDrop: nil, output: folders.output)
            return refusal { () throws(StudioFailure) in _ = try using.checkLookPaths(preset) }
        }
        #expect(check("milkdrop", "file", "/usr/share") == StudioFailure(.forbidden, "layers[1].parameters.file: /usr/share: is outside the studio's folders"))
        #expect(check("milkdrop", "textures", "../outside") == StudioFailure(.forbidden, "layers[1].parameters.textures: ../outside: holds a `..` component"))
        let climbing = scratch.path + "/songs/../outside/secret.mp3"  // over 80 bytes: shown shortened
        #expect(check("milkdrop", "file", climbing)
                == StudioFailure(.forbidden, "layers[1].parameters.file: \(climbing.prefix(40))…: holds a `..` component"))
        #expect(check("milkdrop", "file", "set/two.milk") == StudioFailure(.notFound, "layers[1].parameters.file: set/two.milk: no such file"))
        #expect(check("milkdrop", "file", scratch.path + "/milk/two.milk") == StudioFailure(.notFound, "layers[1].parameters.file: \(scratch.path)/milk/two.milk: no such file or folder"))
        #expect(check("milkdrop", "file", "set/one.milk", milkDrop: false)
                == StudioFailure(.forbidden, "layers[1].parameters.file: set/one.milk: a relative path has no folder to be relative to; give an absolute path inside the studio's folders"))
        #expect(check("text", "font", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
                == StudioFailure(.forbidden, "layers[1].parameters.font: /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf: is outside the studio's folders"))
        #expect(check("lyrics", "font", "fonts/mine.ttf")
                == StudioFailure(.forbidden, "layers[1].parameters.font: fonts/mine.ttf: a relative path has no folder to be relative to; give an absolute path inside the studio's folders"))
        // A link inside the folder that leads out is caught by its real path.
        try scratch.link("milk/escape.milk", to: scratch.path + "/outside/secret.mp3")
        #expect(check("milkdrop", "file", "escape.milk") == StudioFailure(.forbidden, "layers[1].parameters.file: escape.milk: leads outside its folder"))
        #expect(check("milkdrop", "file", scratch.path + "/milk/escape.milk")
                == StudioFailure(.forbidden, "layers[1].parameters.file: \(scratch.path)/milk/escape.milk: is outside the studio's folders"))
    }
}
