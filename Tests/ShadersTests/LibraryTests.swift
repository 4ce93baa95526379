import MarbleCore
import Testing
@testable import Shaders

/// Properties every kernel in the library must have, whatever it draws.
@Suite struct LibraryTests {
    static let names = ShaderLibrary.all.map { $0.descriptor.name }

    @Test func namesAreUniqueAndDefaultsValidate() throws {
        #expect(Set(Self.names).count == Self.names.count)
        for type in ShaderLibrary.all {
            let d = type.descriptor
            #expect(!d.summary.isEmpty)
            #expect(Set(d.parameters.map(\.name)).count == d.parameters.count, "\(d.name) repeats a parameter")
            for p in d.parameters { #expect(!p.help.isEmpty, "\(d.name).\(p.name) has no help") }
            _ = try type.init(parameters: try ShaderParameters(descriptor: d))
        }
    }

    @Test(arguments: names) func sameUniformsGiveSameBytes(_ name: String) throws {
        let picture = testPicture()
        let a = try Rig(name).render(frame: 5, input: picture.view)
        let b = try Rig(name).render(frame: 5, input: picture.view)
        let same = a == b
        #expect(same, "\(describeDifference(a, b, width: testWidth))")
        // The same instance again after other frames: no hidden state leaks between frames.
        let rig = try Rig(name)
        _ = rig.render(frame: 1, input: picture.view); _ = rig.render(frame: 9, input: picture.view)
        let again = rig.render(frame: 5, input: picture.view) == a
        #expect(again)
    }

    @Test(arguments: names) func stripsDoNotChangeTheResult(_ name: String) throws {
        let rig = try Rig(name)
        let picture = testPicture()
        for frame in [3, 8] {
            let whole = rig.render(frame: frame, strips: 1, input: picture.view)
            for strips in [2, 5, 36] {
                let split = rig.render(frame: frame, strips: strips, input: picture.view)
                let same = whole == split
                #expect(same, "\(strips) strips, frame \(frame): \(describeDifference(whole, split, width: testWidth))")
            }
        }
    }

    @Test(arguments: names) func everyPixelIsWritten(_ name: String) throws {
        let rig = try Rig(name)
        if ShaderLibrary.shader(named: name)!.descriptor.drawsOnCanvas {
            // These blend onto the picture under them: where the layer alone is transparent, the picture
            // must come through unchanged; elsewhere the picture must show under translucent pixels only.
            let alone = rig.render(frame: 4)
            let grey = RGBA8(r: 90, g: 90, b: 90, a: 255)
            let over = rig.render(frame: 4, over: grey)
            var checked = 0
            for i in stride(from: 0, to: alone.count, by: 4) where alone[i + 3] == 0 {
                #expect(over[i] == 90 && over[i + 1] == 90 && over[i + 2] == 90 && over[i + 3] == 255)
                checked += 1
            }
            #expect(checked > 0 && checked < alone.count / 4, "the layer covers some pixels, not all")
            return
        }
        let picture = testPicture()
        let (a, b) = withExtendedLifetime(picture) {
            (rig.render(frame: 4, input: picture.view, dirt: RGBA8(r: 0, g: 0, b: 0, a: 0)),
             rig.render(frame: 4, input: picture.view, dirt: RGBA8(r: 255, g: 255, b: 255, a: 255)))
        }
        let same = a == b
        #expect(same, "\(describeDifference(a, b, width: testWidth))")
    }

    @Test(arguments: names) func outputIsValidPremultipliedInSilenceAndWhenLoud(_ name: String) throws {
        let rig = try Rig(name)
        for loudness: Float in [0, 1, 3] {
            let picture = testPicture()
            let bytes = withExtendedLifetime(picture) { rig.render(frame: 2, loudness: loudness, input: picture.view) }
            #expect(isPremultiplied(bytes), "loudness \(loudness)")
            if ShaderLibrary.shader(named: name)!.descriptor.isOpaque {
                let opaque = stride(from: 3, to: bytes.count, by: 4).allSatisfy { bytes[$0] == 255 }
                #expect(opaque, "declared opaque")
            }
        }
    }

    @Test(arguments: names) func survivesNonFiniteAndOddFeatures(_ name: String) throws {
        let rig = try Rig(name)
        var f = syntheticFeatures(frame: 3)
        f.bands = [Float](repeating: .nan, count: 7)
        f.bandPeaks = []
        f.waveformLeft = [.infinity, -.infinity, .nan]
        f.waveformRight = []
        f.level = .nan; f.bass = .infinity; f.beatPulse = -.infinity
        let picture = testPicture()
        let bytes = withExtendedLifetime(picture) { rig.render(uniforms(frame: 3, features: f, input: picture.view)) }
        #expect(isPremultiplied(bytes))
    }

    @Test(arguments: names) func worksAtOddSizes(_ name: String) throws {
        for (w, h) in [(1, 1), (7, 3), (33, 17)] {
            let rig = try Rig(name, width: w, height: h)
            let picture = testPicture(width: w, height: h)
            let bytes = withExtendedLifetime(picture) { rig.render(frame: 1, strips: min(h, 2), input: picture.view) }
            #expect(bytes.count == w * h * 4)
            #expect(isPremultiplied(bytes))
        }
    }
}

@Suite struct ParameterValidationTests {
    @Test func unknownParameterIsRejectedWithTheKnownNames() {
        #expect {
            _ = try ShaderLibrary.make("bars", ["colour": .text("#fff")])
        } throws: { error in
            guard let e = error as? ParameterError else { return false }
            return e.parameter == "colour" && e.message.contains("count")
        }
    }

    @Test func outOfRangeNumbersAreRejected() {
        #expect(throws: ParameterError.self) { _ = try ShaderLibrary.make("bars", ["count": .number(4)]) }
        #expect(throws: ParameterError.self) { _ = try ShaderLibrary.make("bars", ["count": .number(12.5)]) }
        #expect(throws: ParameterError.self) { _ = try ShaderLibrary.make("waveform", ["thickness": .number(-1)]) }
        #expect(throws: ParameterError.self) { _ = try ShaderLibrary.make("gradient", ["angle": .number(.nan)]) }
    }

    @Test func wrongKindsAreRejected() {
        #expect(throws: ParameterError.self) { _ = try ShaderLibrary.make("solid", ["color": .text("not a colour")]) }
        #expect(throws: ParameterError.self) { _ = try ShaderLibrary.make("waveform", ["style": .text("zigzag")]) }
        #expect(throws: ParameterError.self) { _ = try ShaderLibrary.make("bars", ["mirror": .number(1)]) }
    }

    @Test func unknownShaderIsRejected() {
        #expect(throws: ParameterError.self) { _ = try ShaderLibrary.make("nope") }
    }

    @Test func everyDeclaredRangeAcceptsItsDefault() throws {
        for type in ShaderLibrary.all {
            for p in type.descriptor.parameters {
                switch p.kind {
                case .number(let d, let r): #expect(r.contains(d), "\(type.descriptor.name).\(p.name)")
                case .integer(let d, let r): #expect(r.contains(d), "\(type.descriptor.name).\(p.name)")
                case .choice(let d, let options): #expect(options.contains(d), "\(type.descriptor.name).\(p.name)")
                default: break
                }
            }
        }
    }
}

@Suite struct TranslucentSourceTests {
    /// The test picture with translucent and transparent bands, still valid premultiplied.
    static func translucentPicture() -> Texture {
        let t = testPicture(seed: 11)
        for y in 0..<testHeight where y % 3 != 0 {
            let row = t.view.row(y)
            let alpha = y % 3 == 1 ? 0 : (y * 37) % 256
            for x in 0..<testWidth {
                for c in 0..<4 { row[x * 4 + c] = UInt8(Int(row[x * 4 + c]) * alpha / 255) }
            }
        }
        return t
    }

    static let filters = ShaderLibrary.all.filter { $0.descriptor.kind == .filter }.map { $0.descriptor.name }

    @Test(arguments: filters) func filtersKeepPremultipliedValidity(_ name: String) throws {
        let rig = try Rig(name, source: Self.translucentPicture())
        for loudness: Float in [0, 1] {
            let bytes = rig.render(frame: 5, loudness: loudness, strips: 3)
            #expect(isPremultiplied(bytes), "loudness \(loudness)")
        }
    }
}
