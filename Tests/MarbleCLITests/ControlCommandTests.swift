import Foundation
import Testing
import TestSupport

/// Control from outside a running session, through the real binary: OSC datagrams from a sender
/// written in Python (its own encoding of OSC 1.0, not ours), the preset's file saved as editors save
/// it, SIGUSR1. Every step waits for the effect of the step before it in the recording itself (a
/// Matroska file can be read while it is written) or in marble's log, never for a length of time.
@Suite(.serialized, .ownThread) struct ControlCommandTests {
    static let folder: URL = {
        let url = CLI.folder.appendingPathComponent("control")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Sends each `[address, [arguments]]` (JSON: ints, floats, strings) to 127.0.0.1:`port` as one OSC
    /// message a datagram, encoded by Python's struct module as the OSC 1.0 specification says.
    static func send(_ messages: String, to port: Int) throws {
        let script = """
            import json, socket, struct, sys
            def pad(b): return b + b'\\0' * (4 - len(b) % 4)
            def message(address, arguments):
                tags, data = ',', b''
                for a in arguments:
                    if isinstance(a, bool): tags += 'T' if a else 'F'
                    elif isinstance(a, int): tags, data = tags + 'i', data + struct.pack('>i', a)
                    elif isinstance(a, float): tags, data = tags + 'f', data + struct.pack('>f', a)
                    else: tags, data = tags + 's', data + pad(a.encode())
                return pad(address.encode()) + pad(tags.encode()) + data
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            for address, arguments in json.loads(sys.argv[2]):
                s.sendto(message(address, arguments), ('127.0.0.1', int(sys.argv[1])))
            """
        let r = try PlayTools.run("python3", ["-c", script, "\(port)", messages])
        #expect(r.status == 0, "\(r.output)")
    }

    /// A preset of one solid layer, saved by writing a new file and renaming it over the old one.
    static func save(_ path: String, _ text: String) throws {
        try text.write(toFile: path + ".new", atomically: false, encoding: .utf8)
        #expect(rename(path + ".new", path) == 0)
    }

    static func solid(_ color: String) -> String {
        "name: look\nlayers:\n  - shader: solid\n    parameters:\n      color: \"\(color)\"\n"
    }

    /// The mean colour of each frame of `file` (a recording, or one being written).
    static func colors(_ file: String) -> [[Int]] {
        let raw = path("colors-\(UUID().uuidString.prefix(6)).rgb")
        defer { try? FileManager.default.removeItem(atPath: raw) }
        _ = try? CLI.ffmpeg(["-i", file, "-vf", "scale=1:1:flags=area", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: raw))) ?? Data())
        return stride(from: 0, to: bytes.count - 2, by: 3).map { [Int(bytes[$0]), Int(bytes[$0 + 1]), Int(bytes[$0 + 2])] }
    }

    /// The temporary file of the recording `name` while it is written.
    static func partial(_ name: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.first { $0.hasPrefix(".\(name).partial") }.map { path($0) }
    }

    /// Waits until a frame of the recording `name` (being written) satisfies `test`. Polled, marble
    /// telling nothing of its frames, with a deadline that only guards against a hang; once a second,
    /// since each poll decodes the recording so far (at ten a second it kept a core busy, and slowed
    /// the real-time tests that run beside this one).
    static func recorded(_ name: String, _ test: @escaping ([Int]) -> Bool) -> Bool {
        pollProcess(failsafe: 120, every: 1) { partial(name).map { colors($0).contains(where: test) } ?? false }
    }

    static func white(_ c: [Int]) -> Bool { c.allSatisfy { $0 > 200 } }
    static func green(_ c: [Int]) -> Bool { c[1] > 180 && c[0] < 70 && c[2] < 70 }
    static func blue(_ c: [Int]) -> Bool { c[2] > 180 && c[0] < 70 && c[1] < 70 }

    @Test("--osc and reload on save: a flash, a parameter, a saved file, a bad save that keeps the look, SIGUSR1; unknown and malformed messages counted",
          .timeLimit(.minutes(20)))
    func controls() throws {
        let preset = Self.path("look.yaml")
        try Self.save(preset, Self.solid("#000000"))
        let song = try TestMedia.tone("wav", seconds: 120)
        let name = "controlled.mkv", out = Self.path(name)
        let log = Self.path("controlled.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let play = Process()
        play.executableURL = CLI.executable
        play.arguments = ["play", song, "-o", out, "--osc", "0", "--preset", preset, "--size", "64x36", "--fps", "30",
                          "--encoder-preset", "ultrafast"]
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        play.standardOutput = handle
        play.standardError = handle
        try play.run()
        defer { if play.isRunning { play.interrupt() } }
        let read = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        #expect(PlayTools.eventually(timeout: 120) { read().contains("osc: listening on UDP port ") }, "\(read())")
        let port = Int(read().components(separatedBy: "osc: listening on UDP port ").last?.prefix { $0.isNumber } ?? "") ?? 0
        #expect(Self.recorded(name) { $0.allSatisfy { $0 < 40 } }, "black frames first: \(read())")

        try Self.send(#"[["/nope", []], ["/marble/param", ["solid"]], ["/marble/flash", []]]"#, to: port)
        #expect(Self.recorded(name, Self.white), "the flash is recorded")
        try Self.send(##"[["/marble/param", [0, "color", "#00ff00"]]]"##, to: port)
        #expect(Self.recorded(name, Self.green), "the colour set over OSC is recorded")
        try Self.save(preset, Self.solid("#0000ff"))
        #expect(Self.recorded(name, Self.blue), "the saved file is drawn, its own colour replacing the one set over OSC")

        try Self.save(preset, "name: look\nlayers:\n  - shader: no_such_shader\n")
        #expect(PlayTools.eventually(timeout: 120) { read().contains("preset not reloaded") }, "\(read())")
        #expect(read().contains("look.yaml: layers[0].shader: unknown shader \"no_such_shader\""), "\(read())")
        #expect(pollProcess { CLI.catches(SIGUSR1, play.processIdentifier) })
        kill(play.processIdentifier, SIGUSR1)
        #expect(PlayTools.eventually(timeout: 120) { read().components(separatedBy: "preset not reloaded").count == 3 },
                "SIGUSR1 reads the file again (still bad): \(read())")
        #expect(play.isRunning, "SIGUSR1 does not stop the session")

        play.interrupt()
        #expect(CLI.exits(play))
        #expect(play.terminationStatus == 130, "\(read())")
        #expect(read().contains("osc: 2 messages applied, 2 ignored"), "\(read())")
        let colors = Self.colors(out)
        guard let flash = colors.firstIndex(where: Self.white), let green = colors.firstIndex(where: Self.green),
              let blue = colors.firstIndex(where: Self.blue) else {
            Issue.record("missing colours: \(colors.count) frames")
            return
        }
        #expect(flash < green && green < blue, "in the order asked: flash \(flash), green \(green), blue \(blue)")
        #expect(colors.suffix(5).allSatisfy(Self.blue), "the last good look stays to the end")
    }

    @Test("--osc that is not a port is one line and exit 2, and nothing is written", .timeLimit(.minutes(5)))
    func badPort() throws {
        let song = try TestMedia.tone("wav", seconds: 1)
        let r = try CLI.run(["play", song, "-o", Self.path("never.mkv"), "--osc", "nine"])
        #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("--osc"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: Self.path("never.mkv")))
    }
}
