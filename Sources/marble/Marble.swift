import ArgumentParser
import MarbleKit

@main
struct Marble: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marble",
        abstract: "A CPU-only audio visualizer: turn sound into pictures, offline or live.",
        discussion: "Run `marble COMMAND --help` for the options of each command.",
        subcommands: [RenderCommand.self, AnalyzeCommand.self, PlayCommand.self, LiveCommand.self, EffectsCommand.self, BenchCommand.self],
        defaultSubcommand: nil)
}
