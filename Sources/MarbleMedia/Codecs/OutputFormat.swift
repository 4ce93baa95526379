import Foundation

/// What an output path's extension asks for.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// MP4, Matroska, WebM, QuickTime, or a single PNG picture (`m4v` counts as `mp4`).
    case mp4, mkv, webm, mov, png

    /// Chooses the format from a path's extension; nil for extensions the tool does not write.
    public init?(path: String) {
        let ext = OutputFormat.pathExtension(path).lowercased()
        self.init(rawValue: ext == "m4v" ? "mp4" : ext)
    }

    /// What follows the last dot of the path's last component ("" for none, and for hidden files like
    /// ".mp4"), as NSString's `pathExtension` reads it. Not NSString's: Foundation on Linux traps on
    /// paths like "///x///" (found by FuzzOptions with `-o ///x///`).
    static func pathExtension(_ path: String) -> String {
        guard let name = path.split(separator: "/").last, let dot = name.lastIndex(of: "."), dot != name.startIndex else {
            return ""
        }
        return String(name[name.index(after: dot)...])
    }

    /// libavformat's muxer name.
    var muxerName: String {
        switch self {
        case .mp4: "mp4"
        case .mov: "mov"
        case .mkv: "matroska"
        case .webm: "webm"
        case .png: "image2"
        }
    }

}

/// x264's speed/quality presets, fastest first (also mapped onto VP9's cpu-used).
public enum EncoderPreset: String, Sendable, CaseIterable {
    /// Fastest and largest first; each step slower gives a smaller file at the same quality.
    case ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow

    /// libvpx-vp9 `cpu-used` for the same intent (8 fastest … 0 slowest).
    var vp9CpuUsed: Int {
        [8, 7, 6, 5, 4, 3, 2, 1, 0][EncoderPreset.allCases.firstIndex(of: self)!]
    }
}
