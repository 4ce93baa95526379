import MarbleBench
import MarbleCore
import Shaders
import Testing

/// The `lyrics` layer draws without allocating once a line is laid out: only a line change builds.
@Suite("lyrics layer: no allocation per frame", .serialized)
struct LyricsAllocationTests {
    @Test("frames inside a word-timed line, karaoke filling, allocate nothing")
    func steadyFrames() throws {
        let layer = try ShaderLibrary.make("lyrics", [:])
        let width = 320, height = 180, fps = Rational(30)
        let song = SongInfo(lyrics: Lyrics(lines: [Lyrics.Line(start: 0, end: 9000, text: "Sing along with me", words: [
            Lyrics.Word(scalars: 0..<5, start: 0, end: 3000), Lyrics.Word(scalars: 5..<11, start: 3000, end: 6000),
            Lyrics.Word(scalars: 11..<18, start: 6000, end: 9000),
        ]), Lyrics.Line(start: 9000, end: Lyrics.open, text: "then the next", words: [])]))
        let canvas = Texture(width: width, height: height)
        let features = AudioFeatures(bandCount: 64, waveformLength: 256)
        func draw(_ n: Int) {
            let u = FrameUniforms(time: fps.seconds(ofFrame: n), frameIndex: n, fps: fps, width: width, height: height,
                                  features: features, song: song)
            layer.shader.prepare(u, parameters: layer.parameters)
            layer.shader.render(canvas.view, source: canvas.view, rows: layer.shader.coveredRows(height: height), uniforms: u)
        }
        layer.shader.configure(width: width, height: height)
        draw(0)
        // Counted on this thread only (other suites allocate at once); the fewest of the frames.
        var fewest = Int.max
        for n in 1..<240 { fewest = min(fewest, AllocationCounter.measureThisThread { draw(n) }) }
        #expect(AllocationCounter.isCounting)
        #expect(fewest == 0)
    }
}
