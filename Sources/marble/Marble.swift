import ArgumentParser
import MarbleKit

@main
struct Marble: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marble",
        abstract: "A CPU-only audio visualizer: turn sound into pictures, offline or live.",
        discussion: "Run `marble COMMAND --help` for the options of each command.",
        version: MarbleVersion.report(),
        subcommands: [RenderCommand.self, JoinCommand.self, AnalyzeCommand.self, PlayCommand.self, LiveCommand.self, EffectsCommand.self, BenchCommand.self, StudioCommand.self],
        defaultSubcommand: nil)

    /// ArgumentParser's entry point, plus one rule: a command whose result could not be written to
    /// stdout (a full disk, a closed pipe) ends with exit 1 instead of reporting success.
    static func main() async {
        Launch.markStart()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(usageError: error)
        }
        if Console.outputFailed {
            Console.error("standard output: the result could not be written (\(Console.outputFailure))")
            exit(withError: ExitCode(1))
        }
    }

    /// Usage errors (unknown options, bad values, a missing input) are one line and exit 2, like the
    /// tool's own option errors; ArgumentParser's default is exit 64 with usage lines. Help, version
    /// and exit codes set by the commands go through ArgumentParser unchanged.
    static func exit(usageError error: any Error) -> Never {
        guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
        var line = message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        let arguments = CommandLine.arguments.dropFirst()
        if line.contains("<input>"), let dashed = arguments.first(where: { $0.count > 1 && $0.hasPrefix("-") && $0.contains(".") }) {
            line += " (\(dashed) is read as options: for a file name starting with '-', write ./\(dashed) or put -- before it)"
        }
        let names = configuration.subcommands.map { $0._commandName }
        let command = arguments.first.flatMap { names.contains($0) ? "marble \($0)" : nil } ?? "marble"
        Console.error(line + "; see `\(command) --help`")
        exit(withError: ExitCode(2))
    }
}
