import MarbleCore
@testable import MilkDrop
import Testing

@Suite("Disk textures: MilkDrop's lookup order, the random pick, sizes checked before allocating")
struct DiskTexturesTests {
    let loader = FlatImageLoader()

    func library(_ folders: [String]) -> DiskTextures {
        DiskTextures(folders: folders, loader: loader, systemFolders: [])
    }

    @Test("extension first, then folder: the user's folders in order, then beside the preset; any case")
    func lookupOrder() {
        let user1 = temporaryFolder("tex1"), user2 = temporaryFolder("tex2"), preset = temporaryFolder("preset")
        FlatImageLoader.write(user2 + "/worms.png", r: 1)
        FlatImageLoader.write(preset + "/worms.jpg", r: 2)
        FlatImageLoader.write(user1 + "/Clouds2.JPG", r: 3)
        FlatImageLoader.write(user2 + "/clouds2.jpg", r: 4)
        FlatImageLoader.write(preset + "/lichen.tga", r: 5)
        FlatImageLoader.write(user1 + "/notes.txt", r: 6)
        let disk = library([user1, user2])
        // jpg comes before png, so the jpg beside the preset wins over the png in a texture folder.
        #expect(disk.path(forTexture: "worms", presetFolder: preset) == preset + "/worms.jpg")
        #expect(disk.path(forTexture: "worms", presetFolder: nil) == user2 + "/worms.png")
        // The same extension in two folders: the first folder, whatever the case of the file.
        #expect(disk.path(forTexture: "clouds2", presetFolder: preset) == user1 + "/Clouds2.JPG")
        #expect(disk.path(forTexture: "lichen", presetFolder: preset) == preset + "/lichen.tga")
        #expect(disk.path(forTexture: "notes", presetFolder: preset) == nil)
        #expect(disk.path(forTexture: "lichen", presetFolder: nil) == nil)
        // A listing is read once: a file added later is found after rescan().
        FlatImageLoader.write(user1 + "/seaweed.bmp", r: 7)
        #expect(disk.path(forTexture: "seaweed", presetFolder: nil) == nil)
        disk.rescan()
        #expect(disk.path(forTexture: "seaweed", presetFolder: nil) == user1 + "/seaweed.bmp")
        // Loaded once and shared.
        let a = try? disk.texture(at: user1 + "/seaweed.bmp"), b = try? disk.texture(at: user1 + "/seaweed.bmp")
        #expect(a != nil && a === b && loader.decoded == 1)
        #expect(a.map { close(read($0, Modes.pc, 0.5, 0.5), unit(packed(7, 0, 0))) } == true)
    }

    @Test("randNN picks among the texture folders' images, by seed and slot, filtered by prefix")
    func randomPick() {
        let user = temporaryFolder("rand"), preset = temporaryFolder("rand-preset")
        for name in ["a.jpg", "b.png", "SmallTiled_one.tga", "smalltiled_two.jpg", "readme.txt"] {
            FlatImageLoader.write(user + "/" + name, r: 1)
        }
        FlatImageLoader.write(preset + "/beside.jpg", r: 1)
        let disk = library([user])
        let images = Set(["a.jpg", "b.png", "SmallTiled_one.tga", "smalltiled_two.jpg"].map { user + "/" + $0 })
        var picked = Set<String>()
        for seed in 0..<64 as Range<UInt64> {
            let path = disk.randomPath(slot: 0, prefix: "", seed: seed)
            #expect(path == disk.randomPath(slot: 0, prefix: "", seed: seed))   // repeatable
            if let path { picked.insert(path) }
            let tiled = disk.randomPath(slot: 2, prefix: "smalltiled", seed: seed)
            #expect(tiled == user + "/SmallTiled_one.tga" || tiled == user + "/smalltiled_two.jpg")
        }
        // Every image gets picked by some seed, never the text file nor the image beside the preset.
        #expect(picked == images)
        // Slots differ: over 64 seeds, slot 0 and slot 1 do not always agree.
        #expect((0..<64 as Range<UInt64>).contains { disk.randomPath(slot: 0, prefix: "", seed: $0) != disk.randomPath(slot: 1, prefix: "", seed: $0) })
        #expect(disk.randomPath(slot: 0, prefix: "nothing", seed: 1) == nil)
        #expect(library([]).randomPath(slot: 0, prefix: "", seed: 1) == nil)
    }

    @Test("a hostile size is refused before any pixel is allocated; unreadable images are errors")
    func hostile() {
        let user = temporaryFolder("hostile")
        FlatImageLoader.write(user + "/huge.png", width: 100_000, height: 100_000, r: 1)
        FlatImageLoader.write(user + "/wide.png", width: 8193, height: 1, r: 1)
        FlatImageLoader.write(user + "/many.png", width: 8192, height: 4096, r: 1)
        FlatImageLoader.write(user + "/empty.png", width: 0, height: 5, r: 1)
        try! "not an image".write(toFile: user + "/junk.png", atomically: true, encoding: .utf8)
        let disk = library([user])
        for name in ["huge", "wide", "many", "empty", "junk"] {
            #expect(throws: ShaderTextureError.self, "\(name)") { try disk.texture(at: user + "/\(name).png") }
        }
        #expect(loader.decoded == 0)
        do {
            _ = try disk.texture(at: user + "/huge.png")
        } catch {
            #expect(error.description.contains("100000 × 100000"))
        }
        // The limits themselves: the largest accepted sizes.
        #expect((try? ShaderTextureLimits.check(width: 8192, height: 2048, path: "x")) != nil)
        #expect((try? ShaderTextureLimits.check(width: 4096, height: 4096, path: "x")) != nil)
        #expect((try? ShaderTextureLimits.check(width: Int.max, height: Int.max, path: "x")) == nil)
    }
}
