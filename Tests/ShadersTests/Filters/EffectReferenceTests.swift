import MarbleCore
import Testing
@testable import Shaders

/// Marble's effects against plain references, and their neutral settings against the identity.
@Suite struct EffectReferenceTests {
    /// Plain analog: the colour grade as written in the parameter help, grain from the same noise
    /// table at the same frame-hashed offsets.
    static func analogReference(_ values: [String: ParameterValue], source: Texture, frame: Int, level: Float,
                                beat: Float) throws -> [UInt8] {
        let p = try ShaderParameters(descriptor: Analog.descriptor, values: values)
        let react = Double(p.number("react")), level = Double(min(1.5, max(0, level)))
        let k = Double(p.number("contrast")) * (1 + 0.2 * react * min(1, level)), s = Double(p.number("saturation"))
        let b = Double(p.number("brightness")) + 0.1 * react * Reference.clamp01(Double(beat))
        let grain = Double(p.number("grain")) * (1 + react * level)
        let h = Noise.hash(UInt32(truncatingIfNeeded: frame) &+ 0x9E37_79B9)
        let offsetA = Int(h & 0xFFFF), offsetB = Int(h >> 16)
        return Reference.bytes(width: testWidth, height: testHeight) { x, y in
            let px = source.pixel(x, y).map { Double($0) / 255 }
            let a = px[3]
            let noiseA = Double(Noise.table[((y + (offsetA >> 8)) & 255) * 256 + ((x + offsetA) & 255)])
            let noiseB = Double(Noise.table[((y * 5 + (offsetB >> 8)) & 255) * 256 + ((x + offsetB) & 255)])
            let graded = (0..<3).map { c in k * px[c] + (0.5 * (1 - k) + b) * a }
            let luma = 0.299 * graded[0] + 0.587 * graded[1] + 0.114 * graded[2]
            let out = graded.map { s * $0 + (1 - s) * luma + (noiseA + noiseB - 1) * grain * a }
            return [Reference.byte(min(out[0], a)), Reference.byte(min(out[1], a)), Reference.byte(min(out[2], a)),
                    source.pixel(x, y)[3]]
        }
    }

    @Test(arguments: [0, 9]) func analogMatchesTheReference(_ frame: Int) throws {
        let values: [String: ParameterValue] = ["contrast": .number(1.4), "saturation": .number(0.6),
                                                "brightness": .number(0.05), "grain": .number(0.3)]
        let picture = testPicture(seed: 4)
        let f = syntheticFeatures(frame: frame)
        let bytes = try Rig("analog", values, source: picture).render(uniforms(frame: frame, features: f))
        let expected = try Self.analogReference(values, source: picture, frame: frame, level: f.level, beat: f.beatPulse)
        #expect(maxDifference(bytes, expected)!.difference <= 1, "\(describeDifference(bytes, expected, width: testWidth))")
    }

    @Test func analogGrainRepeatsPerFrameIndexOnly() throws {
        let rig = try Rig("analog")
        let a = rig.render(frame: 4), b = rig.render(frame: 4), c = rig.render(frame: 5)
        let repeats = a == b, changes = a != c
        #expect(repeats && changes)
    }

    /// Plain pixellate: blocks of `size` anchored at the frame centre, each the mean of four samples.
    @Test func pixellateMatchesTheReference() throws {
        let (w, h) = (96, 54)
        let picture = testPicture(width: w, height: h, seed: 6)
        var f = syntheticFeatures(frame: 0)
        f.level = 0.5
        let size = 200.0, react = 1.0
        let rig = try Rig("pixellate", ["size": .number(size), "react": .number(react)], width: w, height: h, source: picture)
        let bytes = rig.render(uniforms(frame: 0, features: f, width: w, height: h))
        let block = Int(size * Double(h) / 1080 * (1 + react * (0.5 * 0.5 + Double(f.beatPulse))))
        let originX = (w / 2) % block - block, originY = (h / 2) % block - block
        var expected: [UInt8] = []
        for y in 0..<h {
            let top = originY + ((y - originY) / block) * block
            let ys = [top + block / 4, top + block - 1 - block / 4].map { min(h - 1, max(0, $0)) }
            for x in 0..<w {
                let left = originX + ((x - originX) / block) * block
                let xs = [left + block / 4, left + block - 1 - block / 4].map { min(w - 1, max(0, $0)) }
                let samples = [picture.pixel(xs[0], ys[0]), picture.pixel(xs[1], ys[0]), picture.pixel(xs[0], ys[1]), picture.pixel(xs[1], ys[1])]
                expected += (0..<4).map { c in UInt8((samples.reduce(0) { $0 + Int($1[c]) } + 2) / 4) }
            }
        }
        let same = bytes == expected
        #expect(same, "\(describeDifference(bytes, expected, width: w))")
    }

    /// Neutral settings must give back the picture exactly.
    @Test func neutralSettingsAreTheIdentity() throws {
        let picture = testPicture(seed: 8)
        let original = picture.packedBytes()
        let neutral: [(String, [String: ParameterValue])] = [
            ("vibes", ["mix": .number(0), "beat_mix": .number(0)]),
            ("disco", ["amount": .number(0)]),
            ("light_rays", ["exposure": .number(0)]),
            ("stars", ["mode": .text("behind")]),  // the picture is opaque: nothing shows behind it
            ("analog", ["contrast": .number(1), "saturation": .number(1), "grain": .number(0), "react": .number(0)]),
        ]
        for (name, values) in neutral {
            let bytes = try Rig(name, values, source: picture).render(frame: 3)
            #expect(maxDifference(bytes, original)!.difference <= (name == "analog" ? 1 : 0), "\(name): \(describeDifference(bytes, original, width: testWidth))")
        }
    }

    @Test func starsShowOnlyWhereThePictureIsTransparent() throws {
        let picture = testPicture(seed: 9)
        // Clear the left half.
        for y in 0..<testHeight { fillPixels(picture.view.row32(y), testWidth / 2, 0) }
        let bytes = try Rig("stars", ["density": .number(4), "mode": .text("behind")], source: picture).render(frame: 2)
        let original = picture.packedBytes()
        var leftLight = 0, rightSame = true
        for y in 0..<testHeight {
            for x in 0..<testWidth {
                let i = (y * testWidth + x) * 4
                if x < testWidth / 2 { leftLight += Int(bytes[i]) + Int(bytes[i + 2]); #expect(bytes[i + 3] == 255) }
                else if bytes[i..<(i + 4)] != original[i..<(i + 4)] { rightSame = false }
            }
        }
        #expect(rightSame)
        #expect(leftLight > testWidth * testHeight / 2 * 2 * 3)   // brighter than bare space (#02030a)
    }
}

@Suite struct LowResolutionTests {
    /// Plain bilinear stretch of a low-resolution picture, in Double.
    @Test(arguments: [2, 4, 6]) func stretchMatchesPlainBilinear(_ scale: Int) {
        let (w, h) = (50, 29)
        let grid = LowResolution(width: w, height: h, scale: scale)
        func low(_ i: Int, _ j: Int) -> [Double] {
            let v = Noise.hash(UInt32(i * 131 + j * 7919))
            return [Double(v & 0xFF), Double((v >> 8) & 0xFF), Double((v >> 16) & 0xFF), 255]
        }
        let target = Texture(width: w, height: h)
        for strips in [1, 3] {
            for s in 0..<strips {
                grid.render(target.view, rows: (h * s / strips)..<(h * (s + 1) / strips)) { j, out in
                    for i in 0..<grid.lowWidth {
                        let p = low(i, j).map { UInt32($0) }
                        out[i] = p[0] | p[1] << 8 | p[2] << 16 | p[3] << 24
                    }
                }
            }
            func tap(_ p: Int, _ count: Int) -> (Int, Int, Double) {
                let position = (Double(p) + 0.5) / Double(scale) - 0.5
                if position <= 0 { return (0, 0, 0) }
                let i = min(Int(position), count - 1)
                return (i, min(i + 1, count - 1), position - Double(i))
            }
            let expected = Reference.bytes(width: w, height: h) { x, y in
                let (i0, i1, fx) = tap(x, grid.lowWidth), (j0, j1, fy) = tap(y, grid.lowHeight)
                return (0..<4).map { c in
                    let top = low(i0, j0)[c] * (1 - fx) + low(i1, j0)[c] * fx
                    let bottom = low(i0, j1)[c] * (1 - fx) + low(i1, j1)[c] * fx
                    return UInt8((top * (1 - fy) + bottom * fy).rounded())
                }
            }
            let bytes = target.packedBytes()
            #expect(maxDifference(bytes, expected)!.difference <= 2, "scale \(scale): \(describeDifference(bytes, expected, width: w))")
        }
    }
}
