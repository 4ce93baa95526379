import MarbleCore
import Testing
@testable import Shaders

/// A golden image for every shader in the library (the list is read from `ShaderLibrary`, so a new
/// shader without one fails): its look at 64x36 on frame 30 of the synthetic song, filters over the
/// test picture, within 2 levels per channel. What keeps a speed-up honest: the eight-lane and AVX2
/// kernels were checked against these images written by the scalar kernels before them.
/// The images are GoldenImages/<name>.pam (see `GoldenStore`); regenerate them with
/// `Scripts/update-goldens.sh ShadersTests`, which lists what changed.
@Suite struct EveryShaderGoldenTests {
    @Test("every shader matches its golden image (64x36, frame 30, ±2 per channel)", arguments: LibraryTests.names)
    func golden(_ name: String) throws {
        let rig = try Rig(name)
        let bytes = rig.render(frame: 30, input: rig.source.view)
        Golden.check("every-\(name)", bytes, width: testWidth, height: testHeight)
    }
}
