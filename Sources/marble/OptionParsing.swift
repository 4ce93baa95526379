import MarbleKit

/// Options several commands share, parsed once, with the same one-line errors everywhere.
enum OptionParsing {
    /// `--fps`: "60" or a fraction like "30000/1001", positive (and at most `maximum` when given).
    static func fps(_ text: String, maximum: Double? = nil) throws(MarbleError) -> Rational {
        guard let rate = Rational(parsing: text), rate.numerator > 0, maximum.map({ rate.doubleValue <= $0 }) ?? true else {
            throw MarbleError(.option, "--fps \(text): expected a rate like 60 or 30000/1001")
        }
        return rate
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
