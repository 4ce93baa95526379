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

    @Test("the most negative integer parses without trapping (found by FuzzOptions: --fps -9223372036854775808)")
    func mostNegativeInteger() {
        #expect(Rational(parsing: "-9223372036854775808") == Rational(Int.min))
        #expect(Rational(parsing: "-9223372036854775808/1")?.numerator == Int.min)
        #expect(Rational(parsing: "-9223372036854775808/2") == Rational(Int.min / 2))
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
