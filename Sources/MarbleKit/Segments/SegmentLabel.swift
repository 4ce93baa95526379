import MarbleCore

/// What a segment file says about itself, in container tags, so that `marble join` can check that
/// pieces belong together and cover the whole render before it copies a byte.
///
/// - `marble_frames`: "FIRST-LAST/TOTAL", the frame indices it holds (both included) of the render's total;
/// - `marble_fps`: the frame rate ("60", "30000/1001");
/// - `marble_segment`: how it was asked for ("7/40", "frames 100-199"), for messages;
/// - `marble_render`: the render's settings that change pixels (size, rate, scene, encoder), readable;
/// - `marble_input`, `marble_input_id`: the input's path and the fingerprint of its bytes.
package struct SegmentLabel: Sendable, Equatable {
    /// The frames it holds.
    package var frames: Range<Int>
    /// The whole render's frame count.
    package var totalFrames: Int
    /// The frame rate.
    package var fps: Rational
    /// How the segment was asked for.
    package var segment: String
    /// The settings that change pixels, as one readable line: equal for pieces of one render.
    package var render: String
    /// The input's path as the render command gave it (relative paths stay relative, so the bytes
    /// do not depend on the folder the command ran in).
    package var input: String
    /// A fingerprint of the input's bytes (128-bit MurmurHash3, 32 hex digits).
    package var inputID: String

    /// A label; see the properties.
    package init(frames: Range<Int>, totalFrames: Int, fps: Rational, segment: String, render: String,
                input: String, inputID: String) {
        self.frames = frames; self.totalFrames = totalFrames; self.fps = fps; self.segment = segment
        self.render = render; self.input = input; self.inputID = inputID
    }

    /// The container tags that carry the label.
    package var tags: [(key: String, value: String)] {
        [("marble_frames", "\(frames.lowerBound)-\(frames.upperBound - 1)/\(totalFrames)"),
         ("marble_fps", fps.description), ("marble_segment", segment), ("marble_render", render),
         ("marble_input", input), ("marble_input_id", inputID)]
    }

    /// Reads a label back from a file's tags; nil when they are missing or malformed (not a segment),
    /// including a frame rate outside 1–240 fps or more frames than 100 hours hold.
    /// Names match in any case: Matroska stores them upper-case.
    package init?(tags fileTags: [String: String]) {
        let tags = Dictionary(fileTags.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        guard let frames = tags["marble_frames"], let fpsText = tags["marble_fps"], let fps = Rational(parsing: fpsText),
              (try? Limits.check(rate: fps)) != nil, let render = tags["marble_render"], let inputID = tags["marble_input_id"] else { return nil }
        let parts = frames.split(separator: "/")
        // At most 100 hours of frames (Limits.seconds): a label is a file's text, read before it sizes anything.
        guard parts.count == 2, let total = Int(parts[1]), Double(total) <= fps.doubleValue * Limits.seconds.upperBound else { return nil }
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]),
              first >= 0, last >= first, last < total else { return nil }
        self.init(frames: first..<(last + 1), totalFrames: total, fps: fps, segment: tags["marble_segment"] ?? "?",
                  render: render, input: tags["marble_input"] ?? "", inputID: inputID)
    }
}
