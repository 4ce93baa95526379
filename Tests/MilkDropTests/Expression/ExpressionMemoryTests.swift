import MilkDrop
import Testing

@Suite("Expression memory")
struct ExpressionMemoryTests {
    @Test("megabuf is per memory; gmegabuf and reg00…reg99 are shared by memories given the same MegaBuffer")
    func buffers() throws {
        let global = MegaBuffer()
        let one = ExpressionMemory(globalBuffer: global), two = ExpressionMemory(globalBuffer: global)
        try ExpressionProgram(compiling: "megabuf(10) = 1; gmegabuf(70000) = 2; gmem[5] = 3; reg07 = 4; reg7 = 5", memory: one).run()
        try ExpressionProgram(compiling: "a = megabuf(10); b = gmegabuf(70000); c = gmegabuf(5); d = REG07; e = reg7", memory: two).run()
        #expect(two["a"] == 0 && two["b"] == 2 && two["c"] == 3 && two["d"] == 4 && two["e"] == 0)
        #expect(one.buffer[10] == 1 && two.buffer[10] == 0)
        #expect(global.allocatedBlocks == 2)
        let other = ExpressionMemory(globalBuffer: MegaBuffer())
        try ExpressionProgram(compiling: "b = gmegabuf(70000); d = reg07", memory: other).run()
        #expect(other["b"] == 0 && other["d"] == 0)
    }

    @Test("megabuf blocks are allocated on first write only; the last entry is addressable, the next is not")
    func lazyBlocks() throws {
        let memory = ExpressionMemory(globalBuffer: MegaBuffer())
        let last = Double(MilkDropLimits.megabufEntries - 1)
        try ExpressionProgram(compiling: "a = megabuf(123456); megabuf(\(last)) = 9; megabuf(\(last + 1)) = 8; b = megabuf(\(last))", memory: memory).run()
        #expect(memory.buffer.allocatedBlocks == 1)
        #expect(memory["a"] == 0 && memory["b"] == 9)
        #expect(memory.buffer[last + 1] == 0)
    }

    @Test("memset and memcpy fill and move ranges, overlapping or trimmed at the buffer's ends")
    func memsetAndMemcpy() throws {
        let memory = ExpressionMemory(globalBuffer: MegaBuffer())
        try ExpressionProgram(compiling: """
            memset(100, 7, 5); loop(5, megabuf(200 + i) = i; i += 1); memcpy(202, 200, 5); memset(-3, 1, 4);
            memset(8388600, 1, 1e9); memcpy(-2, 8388606, 10)
            """, memory: memory).run()
        #expect((100..<105).allSatisfy { memory.buffer[Double($0)] == 7 } && memory.buffer[105] == 0)
        #expect((0..<7).map { memory.buffer[Double(200 + $0)] } == [0, 1, 0, 1, 2, 3, 4])
        #expect(memory.buffer[8388607] == 1 && memory.buffer[8388599] == 0)
        #expect(memory.buffer[0] == 1 && memory.buffer[1] == 0)
        #expect(memory.buffer.allocatedBlocks == 2)
    }

    @Test("rand(n) is in [0, max(1, floor n)), the same sequence for the same seed, another for another seed")
    func randIsDeterministic() throws {
        func draws(_ seed: UInt64) throws -> [Double] {
            let memory = ExpressionMemory(seed: seed, globalBuffer: MegaBuffer())
            let program = try ExpressionProgram(compiling: "r = rand(10); s = rand(0.5)", memory: memory)
            return (0..<200).flatMap { _ in
                program.run()
                return [memory["r"], memory["s"] + 100]
            }
        }
        let a = try draws(1), b = try draws(1), c = try draws(2)
        #expect(a == b && a != c)
        let tens = stride(from: 0, to: a.count, by: 2).map { a[$0] }, units = stride(from: 1, to: a.count, by: 2).map { a[$0] - 100 }
        #expect(tens.allSatisfy { $0 >= 0 && $0 < 10 } && tens.contains { $0 > 5 } && tens.contains { $0 != $0.rounded() })
        #expect(units.allSatisfy { $0 >= 0 && $0 < 1 })
        let memory = ExpressionMemory(seed: 7, globalBuffer: MegaBuffer())
        let program = try ExpressionProgram(compiling: "r = rand(1000)", memory: memory)
        program.run()
        let first = memory["r"]
        program.run()
        memory.reseed(7)
        program.run()
        #expect(memory["r"] == first)
    }

    @Test("interning past the capacity is the error \"too many variables\"")
    func tooManyVariables() throws {
        let memory = ExpressionMemory(globalBuffer: MegaBuffer())
        for i in 0..<ExpressionMemory.capacity { _ = try memory.slot("v\(i)") }
        #expect(try memory.slot("V0") == 0)
        #expect(throws: ExpressionError.self) { _ = try memory.slot("one_more") }
        do {
            _ = try ExpressionProgram(compiling: "v1 = 2; extra = 1", memory: memory)
            Issue.record("compiled past the capacity")
        } catch {
            #expect(error.message.contains("too many variables") && error.offset == 8)
        }
    }
}
