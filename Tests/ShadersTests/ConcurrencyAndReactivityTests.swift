import Dispatch
import MarbleCore
import Testing
@testable import Shaders

/// The pipeline renders strips on several threads at once: results must not depend on it.
@Suite struct ConcurrentStripTests {
    /// Keeps the textures alive while their views are shared with the worker threads.
    struct Frame: @unchecked Sendable {
        // @unchecked Sendable: each worker writes a disjoint strip of `target` (the Shader contract).
        let target: Texture, source: Texture, input: Texture
    }

    @Test(arguments: LibraryTests.names) func concurrentStripsMatchOneStrip(_ name: String) throws {
        let rig = try Rig(name)
        let picture = testPicture(seed: 5)
        let expected = rig.render(frame: 6, input: picture.view)
        let frame = Frame(target: Texture(width: testWidth, height: testHeight), source: rig.source, input: picture)
        let u = uniforms(frame: 6, features: syntheticFeatures(frame: 6), input: picture.view)
        let shader = rig.shader
        for _ in 0..<3 {
            shader.prepare(u, parameters: rig.parameters)
            // A generator that blends onto the picture under it starts from a transparent one, as in `Rig`.
            if type(of: shader).descriptor.drawsOnCanvas { frame.target.fill(RGBA8(r: 0, g: 0, b: 0, a: 0)) }
            let strips = 6
            DispatchQueue.concurrentPerform(iterations: strips) { s in
                let lo = testHeight * s / strips, hi = testHeight * (s + 1) / strips
                shader.render(frame.target.view, source: frame.source.view, rows: lo..<hi, uniforms: u)
            }
            let bytes = frame.target.packedBytes()
            let same = bytes == expected
            #expect(same, "\(describeDifference(expected, bytes, width: testWidth))")
        }
        withExtendedLifetime(frame) {}
    }
}

/// Audio must visibly drive every kernel that claims to react to it.
@Suite struct ReactivityTests {
    /// Kernels without audio input by design (text reacts only through bindings).
    static let silentByDesign: Set<String> = ["solid", "gradient", "media", "text"]

    @Test(arguments: LibraryTests.names.filter { !silentByDesign.contains($0) })
    func loudAudioChangesThePicture(_ name: String) throws {
        // Big enough that size-dependent effects (blocks, blur radii) span several pixels; stars need
        // somewhere transparent to show.
        let (w, h) = (192, 108)
        let picture = testPicture(width: w, height: h, seed: 2)
        let source = testPicture(width: w, height: h, seed: 2)
        if name == "stars" { source.fill(RGBA8(r: 0, g: 0, b: 0, a: 0)) }
        let rig = try Rig(name, width: w, height: h, source: source)
        let quiet = rig.render(frame: 8, loudness: 0, input: picture.view)
        let loud = rig.render(frame: 8, loudness: 1.5, input: picture.view)
        let changed = quiet != loud
        #expect(changed, "\(name) ignores the audio")
    }

    @Test func beatsAreVisible() throws {
        // Kernels whose documentation promises a beat response: same frame, beat pulse 0 vs 1.
        for name in ["ink", "disco", "light_rays", "polka", "drive", "magma", "voronoise", "temple", "bankai", "bedazzled"] {
            let rig = try Rig(name)
            var f = syntheticFeatures(frame: 3)
            let picture = testPicture()  // kept alive while the kernels read it through its view
            f.beatPulse = 0
            let calm = withExtendedLifetime(picture) { rig.render(uniforms(frame: 3, features: f, input: picture.view)) }
            f.beatPulse = 1
            let beat = withExtendedLifetime(picture) { rig.render(uniforms(frame: 3, features: f, input: picture.view)) }
            let changed = calm != beat
            #expect(changed, "\(name) shows no beat")
        }
    }

    @Test func backgroundsMoveWithMediaTime() throws {
        for name in ["magma", "marble", "waves", "warp", "aura", "latte", "glitch", "vinyl"] {
            let rig = try Rig(name)
            let a = rig.render(frame: 0, loudness: 0), b = rig.render(frame: 45, loudness: 0)
            let moved = a != b
            #expect(moved, "\(name) is frozen")
        }
    }
}
