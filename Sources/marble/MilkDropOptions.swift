import Foundation
import ArgumentParser
import MarbleKit

/// `--milkdrop` and its playlist options, shared by render, play and live.
struct MilkDropOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Draw a MilkDrop preset (.milk) instead of --preset, or play a folder of them (searched recursively) as a playlist.", valueName: "file|folder"))
    var milkdrop: String?

    @Flag(help: "With a --milkdrop folder: play the presets in a shuffled order (the same for the same --seed).")
    var shuffle = false

    @Option(name: .customLong("switch"), help: ArgumentHelp("With a --milkdrop folder: time each preset plays, e.g. 30s (0: never switch).", valueName: "time"))
    var switchTime = "30s"

    @Option(help: ArgumentHelp("With a --milkdrop folder: length of the soft blend between presets, 0–10 s (0: always cut).", valueName: "time"))
    var blend = "2.5s"

    @Flag(name: .customLong("no-hard-cuts"), help: "With a --milkdrop folder: always blend, never cut on a strong beat.")
    var noHardCuts = false

    @Option(name: .customLong("render-scale"), help: ArgumentHelp("With --milkdrop: draw at this fraction of the frame's size, 0.1–1, and scale the picture up (default: automatic, the feedback buffer at most 1280x720's area).", valueName: "x"))
    var renderScale: Double?

    @Option(name: .customLong("milkdrop-shaders"), help: ArgumentHelp("With --milkdrop: run MilkDrop 2 presets' HLSL warp and composite shaders (on), or draw them MilkDrop 1.x style without (off).", valueName: "on|off"))
    var milkdropShaders = "on"

    @Option(name: .customLong("milkdrop-textures"), help: ArgumentHelp("With --milkdrop: a folder of textures the presets' shaders read by name (sampler_worms, rand00…), searched before the preset's own folder.", valueName: "folder"))
    var milkdropTextures: String?

    @Option(help: ArgumentHelp("With --milkdrop: seeds the shuffle and the presets' random numbers (0–2147483647).", valueName: "n"))
    var seed = 0

    /// The scene, or nil without --milkdrop, refusing a `--preset` beside it (the MilkDrop preset is
    /// drawn instead, so the other would be silently ignored). Validates every value.
    func scene(besides preset: String?) throws(MarbleError) -> Preset? {
        if preset != nil && milkdrop != nil {
            throw MarbleError(.option, "--preset and --milkdrop: give one of them (--milkdrop draws a MilkDrop preset instead of a bundled one)")
        }
        return try scene()
    }

    /// The scene, or nil without --milkdrop. Validates every value.
    private func scene() throws(MarbleError) -> Preset? {
        guard let milkdrop else {
            if shuffle || noHardCuts || renderScale != nil || milkdropTextures != nil || milkdropShaders != "on" {
                throw MarbleError(.option, "--shuffle, --no-hard-cuts, --render-scale, --milkdrop-shaders and --milkdrop-textures go with --milkdrop")
            }
            return nil
        }
        guard !milkdrop.isEmpty else { throw MarbleError(.option, "--milkdrop: give a .milk file or a folder") }
        var s = MilkDropScene(path: milkdrop)
        s.shuffle = shuffle
        s.switchSeconds = try OptionParsing.seconds(switchTime, "--switch")
        guard (0...3600).contains(s.switchSeconds) else { throw MarbleError(.option, "--switch \(switchTime): use 0 to 1h") }
        s.blendSeconds = try OptionParsing.seconds(blend, "--blend")
        guard (0...10).contains(s.blendSeconds) else { throw MarbleError(.option, "--blend \(blend): use 0 to 10 s") }
        s.hardCuts = !noHardCuts
        if let renderScale {
            guard renderScale.isFinite, (0.1...1).contains(renderScale) else { throw MarbleError(.option, "--render-scale \(renderScale): use 0.1 to 1") }
            s.renderScale = renderScale
        }
        switch milkdropShaders {
        case "on": s.shaders = true
        case "off": s.shaders = false
        default: throw MarbleError(.option, "--milkdrop-shaders \(milkdropShaders): use on or off")
        }
        if let milkdropTextures {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: milkdropTextures, isDirectory: &isFolder), isFolder.boolValue else {
                throw MarbleError(.option, "--milkdrop-textures \(milkdropTextures): not a folder")
            }
            s.texturesFolder = milkdropTextures
        }
        guard (0...2_147_483_647).contains(seed) else { throw MarbleError(.option, "--seed \(seed): use 0 to 2147483647") }
        s.seed = seed
        return s.preset
    }
}
