import ArgumentParser
import Foundation
import MarbleKit
import MarbleStudio
import MarbleStudioServer

struct StudioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Make a look in the browser: pick a song, edit layers, see it play, save the preset, render.",
        discussion: """
            Serves a page (built into marble: no internet needed) that lists the songs of the folders, \
            previews any look with the song at 640x360, saves looks as preset files `marble render \
            --preset` reads, shows the equivalent `marble render` command, and runs renders in a queue \
            into --output. It reads only files inside the folders given (and --milkdrop and --output).

            It listens on 127.0.0.1 by default; any other address needs the access token printed with \
            the URL. Ctrl-C stops it; renders still running are cancelled and their files removed. The \
            HTTP API is in docs/STUDIO.md.

            Examples:
              marble studio ~/music
              marble studio ~/music --listen 0.0.0.0:8140
              marble studio ~/music ~/videos --output ~/renders --jobs 2
            """)

    @Argument(help: "Folders of songs and videos (searched recursively).")
    var folders: [String]

    @Option(help: "Where to listen: HOST:PORT (default 127.0.0.1:8140); any non-loopback address needs the token.")
    var listen: String?

    @Option(help: "Folder for renders and saved presets (presets/), created if missing.")
    var output = "marble-studio"

    @Option(help: "A folder of MilkDrop presets to browse (default: /usr/share/projectM/presets when it exists).")
    var milkdrop: String?

    @Option(help: "Renders that run at once (1-4).")
    var jobs = 1

    @Option(help: "The access token (16-128 of A-Z a-z 0-9 - _); default: a random one, printed.")
    var token: String?

    @Option(name: .customLong("max-upload"), help: "The largest song a page may upload, in MB.")
    var maxUpload = StudioConfiguration.defaultMaxUploadMB

    func run() async throws {
        try await runReportingErrors {
            var c = StudioConfiguration(folders: folders.map(Self.absolute), token: token ?? StudioConfiguration.makeToken())
            if let listen { try c.listen(listen) }
            c.output = Self.absolute(output)
            c.milkdrop = milkdrop.map(Self.absolute)
                ?? (FileManager.default.fileExists(atPath: "/usr/share/projectM/presets") ? "/usr/share/projectM/presets" : nil)
            c.jobs = jobs
            guard (1...(64 << 10)).contains(maxUpload) else { throw MarbleError(.option, "--max-upload \(maxUpload): must be 1…65536 (MB)") }
            c.maxUploadBytes = maxUpload << 20
            c.pageFolder = ProcessInfo.processInfo.environment["MARBLE_STUDIO_PAGE"]
            try c.validate()
            guard StudioServer.isAvailable else {
                throw MarbleError(.option, "this marble was built without the studio (build it with the default traits: `swift build -c release`)")
            }
            let stopped = try await StudioServer.run(c) { url in Console.writeErr("studio: \(url) (Ctrl-C to stop)\n") }
            if stopped.cancelledRenders > 0 {
                Console.writeErr("studio: stopped; \(stopped.cancelledRenders) render(s) cancelled, their files removed\n")
            }
        }
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
