import Foundation
import Testing

/// Test media made on demand with the `ffmpeg` command (lavfi sources and the encoders Debian links),
/// cached per process in a temporary folder. Nothing is downloaded.
public enum TestMedia {
    public static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("marble-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: Set<String> = []
    // Safety: `made` is read and written only with `lock` held.

    /// A file at `name` in the test folder, made once with `ffmpeg -y <arguments> <path>`.
    public static func make(_ name: String, _ arguments: [String]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        lock.lock()
        defer { lock.unlock() }
        if made.contains(name) { return path }
        try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + arguments + [path])
        made.insert(name)
        return path
    }

    /// A tone (440 Hz + a pulse every 0.5 s, so there is something to react to) in any container.
    public static func tone(_ ext: String, seconds: Double = 1.5, rate: Int = 44_100, channels: Int = 2,
                     codec: [String] = []) throws -> String {
        let layout = channels == 1 ? "mono" : channels == 2 ? "stereo" : channels == 6 ? "5.1" : "\(channels)c"
        let expr = "0.4*sin(2*PI*440*t)+0.5*lt(mod(t\\,0.5)\\,0.02)*sin(2*PI*90*t)"
        let exprs = Array(repeating: expr, count: channels).joined(separator: "|")
        return try make("tone-\(seconds)-\(rate)-\(channels)-\(codec.joined(separator: "_")).\(ext)",
                        ["-f", "lavfi", "-i", "aevalsrc=\(exprs):s=\(rate):c=\(layout):d=\(seconds)"] + codec)
    }

    /// A short video with sound (test pattern + tone).
    public static func video(_ ext: String, seconds: Double = 1.0, codec: [String]) throws -> String {
        try make("video-\(seconds)-\(codec.joined(separator: "_")).\(ext)",
                 ["-f", "lavfi", "-i", "testsrc2=s=96x64:r=25:d=\(seconds)",
                  "-f", "lavfi", "-i", "sine=f=330:r=44100:d=\(seconds)", "-shortest"] + codec)
    }

    /// Runs a tool and returns its standard output; throws with its stderr when it fails.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], input: Data? = nil) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw ToolFailure(message: "\(tool) failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return data
    }

    public struct ToolFailure: Error, CustomStringConvertible { public let message: String; public var description: String { message } }

    /// A fresh output path in the test folder.
    public static func output(_ name: String) -> String {
        folder.appendingPathComponent("\(UUID().uuidString.prefix(8))-\(name)").path
    }
}

/// Reads a file back with ffprobe: streams, durations, frame counts, and whether it warned.
public struct Probe {
    public struct Stream { public let type: String; public let codec: String; public let frames: Int?; public let duration: Double?; public let rate: String?; public let bitRate: Int? }
    public let streams: [Stream]
    public let formatDuration: Double?
    public let warnings: String

    public init(_ path: String, countFrames: Bool = true) throws {
        var args = ["-v", "warning", "-print_format", "json", "-show_streams", "-show_format"]
        if countFrames { args.append("-count_frames") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ffprobe"] + args + [path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        streams = (json["streams"] as? [[String: Any]] ?? []).map { s in
            Stream(type: s["codec_type"] as? String ?? "", codec: s["codec_name"] as? String ?? "",
                   frames: (s["nb_read_frames"] as? String).flatMap(Int.init),
                   duration: (s["duration"] as? String).flatMap(Double.init),
                   rate: s["r_frame_rate"] as? String, bitRate: (s["bit_rate"] as? String).flatMap(Int.init))
        }
        formatDuration = ((json["format"] as? [String: Any])?["duration"] as? String).flatMap(Double.init)
    }

    public var video: Stream? { streams.first { $0.type == "video" } }
    public var audio: Stream? { streams.first { $0.type == "audio" } }
}
