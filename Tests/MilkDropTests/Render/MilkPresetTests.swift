import MarbleCore
@testable import MilkDrop
import Testing

@Suite("A compiled preset: per-frame and per-vertex equations with MilkDrop's variable pools")
struct MilkPresetTests {
    private func preset(_ text: String, path: String = "test.milk") throws -> MilkPreset {
        try MilkPreset(file: try MilkPresetParser.parse(Array(text.utf8), path: path))
    }

    @Test("per-frame variables restart from the file's values every frame; the preset's own variables persist")
    func framePool() throws {
        let p = try preset("""
            [preset00]
            zoom=1.5
            fDecay=0.9
            per_frame_1=zoom = zoom + 0.1; count = count + 1;
            per_frame_2=rot = count * 0.01; wave_r = bass;
            """)
        var inputs = MilkPreset.Inputs()
        inputs.bass = 0.25
        let first = p.runFrame(inputs)
        #expect(abs(first.zoom - 1.6) < 1e-6 && abs(first.decay - 0.9) < 1e-6)
        #expect(abs(first.rotation - 0.01) < 1e-6 && first.waveR == 0.25)
        let second = p.runFrame(inputs)
        #expect(abs(second.zoom - 1.6) < 1e-6)           // not 1.7: zoom restarted from the file's 1.5
        #expect(abs(second.rotation - 0.02) < 1e-6)      // count went on
    }

    @Test("q variables start each frame from what the init equations left, and reach the per-vertex pool")
    func qVariables() throws {
        let p = try preset("""
            per_frame_init_1=q1 = 5;
            per_frame_1=q1 = q1 + 1; q2 = time;
            per_pixel_1=zoom = 1 + q1 * 0.01 + x * 0;
            """)
        var inputs = MilkPreset.Inputs()
        inputs.time = 2
        _ = p.runFrame(inputs)
        #expect(p.q[0] == 6 && p.q[1] == 2)
        _ = p.runFrame(inputs)
        #expect(p.q[0] == 6)                              // 5 + 1 again, not 7
        let mesh = WarpMesh(columns: 4, rows: 4)
        mesh.configure(width: 40, height: 40)
        var values = FrameValues(); values.warp = 0
        p.warp(mesh, values, inputs)
        // zoom 1.06 everywhere: the corner (−1, −1) reads 1/1.06 of the way out.
        #expect(abs(mesh.u[0] - (0.5 - 0.5 / 1.06)) < 1e-5)
    }

    @Test("per-vertex equations see x, y (0…1, y down), rad and ang, and change single vertices")
    func perVertex() throws {
        let p = try preset("per_pixel_1=dx = above(x, 0.9) * 0.1; dy = below(y, 0.1) * 0.2;\n")
        let mesh = WarpMesh(columns: 2, rows: 2)
        mesh.configure(width: 20, height: 20)
        var values = FrameValues(); values.warp = 0
        _ = p.runFrame(MilkPreset.Inputs())
        p.warp(mesh, values, MilkPreset.Inputs())
        #expect(abs(mesh.u[2] - (1 - 0.1)) < 1e-5)       // top-right: x = 1 moved by dx
        #expect(abs(mesh.v[2] - (0 - 0.2)) < 1e-5)       // and y = 0 (the top) by dy
        #expect(abs(mesh.u[4] - 0.5) < 1e-5 && abs(mesh.v[4] - 0.5) < 1e-5)   // the centre stays
    }

    @Test("a broken equation is an error naming the file, the line and the block")
    func compileError() throws {
        #expect {
            _ = try preset("""
                [preset00]
                zoom=1
                per_frame_1=zoom = 1.01;
                per_frame_2=rot = sinn(time);
                """, path: "broken.milk")
        } throws: { error in
            let e = error as? MilkPresetError
            return e?.reason == .doesNotCompile && e?.line == 4 && e?.description.hasPrefix("broken.milk:4: per_frame") == true
        }
    }

    @Test("NaN and infinity from equations are contained: defaults are used and the frame is counted")
    func nonFinite() throws {
        let p = try preset("per_frame_1=zoom = 0/0 + sqrt(-1) * 1e308 * 1e308; decay = log(0);\n")
        let v = p.runFrame(MilkPreset.Inputs())
        #expect(v.zoom.isFinite && v.decay.isFinite)
        #expect(v.decay >= 0 && v.decay <= 1)
    }
}
