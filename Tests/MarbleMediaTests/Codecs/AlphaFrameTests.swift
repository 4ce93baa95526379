import CFFmpeg
import MarbleBench
import MarbleCore
@testable import MarbleMedia
import Testing

@Suite("AlphaFrame")
struct AlphaFrameTests {
    /// A 64x36 canvas: the left half half-transparent orange (128, 64, 0, 128 premultiplied), the right
    /// half transparent.
    static func canvas() -> Texture {
        let t = Texture(width: 64, height: 36)
        let orange = RGBA8(r: 128, g: 64, b: 0, a: 128).packed
        for y in 0..<36 { t.view.row32(y).update(repeating: orange, count: 32) }
        return t
    }

    @Test("ARGB (QuickTime Animation) gets the straight colour, byte for byte")
    func argb() throws {
        let frame = try AlphaFrame(width: 64, height: 36, format: AV_PIX_FMT_ARGB)
        let canvas = Self.canvas()
        try frame.fill(from: canvas.view)
        let row = marble_frame_data(frame.frame, 0)!
        #expect(Array(UnsafeBufferPointer(start: row, count: 4)) == [128, 255, 128, 0])   // A, R, G, B
        #expect(Array(UnsafeBufferPointer(start: row + 40 * 4, count: 4)) == [0, 0, 0, 0])
    }

    @Test("YUVA 4:4:4 10-bit (ProRes 4444): alpha scaled to 10 bits, colour in BT.709 limited range")
    func yuva444() throws {
        let frame = try AlphaFrame(width: 64, height: 36, format: AV_PIX_FMT_YUVA444P10LE)
        let canvas = Self.canvas()
        try frame.fill(from: canvas.view)
        func sample(_ plane: Int32, _ x: Int) -> Int {
            Int(marble_frame_data(frame.frame, plane)!.withMemoryRebound(to: UInt16.self, capacity: 64) { $0[x] })
        }
        // Alpha 128 of 255 → about 514 of 1023; transparent → 0.
        #expect(abs(sample(3, 4) - 514) <= 2 && sample(3, 40) == 0)
        // Straight orange (255, 128, 0): Y = 16 + 219·(0.2126·1 + 0.7152·0.502) = 141.2 in 8 bits, 564.8
        // in 10 (BT.601's weights would give 584).
        #expect(abs(sample(0, 4) - 565) <= 3, "Y \(sample(0, 4))")
    }

    @Test("filling a frame in steady state allocates nothing", arguments: [
        AV_PIX_FMT_RGBA, AV_PIX_FMT_ARGB, AV_PIX_FMT_YUVA444P10LE, AV_PIX_FMT_YUVA420P,
    ])
    func noAllocations(format: AVPixelFormat) throws {
        try #require(AllocationCounter.isCounting, "the test process counts no allocations: the check would prove nothing")
        let frame = try AlphaFrame(width: 64, height: 36, format: format)
        let canvas = Self.canvas(), view = canvas.view   // (the texture kept alive: the view borrows it)
        for _ in 0..<4 { try frame.fill(from: view) }   // warm up: swscale's own buffers
        // Counted on this thread only (other suites allocate at once); the fewest of the attempts.
        var fewest = Int.max
        for _ in 0..<200 where fewest > 0 {
            var failure: Error?
            fewest = min(fewest, AllocationCounter.measureThisThread {
                do { try frame.fill(from: view) } catch { failure = error }
            })
            if let failure { throw failure }
        }
        #expect(fewest == 0, "fill made \(fewest) mallocs")
        withExtendedLifetime(canvas) {}
    }
}
