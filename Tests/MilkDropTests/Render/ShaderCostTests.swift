@testable import MilkDrop
import Testing

/// The cost estimate of a compiled shader and the automatic render scale it gives.
@Suite("Shader cost and the automatic render scale")
struct ShaderCostTests {
    @Test("a program's cost: its operations at their measured costs, loops at their bound")
    func cost() throws {
        // ret = tex2D(sampler_main, uv).xyz * sin(time): one read, one sine, three multiplies.
        let program = try ShaderCompiler.compile("shader_body { ret = tex2D(sampler_main, uv).xyz * sin(time); }", kind: .composite)
        let reads = program.code.count { if case .sample = $0 { true } else { false } }
        let sines = program.code.count { if case .unary(.sin, _, _) = $0 { true } else { false } }
        #expect(reads == 1 && sines == 1)
        let rest = Float(program.code.count - 2)
        let expected = ShaderCost.read2D + ShaderCost.transcendental + rest * ShaderCost.arithmetic
        #expect(abs(ShaderCost.perPixel(program) - expected) < 1e-4)
        // A masked loop counts its body at the loop's bound.
        let loop = try ShaderCompiler.compile("shader_body { float s = 0; for (int i = 0; i < 100000; i++) { s += uv.x; } ret = s; }",
                                              kind: .composite)
        #expect(ShaderCost.perPixel(loop) >= Float(ShaderProgram.maxLoopIterations) * ShaderCost.arithmetic)
        #expect(ShaderCost.blur(levels: 0) == 0 && ShaderCost.blur(levels: 3) == ShaderCost.blurLevel1 + 2 * ShaderCost.blurLevelMore)
    }

    @Test("the shaders' budget: the whole of it up to 720p, less for every output pixel past it, never under a third")
    func budget() {
        #expect(ShaderCost.budget(width: 320, height: 180) == ShaderCost.frameBudget)
        #expect(ShaderCost.budget(width: 1280, height: 720) == ShaderCost.frameBudget)
        // 1080p has 1,152,000 pixels more than 720p: 15 ms − 6 ns × 1,152,000 = 8.088 ms.
        #expect(ShaderCost.budget(width: 1920, height: 1080) == 8_088_000)
        #expect(ShaderCost.budget(width: 3840, height: 2160) == ShaderCost.frameBudget / 3)
        // The floor: 102,400 pixels of buffer (427x240), the whole frame below that.
        #expect(ShaderCost.smallestScale(width: 320, height: 180) == 1)
        #expect(abs(ShaderCost.smallestScale(width: 1280, height: 720) - 1 / 3) < 1e-6)
        #expect(abs(ShaderCost.smallestScale(width: 1920, height: 1080) - 2 / 9) < 1e-6)
    }

    @Test("the automatic scale: the whole buffer when affordable, the budget's share otherwise, never below the floor")
    func automaticScale() {
        #expect(ShaderCost.automaticScale(costPerPixel: 10, width: 1280, height: 720) == 1)
        let affordable = ShaderCost.frameBudget / 50
        let expected = (affordable / Float(1280 * 720)).squareRoot()
        #expect(abs(ShaderCost.automaticScale(costPerPixel: 50, width: 1280, height: 720) - expected) < 1e-6)
        // At 1080p a cost of 50 ns affords 8,088,000 / 50 = 161,760 of its 2,073,600 pixels.
        let at1080 = (Float(8_088_000) / 50 / Float(1920 * 1080)).squareRoot()
        #expect(abs(ShaderCost.automaticScale(costPerPixel: 50, width: 1920, height: 1080) - at1080) < 1e-6)
        #expect(ShaderCost.automaticScale(costPerPixel: 10_000, width: 1920, height: 1080) == ShaderCost.smallestScale(width: 1920, height: 1080))
        #expect(ShaderCost.automaticScale(costPerPixel: 0, width: 1920, height: 1080) == 1)
        // 1080p affords fewer of its pixels than 720p at the same cost.
        #expect(ShaderCost.automaticScale(costPerPixel: 30, width: 1920, height: 1080)
                < ShaderCost.automaticScale(costPerPixel: 30, width: 1280, height: 720))
    }
}
