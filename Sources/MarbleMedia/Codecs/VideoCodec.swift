internal import CFFmpeg

/// The video codec of a file output (`--codec`), and whether it carries alpha.
///
/// H.264 and VP9 are the containers' defaults; ProRes 4444 and QuickTime Animation are the alpha codecs
/// editors read in a `.mov` (Premiere, Resolve and Final Cut take ProRes 4444; Kdenlive and older tools
/// QuickTime Animation). VP9 carries alpha in WebM when asked to (`VideoEncoder.Settings.alpha`).
public enum VideoCodec: String, Sendable, CaseIterable {
    /// libx264, YUV 4:2:0 (MP4, MKV, MOV).
    case h264
    /// libvpx-vp9, YUV 4:2:0, or YUVA 4:2:0 with alpha (WebM).
    case vp9
    /// prores_ks, profile 4444, 10-bit YUVA 4:4:4 (MOV): always with alpha.
    case prores
    /// qtrle, QuickTime Animation, 8-bit ARGB, lossless (MOV): always with alpha.
    case qtrle

    /// The codec a container gets when none is asked for: VP9 in WebM, else H.264 (ProRes 4444 for a
    /// transparent `.mov`).
    public static func `default`(for format: OutputFormat, transparent: Bool) -> VideoCodec {
        switch format {
        case .webm: .vp9
        case .mov where transparent: .prores
        default: .h264
        }
    }

    /// Whether a container holds this codec (as the tool writes it).
    public func fits(_ format: OutputFormat) -> Bool {
        switch self {
        case .h264: [.mp4, .mkv, .mov].contains(format)
        case .vp9: format == .webm
        case .prores, .qtrle: format == .mov
        }
    }

    /// Whether the encoder always writes alpha (no opaque form).
    public var alwaysHasAlpha: Bool { self == .prores || self == .qtrle }

    /// libavcodec's encoder name.
    var encoderName: String {
        switch self {
        case .h264: "libx264"
        case .vp9: "libvpx-vp9"
        case .prores: "prores_ks"
        case .qtrle: "qtrle"
        }
    }

    /// The pixel format the encoder is fed: YUV 4:2:0 for the opaque codecs, an alpha format otherwise.
    func pixelFormat(alpha: Bool) -> AVPixelFormat {
        switch self {
        case .h264: AV_PIX_FMT_YUV420P
        case .vp9: alpha ? AV_PIX_FMT_YUVA420P : AV_PIX_FMT_YUV420P
        case .prores: AV_PIX_FMT_YUVA444P10LE
        case .qtrle: AV_PIX_FMT_ARGB
        }
    }
}
