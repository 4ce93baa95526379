import Foundation
import MarbleCore
import Testing
@testable import Shaders

@Suite struct VectorscopeTests {
    static let side = 96

    /// Features whose waveforms are `left(i)` and `right(i)` for 256 samples.
    static func stereo(_ left: (Int) -> Float, _ right: (Int) -> Float) -> AudioFeatures {
        var f = AudioFeatures(bandCount: 64, waveformLength: 256)
        for i in 0..<256 { f.waveformLeft[i] = left(i); f.waveformRight[i] = right(i) }
        return f
    }

    static func sine(_ i: Int) -> Float { 0.8 * Float(sin(Double(i) * 0.09)) }

    static func rig(_ values: [String: ParameterValue] = [:]) throws -> Rig {
        var v: [String: ParameterValue] = ["graticule": .flag(false), "half_life": .number(0), "size": .number(1)]
        v.merge(values) { $1 }
        return try Rig("vectorscope", v, width: side, height: side)
    }

    /// Columns and rows that hold any ink.
    static func extent(_ bytes: [UInt8], threshold: UInt8 = 0) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        var x0 = Int.max, x1 = -1, y0 = Int.max, y1 = -1
        for y in 0..<side { for x in 0..<side where bytes[(y * side + x) * 4 + 3] > threshold {
            x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
        } }
        return x1 < 0 ? nil : (x0...x1, y0...y1)
    }

    static func alpha(_ bytes: [UInt8], _ x: Int, _ y: Int) -> Int { Int(bytes[(y * side + x) * 4 + 3]) }

    @Test func monoIsAVerticalLine() throws {
        let f = Self.stereo(Self.sine, Self.sine)
        let bytes = try Self.rig().render(uniforms(frame: 0, features: f, width: Self.side, height: Self.side))
        let e = try #require(Self.extent(bytes))
        #expect(e.columns.count <= 4 && e.columns.contains(Self.side / 2), "columns \(e.columns)")
        // 0.8 of full scale spans 0.8 of the radius either way.
        #expect(e.rows.count >= 70, "rows \(e.rows)")
    }

    @Test func antiPhaseIsAHorizontalLine() throws {
        let f = Self.stereo(Self.sine) { -Self.sine($0) }
        let bytes = try Self.rig().render(uniforms(frame: 0, features: f, width: Self.side, height: Self.side))
        let e = try #require(Self.extent(bytes))
        #expect(e.rows.count <= 4 && e.rows.contains(Self.side / 2), "rows \(e.rows)")
        #expect(e.columns.count >= 70, "columns \(e.columns)")
    }

    @Test func leftOnlyLeansLeftAndXYPutsMonoOnTheDiagonal() throws {
        let left = try Self.rig().render(uniforms(frame: 0, features: Self.stereo(Self.sine) { _ in 0 },
                                                  width: Self.side, height: Self.side))
        // Up-left / down-right diagonal (to ±0.4 of the size from the centre): ink at (c − 16, c − 16),
        // none at (c + 16, c − 16).
        let c = Self.side / 2
        #expect(Self.alpha(left, c - 16, c - 16) > 200 && Self.alpha(left, c + 16, c + 16) > 200)
        #expect(Self.alpha(left, c + 16, c - 16) == 0)
        let xy = try Self.rig(["mode": .text("lissajous_xy")]).render(
            uniforms(frame: 0, features: Self.stereo(Self.sine, Self.sine), width: Self.side, height: Self.side))
        #expect(Self.alpha(xy, c + 20, c - 21) > 200 && Self.alpha(xy, c - 20, c - 21) == 0)
    }

    @Test func polarFoldsIntoTheUpperHalfDisc() throws {
        let rig = try Self.rig(["mode": .text("polar")])
        let baseLine = Self.side * 3 / 4
        let mono = rig.render(uniforms(frame: 0, features: Self.stereo(Self.sine, Self.sine), width: Self.side, height: Self.side))
        let e = try #require(Self.extent(mono))
        #expect(e.columns.count <= 4 && e.rows.upperBound <= baseLine + 2 && e.rows.count >= 30, "\(e)")
        let anti = rig.render(uniforms(frame: 1, features: Self.stereo(Self.sine) { -Self.sine($0) }, width: Self.side, height: Self.side))
        let a = try #require(Self.extent(anti))
        #expect(a.rows.count <= 4 && a.rows.contains(baseLine) && a.columns.count >= 70, "\(a)")
    }

    @Test func phosphorHalvesEveryHalfLife() throws {
        // 0.1 s at 30 fps: three frames per half-life. The mono line's top stays lit while silence follows.
        let rig = try Self.rig(["half_life": .number(0.1), "intensity": .number(0.8)])
        let loud = Self.stereo(Self.sine, Self.sine), silent = AudioFeatures(bandCount: 64, waveformLength: 256)
        // The line runs down the boundary between the two middle columns: both hold half of it.
        let c = Self.side / 2, y = 15
        func ink(_ bytes: [UInt8]) -> Int { Self.alpha(bytes, c - 1, y) + Self.alpha(bytes, c, y) }
        let start = ink(rig.render(uniforms(frame: 0, features: loud, width: Self.side, height: Self.side)))
        var after = [Int]()
        for frame in 1...6 {
            after.append(ink(rig.render(uniforms(frame: frame, features: silent, width: Self.side, height: Self.side))))
        }
        #expect(start > 150)
        #expect(abs(Double(after[2]) - Double(start) / 2) <= 3, "\(start) → \(after)")
        #expect(abs(Double(after[5]) - Double(start) / 4) <= 3, "\(start) → \(after)")
        // Without persistence the trace is gone at once.
        let none = try Self.rig()
        _ = none.render(uniforms(frame: 0, features: loud, width: Self.side, height: Self.side))
        #expect(ink(none.render(uniforms(frame: 1, features: silent, width: Self.side, height: Self.side))) == 0)
    }

    @Test func aSeekBackStartsFromAClearScreen() throws {
        let rig = try Self.rig(["half_life": .number(1)])
        func frame(_ n: Int) -> [UInt8] {
            let f = Self.stereo({ Self.sine($0 + n * 7) }, { Self.sine($0 * 2 + n) })
            return rig.render(uniforms(frame: n, features: f, width: Self.side, height: Self.side))
        }
        let fresh = frame(2)
        _ = frame(3); _ = frame(4)
        let again = frame(2)
        #expect(again == fresh)
        // And following frames keep the trail: frame 3 after 2 has more ink than frame 3 alone.
        let trail = frame(3)
        let alone = try Self.rig(["half_life": .number(1)]).render(
            uniforms(frame: 3, features: Self.stereo({ Self.sine($0 + 21) }, { Self.sine($0 * 2 + 3) }), width: Self.side, height: Self.side))
        #expect(brightness(trail) > brightness(alone))
    }

    @Test func autoGainFillsTheScopeWithQuietSound() throws {
        let quiet = Self.stereo({ 0.05 * Self.sine($0) }, { 0.05 * Self.sine($0) })
        let plain = try Self.rig().render(uniforms(frame: 0, features: quiet, width: Self.side, height: Self.side))
        let boosted = try Self.rig(["auto_gain": .flag(true)]).render(uniforms(frame: 0, features: quiet, width: Self.side, height: Self.side))
        let p = try #require(Self.extent(plain)), b = try #require(Self.extent(boosted))
        #expect(p.rows.count < 12 && b.rows.count > 45, "\(p.rows) vs \(b.rows)")
    }

    @Test func graticuleIsFaintAndUnderTheTrace() throws {
        let rig = try Self.rig(["graticule": .flag(true)])
        let bytes = rig.render(uniforms(frame: 0, features: AudioFeatures(bandCount: 64, waveformLength: 256),
                                        width: Self.side, height: Self.side))
        // Circle at the left edge of the scope, on the horizontal axis; faint (alpha 0.22).
        let edge = Self.alpha(bytes, 0, Self.side / 2)
        #expect(edge > 20 && edge <= 60)
        #expect(Self.alpha(bytes, 20, 30) == 0)
    }
}
