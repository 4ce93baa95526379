@testable import MilkDrop
import Testing

@Suite("Sampler names as MilkDrop 2 reads them: mode prefixes, blur defaults, randNN")
struct SamplerNameTests {
    @Test("prefixes choose filter and edges in any case and order; plain names wrap, blur clamps")
    func prefixes() {
        let fc = SamplerName.use("sampler_fc_main", isVolume: false)
        #expect(fc.name == "main" && fc.mode == Modes.fc && !fc.isVolume)
        #expect(SamplerName.use("sampler_PW_noise_lq", isVolume: false) == ShaderSamplerUse(name: "noise_lq", mode: Modes.pw, isVolume: false))
        #expect(SamplerName.use("sampler_cp_worms", isVolume: false).mode == Modes.pc)
        #expect(SamplerName.use("sampler_Wf_clouds2", isVolume: false).mode == Modes.fw)
        #expect(SamplerName.use("sampler_main", isVolume: false).mode == Modes.fw)
        #expect(SamplerName.use("sampler_noisevol_hq", isVolume: true) == ShaderSamplerUse(name: "noisevol_hq", mode: Modes.fw, isVolume: true))
        // Blur levels default to clamped, but a prefix still wins.
        #expect(SamplerName.use("sampler_blur1", isVolume: false).mode == Modes.fc)
        #expect(SamplerName.use("sampler_fw_blur3", isVolume: false).mode == Modes.fw)
        // Any two letters and an underscore are peeled off (MilkDrop's rule), a mode or not.
        #expect(SamplerName.use("sampler_xy_tex", isVolume: false) == ShaderSamplerUse(name: "tex", mode: Modes.fw, isVolume: false))
        // Too short to hold a prefix and a name: left whole.
        #expect(SamplerName.use("sampler_fw_", isVolume: false).name == "fw_")
        #expect(SamplerName.use("worms", isVolume: false).name == "worms")
    }

    @Test("randNN: two digits, then the end or an underscore and a prefix; slots 0…15 only")
    func random() {
        #expect(SamplerName.randomSlot("rand00")! == (0, ""))
        #expect(SamplerName.randomSlot("rand15_smalltiled")! == (15, "smalltiled"))
        #expect(SamplerName.randomSlot("rand07_")! == (7, ""))
        for name in ["rand16", "rand1", "rand001", "randab", "rand0x", "Rand00", "worms", "rand"] {
            #expect(SamplerName.randomSlot(name) == nil, "\(name)")
        }
        #expect(SamplerName.blurLevel("blur2") == 2 && SamplerName.blurLevel("blur4") == nil)
    }
}
