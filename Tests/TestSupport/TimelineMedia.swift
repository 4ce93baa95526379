import Foundation

/// Test media whose sound does not start with the picture: a late start, a gap in the sound's
/// timestamps, a negative start. The sound is silent but for one 30 ms burst of 1 kHz; each file says
/// where the burst and the end of the sound are on the output's timeline (time 0: the earliest start).
public enum TimelineMedia {
    /// A made file and what a render of it must show.
    public struct Case: CustomStringConvertible, Sendable {
        public let path: String
        /// Where the burst starts on the output's timeline, in seconds.
        public let burst: Double
        /// Where the sound ends on the output's timeline, in seconds.
        public let end: Double
        public var description: String { URL(fileURLWithPath: path).lastPathComponent }
    }

    /// Audio and video codec options for a container.
    static func codecs(_ ext: String) -> [String] {
        switch ext {
        case "mp4": ["-c:v", "libx264", "-c:a", "aac"]
        case "ogg": ["-c:v", "libtheora", "-c:a", "libvorbis"]
        default: ["-c:v", "libx264", "-c:a", "libvorbis"]
        }
    }

    static func burst(at t: Double, seconds: Double) -> String {
        "aevalsrc=0.9*between(t\\,\(t)\\,\(t + 0.03))*sin(2*PI*1000*t):s=44100:d=\(seconds)"
    }

    static func video(_ seconds: Double) -> [String] { ["-f", "lavfi", "-i", "color=c=black:s=64x36:r=25:d=\(seconds)"] }

    /// Black video from 0 to 8 s; 3 s of sound starting at 5 s (`-itsoffset 5`), the burst at 6 s.
    public static func lateStart(_ ext: String) throws -> Case {
        let path = try TestMedia.make("late-start.\(ext)", video(8) + ["-itsoffset", "5", "-f", "lavfi", "-i", burst(at: 1, seconds: 3),
                                                                        "-map", "0:v", "-map", "1:a"] + codecs(ext))
        return Case(path: path, burst: 6, end: 8)
    }

    /// Black video from 0 to 7 s; 4 s of sound from 0 whose timestamps jump 3 s ahead at 2 s, so it
    /// ends at 7 s; the burst, 3 s into the sound, is at 6 s.
    public static func gap(_ ext: String) throws -> Case {
        let path = try TestMedia.make("gap.\(ext)", video(7) + ["-f", "lavfi", "-i", burst(at: 3, seconds: 4),
                                                                 "-filter:a", "asetpts=if(gte(T\\,2)\\,PTS+3/TB\\,PTS)",
                                                                 "-map", "0:v", "-map", "1:a"] + codecs(ext))
        return Case(path: path, burst: 6, end: 7)
    }

    /// Ogg: black video from 0 to 4 s; 5 s of sound starting at -1 s (`-itsoffset -1`), the burst 1.5 s
    /// into it. Time 0 is the sound's start, so the burst is at 1.5 s and the sound ends at 5 s.
    public static func negativeStartWithVideo() throws -> Case {
        let path = try TestMedia.make("negative-start-video.ogg", video(4) + ["-itsoffset", "-1", "-f", "lavfi", "-i", burst(at: 1.5, seconds: 5),
                                                                               "-map", "0:v", "-map", "1:a"] + codecs("ogg"))
        return Case(path: path, burst: 1.5, end: 5)
    }

    /// MP4: black video from 0 to 4 s; 5 s of sound starting at -1 s (`-itsoffset -1`), the burst 1.5 s
    /// into it. The muxer writes an edit list that starts the sound at 0 (ffprobe: the first packet at
    /// -1 s with 1 s of samples to skip), and FFmpeg applies it: the burst is at 0.5 s, the end at 4 s.
    public static func negativeStartMP4() throws -> Case {
        let path = try TestMedia.make("negative-start-video.mp4", video(4) + ["-itsoffset", "-1", "-f", "lavfi", "-i", burst(at: 1.5, seconds: 5),
                                                                               "-map", "0:v", "-map", "1:a"] + codecs("mp4"))
        return Case(path: path, burst: 0.5, end: 4)
    }

    /// Ogg sound alone, 4 s whose timestamps start at -1 s (`-output_ts_offset -1`), the burst 1.5 s into it.
    public static func negativeStart() throws -> Case {
        let path = try TestMedia.make("negative-start.ogg", ["-f", "lavfi", "-i", burst(at: 1.5, seconds: 4),
                                                             "-c:a", "libvorbis", "-output_ts_offset", "-1"])
        return Case(path: path, burst: 1.5, end: 4)
    }
}
