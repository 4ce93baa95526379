import Foundation
import MarbleCore
import Testing
@testable import Shaders

@Suite struct PianoTests {
    /// 88 keys on 176 columns: two per semitone.
    static let width = 176, height = 90

    /// Features with `pitches` silent but for `notes` (MIDI → amplitude, full-scale sine = 1).
    static func features(_ notes: [Int: Float] = [:]) -> AudioFeatures {
        var f = AudioFeatures(bandCount: 64, waveformLength: 64, spectrumLength: 0, pitchCount: AudioFeatures.pitchCount)
        for (midi, a) in notes { f.pitches[midi - AudioFeatures.lowestPitch] = a }
        return f
    }

    static func uniforms(_ n: Int, _ f: AudioFeatures) -> FrameUniforms {
        FrameUniforms(time: Double(n) / 30, frameIndex: n, fps: Rational(30), width: width, height: height, features: f)
    }

    static func rig(_ values: [String: ParameterValue] = [:]) throws -> Rig {
        try Rig("piano", values, width: width, height: height)
    }

    static func alpha(_ bytes: [UInt8], _ x: Int, _ y: Int) -> UInt8 { bytes[4 * (y * width + x) + 3] }
    static func pixel(_ bytes: [UInt8], _ x: Int, _ y: Int) -> [UInt8] { Array(bytes[4 * (y * width + x)..<4 * (y * width + x) + 4]) }

    /// Rows of the bars (above the keyboard: 10 % of 90 rows).
    static let barRows = 0..<81

    /// The bar of note `midi` (slot (midi − 21) · 2 … + 2): its height in rows from the keyboard up.
    static func barHeight(_ bytes: [UInt8], midi: Int) -> Int {
        let x = (midi - 21) * 2
        return barRows.filter { alpha(bytes, x, $0) > 0 || alpha(bytes, x + 1, $0) > 0 }.count
    }

    @Test("A4 at −12 dBFS (the ceiling) fills A4's bar; its neighbours and the rest stay empty")
    func noteLightsItsBar() throws {
        let bytes = try Self.rig().render(Self.uniforms(0, Self.features([69: 0.25])))
        #expect(Self.barHeight(bytes, midi: 69) == Self.barRows.count)
        for midi in 21...108 where midi != 69 {
            #expect(Self.barHeight(bytes, midi: midi) == 0, "note \(midi) has a bar")
        }
    }

    @Test("with contrast 1, levels map from floor (empty) to ceiling (full), linearly in dB")
    func decibelRange() throws {
        // floor −60, ceiling −12: −36 dBFS is halfway, 40.5 of 81 rows.
        let half = Float(pow(10, -36.0 / 20)), quiet = Float(pow(10, -66.0 / 20))
        let bytes = try Self.rig(["contrast": .number(1)]).render(Self.uniforms(0, Self.features([60: half, 72: quiet])))
        #expect(abs(Self.barHeight(bytes, midi: 60) - 41) <= 1, "\(Self.barHeight(bytes, midi: 60)) rows")
        #expect(Self.barHeight(bytes, midi: 72) == 0)
        // The half-covered top pixel of the bar: alpha about half.
        let top = Self.alpha(bytes, (60 - 21) * 2, 81 - 41)
        #expect(top > 80 && top < 160, "top pixel alpha \(top)")
    }

    @Test("the default contrast (2) squares the height: 24 dB under the ceiling is a quarter, 14 dB under it a half")
    func contrast() throws {
        let quarter = Float(pow(10, -36.0 / 20)), half = Float(pow(10, -26.06 / 20))
        let bytes = try Self.rig().render(Self.uniforms(0, Self.features([60: quarter, 64: half, 69: 0.25])))
        #expect(abs(Self.barHeight(bytes, midi: 60) - 21) <= 1, "\(Self.barHeight(bytes, midi: 60)) rows, expected a quarter of 81")
        #expect(abs(Self.barHeight(bytes, midi: 64) - 41) <= 1, "\(Self.barHeight(bytes, midi: 64)) rows, expected half of 81")
        #expect(Self.barHeight(bytes, midi: 69) == Self.barRows.count)
    }

    @Test("bars fall at `fall` full heights per second (3/s at 30 fps: a tenth per frame)")
    func fall() throws {
        let rig = try Self.rig(["fall": .number(3)])
        _ = rig.render(Self.uniforms(0, Self.features([64: 1])))
        let bytes = rig.render(Self.uniforms(2, Self.features()))   // two frames later
        #expect(abs(Self.barHeight(bytes, midi: 64) - 65) <= 1, "\(Self.barHeight(bytes, midi: 64)) rows, expected 0.8 × 81")
    }

    @Test("a key lights with its note: A4's white key and nothing else on the keyboard changes")
    func keyLightsWithItsNote() throws {
        let silent = try Self.rig().render(Self.uniforms(0, Self.features()))
        let lit = try Self.rig().render(Self.uniforms(0, Self.features([69: 0.25])))
        var changed = Set<Int>()
        for y in 81..<90 { for x in 0..<Self.width where Self.pixel(silent, x, y) != Self.pixel(lit, x, y) { changed.insert(x) } }
        // A4's slot is columns 96–97; its lower key (A of the F–B group) spans 2 × (−9 + 5 + 3.5) … + 3.5 around it.
        #expect(changed.contains(96) && changed.contains(97))
        #expect(changed.allSatisfy { (93...100).contains($0) }, "changed columns \(changed.sorted())")
    }

    @Test("silence: no bars, an unlit keyboard, an empty sonogram")
    func silenceIsEmpty() throws {
        let rig = try Self.rig(["sonogram": .number(0.3)])
        var bytes: [UInt8] = []
        for n in 0..<4 { bytes = rig.render(Self.uniforms(n, Self.features())) }
        // Keyboard 9 rows, sonogram 27 rows: bars 0..<54, sonogram 63..<90.
        for y in Array(0..<54) + Array(63..<90) {
            #expect((0..<Self.width).allSatisfy { Self.alpha(bytes, $0, y) == 0 }, "row \(y) is not empty")
        }
        #expect((54..<63).allSatisfy { y in (0..<Self.width).allSatisfy { Self.alpha(bytes, $0, y) == 255 } })
    }

    @Test("the sonogram moves down one row per frame, newest under the keyboard")
    func sonogramScrolls() throws {
        let rig = try Self.rig(["sonogram": .number(0.3)])
        _ = rig.render(Self.uniforms(0, Self.features()))
        _ = rig.render(Self.uniforms(1, Self.features([57: 0.5])))
        for n in 2..<6 {
            let bytes = rig.render(Self.uniforms(n, Self.features()))
            let lit = (63..<90).filter { Self.alpha(bytes, (57 - 21) * 2, $0) > 0 }
            #expect(lit == [63 + n - 1], "frame \(n): rows \(lit)")
        }
    }

    @Test("a render that starts later (prepare for every earlier frame) draws the same bytes")
    func laterStartMatchesOnePass() throws {
        func features(_ n: Int) -> AudioFeatures { Self.features([30 + n % 50: 0.3, 90 - n % 20: Float(n % 7) / 10]) }
        let values: [String: ParameterValue] = ["sonogram": .number(0.4), "fall": .number(2)]
        let onePass = try Self.rig(values)
        var expected: [UInt8] = []
        for n in 0..<30 { expected = onePass.render(Self.uniforms(n, features(n))) }
        let later = try Self.rig(values)
        for n in 0..<29 { later.shader.prepare(Self.uniforms(n, features(n)), parameters: later.parameters) }
        let bytes = later.render(Self.uniforms(29, features(29)))
        #expect(bytes == expected, "\(describeDifference(expected, bytes, width: Self.width))")
    }

    @Test("golden: 30 frames of a rising arpeggio with the sonogram (176x90, ±2 per channel)")
    func golden() throws {
        let rig = try Self.rig(["sonogram": .number(0.35)])
        var bytes: [UInt8] = []
        for n in 0..<30 {
            let root = 36 + (n / 3) * 4
            bytes = rig.render(Self.uniforms(n, Self.features([root: 0.2, root + 4: 0.05, root + 7: 0.1, 28: 0.02])))
        }
        Golden.check("piano-arpeggio", bytes, width: Self.width, height: Self.height)
    }

    @Test("a narrower range: C2…C6 gives 49 slots across the width")
    func range() throws {
        let rig = try Rig("piano", ["low_note": .number(36), "high_note": .number(84), "keyboard": .number(0)], width: 98, height: 40)
        var f = Self.features([36: 0.25, 84: 0.25])
        f.time = 0
        let bytes = rig.render(FrameUniforms(time: 0, frameIndex: 0, fps: Rational(30), width: 98, height: 40, features: f))
        let bottom = (0..<98).filter { bytes[4 * (39 * 98 + $0) + 3] > 0 }
        #expect(bottom.first == 0 && bottom.last == 97 && bottom.count <= 4, "\(bottom)")
        #expect(throws: ParameterError.self) { try Rig("piano", ["low_note": .number(60), "high_note": .number(62)]) }
    }

    @Test("needs pitches; without them, the band levels drive the bars")
    func needsAndFallback() throws {
        #expect(Piano.descriptor.needs == .pitches)
        let rig = try Rig("piano")
        #expect(rig.render(frame: 3, loudness: 0) != rig.render(frame: 3, loudness: 1))
    }

    @Test("C keys carry their names (C1 … C8) where the keys are big enough, drawn only on those keys; small keys keep their dots")
    func noteNames() throws {
        let w = 1280, h = 400
        let u = FrameUniforms(time: 0, frameIndex: 0, fps: Rational(30), width: w, height: h, features: Self.features())
        let on = try Rig("piano", ["keyboard": .number(0.2)], width: w, height: h).render(u)
        let off = try Rig("piano", ["keyboard": .number(0.2), "note_names": .flag(false)], width: w, height: h).render(u)
        // 88 keys from A0: the C keys are notes 3, 15, … 87; a white key is 12/7 semitone slots wide.
        let slot = Float(w) / 88, whiteKey = slot * 12 / 7
        var perC = [Int](repeating: 0, count: 8), elsewhere = 0
        for y in 0..<h {
            for x in 0..<w where on[4 * (y * w + x)..<4 * (y * w + x) + 4] != off[4 * (y * w + x)..<4 * (y * w + x) + 4] {
                let c = (0..<8).first { abs(Float(x) + 0.5 - (Float(3 + 12 * $0) + 5.0 / 6) * slot) < whiteKey / 2 }
                if let c, y >= h - 80 { perC[c] += 1 } else { elsewhere += 1 }
            }
        }
        #expect(perC.allSatisfy { $0 > 30 }, "pixels changed on each C key: \(perC)")
        #expect(elsewhere == 0, "\(elsewhere) pixels changed off the C keys")
        // 176x90: keys two pixels wide, too small to read a name: the dots stay, the same picture.
        let small = Self.uniforms(0, Self.features())
        #expect(try Self.rig().render(small) == (try Self.rig(["note_names": .flag(false)]).render(small)))
    }
}
