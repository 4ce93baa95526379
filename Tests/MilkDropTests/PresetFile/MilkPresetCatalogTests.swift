import Foundation
import MilkDrop
import Testing

@Suite("MilkPresetCatalog")
struct MilkPresetCatalogTests {
    /// A fresh directory under the system's temporary folder, removed by the caller.
    func makeTree() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("milk-catalog-\(UUID().uuidString)").path
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/b/deeper", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/a", withIntermediateDirectories: true)
        func write(_ path: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: root + path)) }
        try write("/a/one.milk", "zoom=1\nper_frame_1=zoom=1.01;\n")
        try write("/b/deeper/two.MILK", "MILKDROP_PRESET_VERSION=201\n[preset00]\nwarp_1=`shader_body {}\n")
        try write("/b/three.milk", "[preset00]\n// only a comment\n")
        try write("/b/readme.txt", "zoom=1\n")
        try write("/Z.milk", "zoom=2\n")
        try Data([0x7A, 0x3D, 0x31, 0x00]).write(to: URL(fileURLWithPath: root + "/a/binary.milk"))
        // A link loop, a second link to a folder already seen, a dangling link named like a preset, a pipe.
        try fm.createSymbolicLink(atPath: root + "/b/deeper/loop", withDestinationPath: root + "/b")
        try fm.createSymbolicLink(atPath: root + "/c-link-to-a", withDestinationPath: root + "/a")
        try fm.createSymbolicLink(atPath: root + "/a/gone.milk", withDestinationPath: root + "/nowhere.milk")
        #expect(mkfifo(root + "/b/pipe.milk", 0o644) == 0)
        return root
    }

    @Test("lists .milk files recursively in byte order, once each, through link loops; a file path works too")
    func listing() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let catalog = MilkPresetCatalog(path: root + "/")
        #expect(catalog.paths == ["/Z.milk", "/a/binary.milk", "/a/gone.milk", "/a/one.milk",
                                  "/b/deeper/two.MILK", "/b/pipe.milk", "/b/three.milk"].map { root + $0 })
        #expect(catalog.problems.isEmpty)
        #expect(MilkPresetCatalog(path: root).paths == catalog.paths)
        #expect(MilkPresetCatalog(path: root + "/b/readme.txt").paths == [root + "/b/readme.txt"])
        let missing = MilkPresetCatalog(path: root + "/none")
        #expect(missing.paths.isEmpty && missing.problems.map(\.reason) == [.unreadable])
    }

    @Test("a scan parses each file and groups failures by reason; presets with shaders are counted")
    func scan() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = MilkPresetCatalog(path: root).scan()
        #expect(report.fileCount == 7 && report.parsedCount == 3 && report.withShadersCount == 1)
        let groups = report.failuresByReason.map { ($0.reason, $0.errors.map(\.path)) }
        #expect(groups.map(\.0) == [.unreadable, .notRegularFile, .notText, .noPresetContent])
        #expect(groups.map(\.1) == [[root + "/a/gone.milk"], [root + "/b/pipe.milk"], [root + "/a/binary.milk"],
                                    [root + "/b/three.milk"]])
        guard case .parsed(let two) = report.entries[4].outcome else { Issue.record("two.MILK not parsed"); return }
        #expect(two.version == 201 && two.hasWarpShader && !two.hasCompositeShader)
        #expect(report.description.contains("7 .milk files, 3 parsed (1 with HLSL warp/composite shaders), 4 failed"))
        #expect(report.description.contains("  not a text file: 1\n    \(root)/a/binary.milk:1: NUL byte"))
    }

    @Test("a folder that cannot be listed is a problem, not a crash (needs a non-root user to deny access)")
    func unreadableFolder() throws {
        let root = try makeTree()
        defer {
            chmod(root + "/b", 0o755)
            try? FileManager.default.removeItem(atPath: root)
        }
        chmod(root + "/b", 0)
        let catalog = MilkPresetCatalog(path: root)
        if access(root + "/b", R_OK) == 0 {
            // root reads anything: the folder is listed as usual.
            #expect(catalog.paths.count == 7)
        } else {
            #expect(catalog.problems.map(\.path) == [root + "/b"])
            #expect(catalog.paths == ["/Z.milk", "/a/binary.milk", "/a/gone.milk", "/a/one.milk"].map { root + $0 })
        }
    }
}
