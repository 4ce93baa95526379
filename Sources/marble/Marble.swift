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

    /// ArgumentParser's entry point, plus one rule: a command whose result could not be written to
    /// stdout (a full disk, a closed pipe) ends with exit 1 instead of reporting success.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
        if Console.outputFailed { exit(withError: ExitCode(1)) }
    }
}
