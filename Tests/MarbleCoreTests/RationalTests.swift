import MarbleCore
import Testing

@Suite("Rational")
struct RationalTests {
    @Test("parses integers, fractions and decimals, in lowest terms; rejects the rest")
    func parsing() {
        #expect(Rational(parsing: "60") == Rational(60))
        #expect(Rational(parsing: "30000/1001")?.description == "30000/1001")
        #expect(Rational(parsing: "50/2") == Rational(25))
        #expect(Rational(parsing: "29.97") == Rational(2997, 100))
        for bad in ["", "x", "30/0", "30/", "/2", "1/2/3", "nan", "inf"] {
            #expect(Rational(parsing: bad) == nil, "\(bad)")
        }
        #expect(Rational(3, -6) == Rational(-1, 2))
    }

    @Test("frameCount(samples:sampleRate:) is ceil(samples · rate / sample rate), exactly, even where a frame is 1837.5 samples")
    func exactFrameCount() {
        // 44.1 kHz at 24 fps: 1837.5 samples a frame. 3675 samples are exactly 2 frames; one more starts a third.
        #expect(Rational(24).frameCount(samples: 3675, sampleRate: 44_100) == 2)
        #expect(Rational(24).frameCount(samples: 3676, sampleRate: 44_100) == 3)
        #expect(Rational(24).frameCount(samples: 0, sampleRate: 44_100) == 0)
        // NTSC: 10 minutes at 48 kHz is 17982.0 frames exactly; a sample more is one more frame.
        let ntsc = Rational(30000, 1001)
        #expect(ntsc.frameCount(samples: 48_000 * 600_600 / 1000, sampleRate: 48_000) == 18_000)
        #expect(ntsc.frameCount(samples: 48_000 * 600_600 / 1000 + 1, sampleRate: 48_000) == 18_001)
        // 100 hours at 192 kHz with a 31-bit numerator: the product passes 2^63 and must not trap.
        let huge = Rational(2_147_483_647, 8_947_849)
        #expect(huge.frameCount(samples: 192_000 * 360_000, sampleRate: 192_000) == 86_399_996)
        // The same as the Double formula wherever that one is exact.
        for samples in stride(from: 1, to: 200_000, by: 997) {
            let viaSeconds = Rational(60).frameCount(covering: Double(samples) / 44_100)
            #expect(Rational(60).frameCount(samples: samples, sampleRate: 44_100) == viaSeconds, "\(samples)")
        }
    }

    @Test("fraction parts beyond 32 bits (what FFmpeg's AVRational holds) are refused, not truncated")
    func thirtyTwoBitParts() {
        #expect(Rational(parsing: "2147483647/1") != nil)
        #expect(Rational(parsing: "4294967297/4294967296") == nil)
        #expect(Rational(parsing: "1/99999999999") == nil)
        #expect(Rational(parsing: "9223372036854775807") == nil)
        #expect(Rational(parsing: "-4294967297/1") == nil)
    }

    @Test("Limits.check names the option and the range, and refuses what is not a finite number")
    func limits() throws {
        #expect(try Limits.check(4, in: 1...8, "--threads") == 4)
        #expect(throws: MarbleError.self) { try Limits.check(Int.max, in: 1...8, "--threads") }
        #expect(throws: MarbleError.self) { try Limits.check(Double.nan, in: 0...1, "--at") }
        #expect(throws: MarbleError.self) { try Limits.check(Double.infinity, in: 0...Double.greatestFiniteMagnitude, "--at") }
        let error = #expect(throws: MarbleError.self) { try Limits.check(10_000, in: 1...8, "--threads") }
        #expect(error?.kind == .option && error?.message == "--threads 10000: must be between 1 and 8", "\(String(describing: error))")
        #expect(throws: MarbleError.self) { try Limits.check(rate: Rational(0)) }
        #expect(try Limits.check(rate: Rational(30000, 1001)) == Rational(30000, 1001))
        #expect(throws: MarbleError.self) { try Limits.check(rate: Rational(241)) }
    }

    @Test("the most negative integer is refused without trapping (found by FuzzOptions: --fps -9223372036854775808)")
    func mostNegativeInteger() {
        // Refused (parts beyond 32 bits), without trapping on abs(Int.min) on the way.
        #expect(Rational(parsing: "-9223372036854775808") == nil)
        #expect(Rational(parsing: "-9223372036854775808/1") == nil)
        #expect(Rational(parsing: "-9223372036854775808/2") == nil)
        #expect(Rational(Int.min, 4).denominator == 1)
    }

    @Test("frame n starts at exactly n / fps, and ceil(duration · fps) frames cover a duration")
    func frames() {
        let ntsc = Rational(30000, 1001)
        #expect(ntsc.seconds(ofFrame: 30000) == 1001)
        #expect(ntsc.frame(at: 1001) == 30000)
        #expect(ntsc.frame(at: 1000.999) == 29999)
        let sixty = Rational(60)
        #expect(sixty.frameCount(covering: 1.0) == 60)        // exact multiple: no extra frame
        #expect(sixty.frameCount(covering: 1.0001) == 61)
        #expect(sixty.frameCount(covering: 0.1 + 0.2) == 18)  // 0.30000000000000004 s is still 18 frames
        #expect(sixty.frame(at: sixty.seconds(ofFrame: 123_456)) == 123_456)
    }
}
