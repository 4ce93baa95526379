import MarbleCore
@testable import MarbleMedia
import Testing

@Suite("PNGSequencePattern")
struct PNGSequencePatternTests {
    @Test("%d and %0Nd in the file name number frames from 0", arguments: [
        ("frames/%06d.png", 42, "frames/000042.png"), ("f%d.png", 7, "f7.png"), ("/tmp/x/shot-%03d.png", 1234, "/tmp/x/shot-1234.png"),
    ])
    func paths(pattern: String, frame: Int, path: String) throws {
        #expect(PNGSequencePattern.isPattern(pattern))
        #expect(try PNGSequencePattern(pattern).path(frame: frame) == path)
    }

    @Test("other uses of % are one-line option errors", arguments: [
        "frames/%s.png", "frames/%06d-%d.png", "fr%06d/x.png", "frames/%6d.png", "frames/%.png", "frames/%099d.png", "frames/%",
    ])
    func refused(pattern: String) {
        #expect(throws: MarbleError.self) { try PNGSequencePattern(pattern) }
        do { _ = try PNGSequencePattern(pattern) } catch {
            #expect(error.kind == .option)
            #expect(!error.message.contains("\n"))
        }
    }

    @Test("a plain .png is not a sequence")
    func plain() { #expect(!PNGSequencePattern.isPattern("frames/shot.png")) }
}
