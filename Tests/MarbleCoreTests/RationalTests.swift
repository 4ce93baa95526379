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
