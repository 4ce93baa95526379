import MarbleKit

/// Options several commands share, parsed once, with the same one-line errors everywhere.
enum OptionParsing {
    /// `--fps`: "60" or a fraction like "30000/1001" (parts of at most 32 bits), between 1 and 240.
    static func fps(_ text: String) throws(MarbleError) -> Rational {
        guard let rate = Rational(parsing: text), rate.numerator > 0 else {
            throw MarbleError(.option, "--fps \(text): expected a rate like 60 or 30000/1001")
        }
        return try Limits.check(rate: rate)
    }

    /// A time option ("42s", "1:23", "1500ms"), finite and within `Limits.seconds`.
    static func seconds(_ text: String, _ option: String) throws(MarbleError) -> Double {
        guard let seconds = TimeParser.seconds(text), seconds.isFinite else {
            throw MarbleError(.option, "\(option) \(text): expected a time like 42s, 1:23, 83.5, 1500ms or 10m")
        }
        guard Limits.seconds.contains(seconds) else {
            throw MarbleError(.option, "\(option) \(text): must be a time between 0 and 100 hours")
        }
        return seconds
    }

    /// `--size`: "WIDTHxHEIGHT". Only the form is checked here; ranges are the renderer's or the
    /// benchmark's to judge.
    static func size(_ text: String) throws(MarbleError) -> FrameSize {
        guard let size = FrameSize(parsing: text) else {
            throw MarbleError(.option, "--size \(text): expected WIDTHxHEIGHT, e.g. 1920x1080")
        }
        return size
    }

    /// `--encoder-preset`: one of x264's speed names.
    static func encoderPreset(_ text: String) throws(MarbleError) -> EncoderPreset {
        guard let preset = EncoderPreset(rawValue: text) else {
            throw MarbleError(.option, "--encoder-preset \(text): expected one of \(EncoderPreset.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return preset
    }
}
