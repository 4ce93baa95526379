import ArgumentParser
import Foundation
import MarbleKit
import Shaders

struct EffectsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "effects",
        abstract: "List the shaders and presets, with their parameters.",
        discussion: """
            --json prints one object: shaders (with their parameters), presets (with their layers) and the audio \
            features a parameter can follow; the README lists the keys.

            --milkdrop FOLDER checks MilkDrop presets instead: each is parsed, compiled and rendered for --frames \
            frames at 128x72 with a made-up song; the report counts what loads and draws a picture, and lists the \
            failures by reason (exit 0 even when some fail; 1 when none is found). With --json: the counts and \
            the failures as one object.
              marble effects --milkdrop /usr/share/projectM/presets
            """)

    @Argument(help: "Show only this shader or preset.")
    var name: String?

    @Flag(help: "Print one JSON object instead of the listing.")
    var json = false

    @Option(help: ArgumentHelp("Instead of the listing: load and render every .milk preset under this folder (or one file) and report how many work, and why the others do not.", valueName: "folder|file"))
    var milkdrop: String?

    @Option(help: ArgumentHelp("With --milkdrop: frames rendered per preset (1–3600).", valueName: "n"))
    var frames: Int = 60

    @Option(help: ArgumentHelp("With --milkdrop: threads (default: all cores).", valueName: "n"))
    var threads: Int = StripScheduler.availableCores

    @Option(name: .customLong("milkdrop-shaders"), help: ArgumentHelp("With --milkdrop: compile and run the presets' HLSL shaders (on), or draw every preset MilkDrop 1.x style (off).", valueName: "on|off"))
    var milkdropShaders = "on"

    @Option(name: .customLong("milkdrop-textures"), help: ArgumentHelp("With --milkdrop: a folder of textures the shaders read by name, searched before each preset's own folder.", valueName: "folder"))
    var milkdropTextures: String?

    func run() async throws {
        try await runReportingErrors {
            if let milkdrop {
                try reportMilkDrop(milkdrop)
                return
            }
            if json { try printJSON(); return }
            var matched = false
            var out = ""
            let shaders = ShaderLibrary.all.map { $0.descriptor }.filter { name == nil || $0.name == name }
            if !shaders.isEmpty {
                matched = true
                out += "SHADERS\n"
                for d in shaders {
                    out += "\n  \(d.name) (\(d.kind.rawValue)): \(d.summary)\n"
                    for p in d.parameters {
                        let bind = p.isBindable ? ", can follow audio" : ""
                        out += "    \(p.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(p.help) [\(p.rangeDescription); default \(p.defaultDescription)\(bind)]\n"
                    }
                }
            }
            let presets = PresetLibrary.names().filter { name == nil || $0 == name }
            if !presets.isEmpty {
                matched = true
                out += "\nPRESETS (--preset NAME; files in \(PresetLibrary.folder?.path ?? "Samples/Presets"))\n"
                for n in presets {
                    let preset = try PresetLibrary.load(n)
                    out += "\n  \(n): \(preset.description)\n    layers: \(preset.layers.map { "\($0.shader)\($0.blend == .normal ? "" : " (\($0.blend.rawValue))")" }.joined(separator: " → "))\n"
                }
            }
            if !matched, let name {
                throw MarbleError(.option, "no shader or preset named \"\(name)\"")
            }
            if name == nil {
                out += "\nAudio features a numeric parameter can follow in a preset's `bind:` section:\n  \(AudioFeatures.scalarNames.joined(separator: ", "))\n"
            }
            Console.print(out)
        }
    }
}

extension EffectsCommand {
    /// `--json`: the same catalogue as data (keys sorted; the README documents each).
    func printJSON() throws(MarbleError) {
        let catalogue = try EffectsCatalogue(named: name)
        if let name, catalogue.shaders.isEmpty, catalogue.presets.isEmpty { throw MarbleError(.option, "no shader or preset named \"\(name)\"") }
        Console.print(String(decoding: try catalogue.json(pretty: true), as: UTF8.self))
    }
}

