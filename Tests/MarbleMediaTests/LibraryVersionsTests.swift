@testable import MarbleMedia
import Testing

@Suite("LibraryVersions")
struct LibraryVersionsTests {
    @Test("FFmpeg's packed versions read as major.minor.micro")
    func dotted() {
        #expect(LibraryVersions.dotted(59 << 16 | 27 << 8 | 100) == "59.27.100")
        #expect(LibraryVersions.dotted(0) == "0.0.0")
    }

    @Test("every library reports a version at run time, and libavformat's is the linked major (59 on Debian 12 or newer)")
    func current() {
        let entries = LibraryVersions.current()
        #expect(entries.map(\.name) == ["FFmpeg", "libavformat", "libavcodec", "libavutil", "libswscale", "libswresample", "libpulse", "SDL2"])
        for entry in entries {
            #expect(entry.version.first?.isNumber == true, "\(entry.name): \(entry.version)")
        }
        let major = entries.first { $0.name == "libavformat" }.flatMap { Int($0.version.split(separator: ".")[0]) } ?? 0
        #expect(major >= 59)
        #expect(entries.first { $0.name == "SDL2" }?.version.hasPrefix("2.") == true)
    }
}
