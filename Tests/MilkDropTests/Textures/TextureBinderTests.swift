import MarbleCore
@testable import MilkDrop
import Testing

@Suite("The binder: every sampler slot resolved once per preset")
struct TextureBinderTests {
    func use(_ name: String, volume: Bool = false) -> ShaderSamplerUse { SamplerName.use("sampler_" + name, isVolume: volume) }

    @Test("main, blur levels, noise and disk textures; the highest blur level is reported")
    func resolve() {
        let buffer = Texture(width: 8, height: 8)
        let main = BorrowedTexture(buffer.view), blur = BlurPyramid()
        let user = temporaryFolder("bind")
        FlatImageLoader.write(user + "/worms.jpg", r: 9)
        let binder = TextureBinder(main: main, blur: blur, disk: DiskTextures(folders: [user], loader: FlatImageLoader(), systemFolders: []))
        let samplers = [use("fc_main"), use("blur2"), use("noise_lq"), use("noisevol_hq", volume: true), use("worms"), use("pw_main")]
        let b = binder.bind(samplers, presetFolder: nil, seed: 1)
        #expect(b.textures.count == 6)
        #expect(b.textures[0] === main && b.textures[5] === main)
        #expect(b.textures[1] === blur.levels[1])
        #expect(b.textures[2] === NoiseTextures.shared.lq && b.textures[3] === NoiseTextures.shared.volumeHQ)
        #expect(close(read(b.textures[4], Modes.pc, 0.5, 0.5), unit(packed(9, 0, 0))))
        #expect(b.blurLevels == 2 && b.standIns.isEmpty && b.randomPicks.isEmpty)
        #expect(binder.bind([use("blur1"), use("blur3"), use("main")], presetFolder: nil, seed: 1).blurLevels == 3)
        #expect(binder.bind([use("main")], presetFolder: nil, seed: 1).blurLevels == 0)
    }

    @Test("a missing or refused texture gets the stand-in, counted with its reason; randNN is repeatable")
    func fallbacks() {
        let buffer = Texture(width: 8, height: 8)
        let user = temporaryFolder("bind-missing"), preset = temporaryFolder("bind-preset")
        // Beside the preset: found by name, never a random pick.
        FlatImageLoader.write(preset + "/huge.jpg", width: 50_000, height: 50_000, r: 1)
        FlatImageLoader.write(user + "/one.jpg", r: 1)
        FlatImageLoader.write(user + "/two.jpg", r: 2)
        let binder = TextureBinder(main: BorrowedTexture(buffer.view), blur: BlurPyramid(),
                                   disk: DiskTextures(folders: [user], loader: FlatImageLoader(), systemFolders: []))
        let b = binder.bind([use("worms"), use("huge"), use("blur4"), use("rand03_nothing"), use("rand05")], presetFolder: preset, seed: 42)
        let standIn = NoiseTextures.shared.standIn
        #expect(b.textures[0] === standIn && b.textures[1] === standIn && b.textures[2] === standIn && b.textures[3] === standIn)
        #expect(b.textures[4] !== standIn)
        #expect(b.standIns.count == 4)
        #expect(b.standIns[0].path == "worms" && b.standIns[0].message.contains("worms.{jpg,dds,png,tga,bmp,dib}"))
        #expect(b.standIns[1].message.contains("50000 × 50000"))
        #expect(b.standIns[3].message.contains("nothing*"))
        // The pick is the same for the same seed, in another shader too.
        let again = binder.bind([use("fw_rand05")], presetFolder: preset, seed: 42)
        #expect(again.randomPicks["rand05"] == b.randomPicks["rand05"] && b.randomPicks["rand05"] != nil)
        // No disk library at all: every disk name is a stand-in.
        let bare = TextureBinder(main: BorrowedTexture(buffer.view), blur: BlurPyramid(), disk: nil)
        let none = bare.bind([use("worms"), use("main")], presetFolder: nil, seed: 1)
        #expect(none.textures[0] === standIn && none.standIns.count == 1)
    }
}
