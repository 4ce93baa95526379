import Testing
@testable import MilkDrop

/// The rasterizer runs with denormals flushed (DAZ and FTZ) and leaves the thread's environment as it found it.
@Suite struct FlushedDenormalsTests {
    /// A value the compiler cannot fold: the smallest normal float, read at run time.
    @inline(never) func smallest(_ values: [Float] = [Float.leastNormalMagnitude]) -> Float { values[0] }

    @Test func denormalsAreZeroInsideAndBackOutside() {
        let tiny = smallest(), denormal = smallest([Float(bitPattern: 1)]), one = smallest([1])
        #expect(tiny / 2 > 0, "denormals are kept outside")
        #if arch(x86_64)
        let inside = withDenormalsFlushed { (tiny / 2, denormal * one) }
        #expect(inside.0 == 0, "a denormal result is flushed to zero")
        #expect(inside.1 == 0, "a denormal input reads as zero")
        #endif
        #expect(tiny / 2 > 0, "the environment is restored after the body")
        #expect(withDenormalsFlushed { tiny * 4 } == tiny * 4, "normal values are unchanged")
    }
}
