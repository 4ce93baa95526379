import ArgumentParser
import MarbleKit
import Shaders

struct EffectsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "effects",
        abstract: "List the shaders and presets, with their parameters.")

    @Argument(help: "Show only this shader or preset.")
    var name: String?

    func run() async throws {
        try await runReportingErrors {
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
