import ArgumentParser
import MarbleKit

@main
struct Marble: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "A CPU-only audio/video visualizer.")
}
