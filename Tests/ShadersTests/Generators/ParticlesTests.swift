import MarbleCore
import Testing
@testable import Shaders

@Suite struct ParticlesTests {
    /// Features of frame `n`: the synthetic song's bands at `loudness`, with beats and onsets as given.
    static func frame(_ n: Int, loudness: Float, beat: Bool = false, onset: Bool = false, big: Bool = false) -> FrameUniforms {
        var f = syntheticFeatures(frame: n, loudness: loudness)
        f.isBeat = beat; f.beatPulse = beat ? 1 : 0
        f.isOnset = onset; f.onset = onset ? 1 : 0
        return uniforms(frame: n, features: f, width: big ? 192 : testWidth, height: big ? 108 : testHeight)
    }

    static func inked(_ b: [UInt8]) -> Int { stride(from: 3, to: b.count, by: 4).filter { b[$0] > 0 }.count }

    @Test func silenceEmitsNothingAndTheSparksDie() throws {
        let rig = try Rig("particles", ["life": .number(1)])
        for n in 0..<20 { _ = rig.render(Self.frame(n, loudness: 1, beat: n % 8 == 0)) }
        #expect(Self.inked(rig.render(Self.frame(20, loudness: 0))) > 0, "sparks from the music are still flying")
        var last: [UInt8] = []
        for n in 21..<60 { last = rig.render(Self.frame(n, loudness: 0, beat: n % 8 == 0, onset: true)) }
        let empty = last.allSatisfy { $0 == 0 }
        #expect(empty, "a second of silence later (beats and onsets in it included) the frame is empty")
        let fresh = try Rig("particles")
        for n in 0..<30 {
            let nothing = fresh.render(Self.frame(n, loudness: 0, beat: true)).allSatisfy { $0 == 0 }
            #expect(nothing, "silence emits nothing, beats included (frame \(n))")
        }
    }

    @Test func aBeatThrowsABurst() throws {
        // No continuous emission (rate 0): nothing until the beat, then a burst (from a ring, so the
        // sparks do not overlap at once).
        let rig = try Rig("particles", ["rate": .number(0), "size": .number(30), "radius": .number(0.2)], width: 192, height: 108)
        let before = Self.inked(rig.render(Self.frame(0, loudness: 1, big: true)))
        let beat = Self.inked(rig.render(Self.frame(1, loudness: 1, beat: true, big: true)))
        let after = Self.inked(rig.render(Self.frame(2, loudness: 1, big: true)))
        #expect(before == 0 && beat > 150 && after > 150, "before \(before), beat \(beat), after \(after) inked pixels")
        let onset = try Rig("particles", ["rate": .number(0), "size": .number(30), "radius": .number(0.2)], width: 192, height: 108)
        _ = onset.render(Self.frame(0, loudness: 1, onset: true, big: true))
        let onsetAfter = Self.inked(onset.render(Self.frame(1, loudness: 1, big: true)))
        #expect(onsetAfter > 40 && onsetAfter < after, "an onset throws fewer sparks (\(onsetAfter))")
    }

    @Test func louderBandsEmitMore() throws {
        func sparks(_ loudness: Float) throws -> Int {
            let rig = try Rig("particles", ["burst": .number(0)], width: 192, height: 108)
            var b: [UInt8] = []
            for n in 0..<20 { b = rig.render(Self.frame(n, loudness: loudness, big: true)) }
            return Self.inked(b)
        }
        let quiet = try sparks(0.3), loud = try sparks(1)
        #expect(loud > quiet * 2 && quiet > 0, "quiet \(quiet), loud \(loud)")
    }

    @Test(arguments: ["center", "bottom"]) func aLaterStartAfterAdvancingDrawsTheSameFrame(_ emitter: String) throws {
        let values: [String: ParameterValue] = ["emitter": .text(emitter)]
        let whole = try Rig("particles", values), later = try Rig("particles", values)
        var expected: [UInt8] = []
        for n in 0...40 { expected = whole.render(Self.frame(n, loudness: 1, beat: n % 8 == 0)) }
        // The later render only prepares the earlier frames (Compositor.advance), then draws frame 40.
        for n in 0..<40 { later.shader.prepare(Self.frame(n, loudness: 1, beat: n % 8 == 0), parameters: later.parameters) }
        let got = later.render(Self.frame(40, loudness: 1, beat: true), strips: 5)
        let same = got == expected
        #expect(same, "\(describeDifference(expected, got, width: testWidth))")
        #expect(Self.inked(got) > 20)
        let other = try Rig("particles", values.merging(["seed": .number(7)]) { $1 })
        var reseeded: [UInt8] = []
        for n in 0...40 { reseeded = other.render(Self.frame(n, loudness: 1, beat: n % 8 == 0)) }
        let differs = reseeded != expected
        #expect(differs, "the seed changes the pattern")
    }

    @Test func lowBandsAreWarmHighBandsCool() throws {
        // Only the lowest bands sound: every spark is near the low colour (red; at most a quarter of the
        // way to the magenta middle), none the high one (blue).
        let rig = try Rig("particles", ["low_color": .text("#ff0000"), "high_color": .text("#0000ff"), "burst": .number(0), "hot": .number(0)],
                          width: 192, height: 108)
        var b: [UInt8] = []
        for n in 0..<20 {
            var u = Self.frame(n, loudness: 1, big: true)
            for i in u.features.bands.indices { u.features.bands[i] = i < 8 ? 1 : 0 }
            b = rig.render(u)
        }
        var red = 0, blue = 0
        for i in stride(from: 0, to: b.count, by: 4) { red += Int(b[i]); blue += Int(b[i + 2]) }
        #expect(red > 1000 && blue * 3 < red, "red \(red), blue \(blue)")
    }

    /// Issue 25: loud music fills a good share of the frame with sparks (before: about 0.4 % of the
    /// pixels lit at 1080p), and a beat flares them.
    @Test func loudMusicFillsTheFrameAndBeatsFlare() throws {
        let (w, h) = (384, 216)
        func frame(_ n: Int, beat: Bool) -> FrameUniforms {
            var f = syntheticFeatures(frame: n, loudness: 1)
            f.isBeat = beat; f.beatPulse = beat ? 1 : 0
            return uniforms(frame: n, features: f, width: w, height: h)
        }
        func lit(_ b: [UInt8]) -> Double {
            Double(stride(from: 0, to: b.count, by: 4).filter { max(b[$0], b[$0 + 1], b[$0 + 2]) > 24 }.count) / Double(w * h)
        }
        func brightness(_ b: [UInt8]) -> Int { b.enumerated().reduce(0) { $0 + ($1.offset % 4 == 3 ? 0 : Int($1.element)) } }
        let rig = try Rig("particles", width: w, height: h)
        for n in 0..<60 { rig.shader.prepare(frame(n, beat: n % 15 == 0), parameters: rig.parameters) }
        let calm = rig.render(frame(60, beat: false))
        // 5.4 % now (the audit measured 0.4 % lit at 1080p on real music before).
        #expect(lit(calm) > 0.03, "lit share \(lit(calm)) after two seconds of loud music")
        var pulse = frame(60, beat: false)
        pulse.features.beatPulse = 1
        let flared = rig.render(pulse)
        #expect(Double(brightness(flared)) > 1.2 * Double(brightness(calm)), "calm \(brightness(calm)), beat pulse \(brightness(flared))")
    }
}

