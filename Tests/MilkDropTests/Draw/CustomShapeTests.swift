import MarbleCore
@testable import MilkDrop
import Testing

@Suite("CustomShape")
struct CustomShapeTests {
    func shape(_ values: [String: Double], perFrame: String = "", initCode: String = "") throws(CustomCodeError) -> CustomShape {
        var all: [String: Double] = ["enabled": 1, "a": 1, "a2": 1, "r": 1, "g": 0, "b": 0, "r2": 1, "g2": 0, "b2": 0, "border_a": 0]
        for (k, v) in values { all[k] = v }
        let code = CustomShapeCode(values: all, initCode: CodeBlock(lines: [(fileLine: 3, text: initCode)]),
                                   perFrame: CodeBlock(lines: [(fileLine: 7, text: perFrame)]))
        return try CustomShape(code: code, globalBuffer: MegaBuffer())
    }

    func draw(_ s: CustomShape, frame: MilkFrameValues = MilkFrameValues(), texture: TextureView? = nil,
              fill: RGBA8 = RGBA8(r: 0, g: 0, b: 0)) -> Canvas {
        let canvas = Canvas(width: 192, height: 108, fill: fill)
        var list = MilkDrawList(width: 192, height: 108)
        s.build(frame, into: &list)
        canvas.draw(list, texture: texture)
        return canvas
    }

    @Test("a 4-sided shape at x = 0.25 is a pixel-square centred a quarter across (rad: half-diagonal, clip units)")
    func squareAtQuarter() throws {
        let c = draw(try shape(["sides": 4, "x": 0.25, "y": 0.5, "rad": 0.2]))
        // Half side 0.2·cos 45°·54 px = 7.64 px around (48, 54).
        #expect(c.litColumns(threshold: 200) == Array(41...54))
        #expect(c.litRows(threshold: 200) == Array(47...60))
        #expect(c.pixel(48, 54) == SIMD3(255, 0, 0) && c.pixel(144, 54) == SIMD3(0, 0, 0))
        let edge = c.pixel(40, 54).x
        #expect(abs(edge - 163) <= 6)   // antialiased outline: the square starts at 40.36, 64 % of pixel 40
        // y is up: y = 0.75 puts it in the upper half.
        let up = draw(try shape(["sides": 4, "x": 0.25, "y": 0.75, "rad": 0.2]))
        #expect(up.litRows(threshold: 200).max()! < 54)
    }

    @Test("the per-frame code runs once per instance with `instance` set and moves each copy")
    func instances() throws {
        let s = try shape(["sides": 6, "num_inst": 4, "rad": 0.05], perFrame: "x = 0.2 + instance*0.2; y = 0.5;")
        let c = draw(s)
        for x in [0.2, 0.4, 0.6, 0.8] { #expect(c.pixel(Int(x * 192), 54).x == 255, "instance at \(x)") }
        #expect(c.pixel(Int(0.3 * 192), 54).x == 0 && c.pixel(Int(0.9 * 192), 54).x == 0)
        // Variables persist across instances: an accumulator places copies side by side.
        let acc = try shape(["sides": 4, "num_inst": 3, "rad": 0.03], perFrame: "n = n + 1; x = n * 0.25; y = 0.5;")
        let a = draw(acc)
        #expect(a.pixel(48, 54).x == 255 && a.pixel(96, 54).x == 255 && a.pixel(144, 54).x == 255)
    }

    @Test("init code runs once; t1…t8 start each frame as it left them; q values come from the frame")
    func initAndQ() throws {
        let s = try shape(["sides": 4, "rad": 0.05], perFrame: "x = t1; t1 = 0.9; y = q1;", initCode: "t1 = 0.25;")
        var frame = MilkFrameValues(); frame.q[0] = 0.5
        _ = draw(s, frame: frame)
        let second = draw(s, frame: frame)
        #expect(second.pixel(48, 54).x == 255 && second.pixel(172, 54).x == 0)
        frame.q[0] = 0.25
        #expect(draw(s, frame: frame).pixel(48, 81).x == 255)
    }

    @Test("centre colour fades to the edge colour; colours wrap like MilkDrop's bytes; additive adds")
    func colours() throws {
        let s = try shape(["sides": 40, "rad": 0.5, "r": 0, "g": 0, "b": 1, "r2": 0, "g2": 1, "b2": 0])
        let c = draw(s)
        #expect(c.pixel(96, 54).z > 240 && c.pixel(96, 54).y < 15, "\(c.pixel(96, 54)) \(c.pixel(90, 54)) \(c.pixel(100, 50))")
        #expect(c.pixel(96, 28).y > 200)   // near the top edge (radius 27 px)
        let wrapped = try shape(["sides": 4, "rad": 0.3, "r": 2, "r2": 2, "g": 0, "g2": 0])
        #expect(draw(wrapped).pixel(96, 54).x == 254)
        let add = try shape(["sides": 4, "rad": 0.3, "additive": 1, "a": 0.5, "a2": 0.5])
        let over = draw(add, fill: RGBA8(r: 100, g: 100, b: 100))
        #expect(abs(over.pixel(96, 54).x - 228) <= 1 && over.pixel(96, 54).y == 100)
    }

    @Test("a textured shape with rad = 1/tex_zoom shows the texture unchanged; tex_zoom 2 magnifies it")
    func textured() throws {
        let source = Texture(width: 192, height: 108)
        for y in 0..<108 { for x in 0..<192 { let p = source.view.row(y) + x * 4; p[0] = UInt8(x); p[1] = UInt8(y * 2); p[2] = 50 } }
        let plain = try shape(["sides": 4, "rad": 1, "textured": 1, "r": 1, "g": 1, "b": 1, "r2": 1, "g2": 1, "b2": 1])
        let c = draw(plain, texture: source.view)
        for (x, y) in [(96, 54), (70, 40), (120, 70)] {
            let p = c.pixel(x, y)
            #expect(abs(p.x - x) <= 1 && abs(p.y - 2 * y) <= 2 && p.z == 50, "\(x),\(y): \(p)")
        }
        let zoomed = try shape(["sides": 4, "rad": 1, "textured": 1, "tex_zoom": 2, "r": 1, "g": 1, "b": 1, "r2": 1, "g2": 1, "b2": 1])
        let z = draw(zoomed, texture: source.view)
        // At 2× the pixel 20 px right of centre shows the texture 10 px right of centre.
        #expect(abs(z.pixel(116, 54).x - 106) <= 1)
    }

    @Test("a border outlines the polygon; a code error names the block and the .milk line")
    func borderAndErrors() throws {
        let s = try shape(["sides": 4, "rad": 0.3, "a": 0, "a2": 0, "border_a": 1, "border_r": 1, "border_g": 1, "border_b": 1])
        let c = draw(s)
        #expect(c.pixel(96, 54) == SIMD3(0, 0, 0) && c.redSum > 0)
        #expect(throws: CustomCodeError.self) { try shape([:], perFrame: "x = sinn(1);") }
        do throws(CustomCodeError) { _ = try shape([:], perFrame: "x = sinn(1);"); Issue.record("no error") } catch {
            #expect(error.line == 7 && error.block == "shape 0 per_frame")
        }
    }
}
