internal import CFFmpeg
internal import CPulse
internal import CSDL2

/// The versions of the C libraries this process runs with (the shared objects the dynamic linker loaded,
/// which may be newer than the headers it was built against), as plain strings for `marble --version`.
package enum LibraryVersions {
    /// One library: its name and the version it reports at run time.
    package struct Entry: Sendable, Equatable {
        package var name: String
        package var version: String
    }

    /// FFmpeg's release (`av_version_info`, e.g. "5.1.6-0+deb12u1"), then libavformat, libavcodec,
    /// libavutil, libswscale, libswresample (major.minor.micro), libpulse and SDL2.
    package static func current() -> [Entry] {
        [
            Entry(name: "FFmpeg", version: av_version_info().map { String(cString: $0) } ?? "unknown"),
            Entry(name: "libavformat", version: dotted(avformat_version())),
            Entry(name: "libavcodec", version: dotted(avcodec_version())),
            Entry(name: "libavutil", version: dotted(avutil_version())),
            Entry(name: "libswscale", version: dotted(swscale_version())),
            Entry(name: "libswresample", version: dotted(swresample_version())),
            Entry(name: "libpulse", version: pa_get_library_version().map { String(cString: $0) } ?? "unknown"),
            Entry(name: "SDL2", version: sdlVersion()),
        ]
    }

    /// FFmpeg's AV_VERSION_INT packing: major << 16 | minor << 8 | micro.
    static func dotted(_ packed: UInt32) -> String {
        "\(packed >> 16).\((packed >> 8) & 0xFF).\(packed & 0xFF)"
    }

    /// SDL_GetVersion: the linked library's version (needs no SDL_Init).
    static func sdlVersion() -> String {
        var version = SDL_version()
        SDL_GetVersion(&version)
        return "\(version.major).\(version.minor).\(version.patch)"
    }
}
