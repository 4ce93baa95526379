@testable import MarbleMedia
import Testing

@Suite("OutputFormat")
struct OutputFormatTests {
    @Test("the format comes from the last component's extension, any case; m4v is mp4")
    func extensions() {
        #expect(OutputFormat(path: "out.mp4") == .mp4)
        #expect(OutputFormat(path: "/a.d/b.c/OUT.WebM") == .webm)
        #expect(OutputFormat(path: "clip.m4v") == .mp4)
        #expect(OutputFormat(path: "x.mkv/") == .mkv)
        #expect(OutputFormat(path: "a b.png") == .png)
        for none in ["out", ".mp4", "dir/.png", "out.", "/a.mp4/b", "out.gif", "", "/"] {
            #expect(OutputFormat(path: none) == nil, "\(none)")
        }
    }

    @Test("slashes around a name are no format, and no trap (found by FuzzOptions: -o ///x///)")
    func slashesAroundName() {
        for path in ["///x///", "/////'/////", "///x//", "////x.mp4////"] {
            _ = OutputFormat(path: path)
        }
        #expect(OutputFormat(path: "///x///") == nil)
        #expect(OutputFormat(path: "////x.mp4////") == .mp4)
    }
}
