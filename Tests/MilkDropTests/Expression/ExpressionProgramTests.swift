@testable import MilkDrop
import Testing

@Suite("The interpreter's work budget: static length per run, loop bodies per back edge, memset/memcpy by size")
struct ExpressionProgramTests {
    private func program(_ source: String) throws -> (ExpressionProgram, ExpressionMemory) {
        let memory = ExpressionMemory(globalBuffer: MegaBuffer())
        return (try ExpressionProgram(compiling: source, memory: memory), memory)
    }

    @Test("straight-line code costs its static length, whichever branch it takes")
    func straightLine() throws {
        // pushConst 1, storeVarPop a, pushConst 2, storeVarPop b, end: 5
        let (p, m) = try program("a = 1; b = 2;")
        #expect(p.instructionCount == 4)
        var budget = 100
        #expect(p.run(budget: &budget))
        #expect(budget == 95 && m["a"] == 1 && m["b"] == 2)
        // `if` charges both branches' instructions either way: an upper bound, the same every run.
        let (q, _) = try program("c = if(above(a, 0), 1, 2);")
        var b1 = 1000
        #expect(q.run(budget: &b1))
        #expect(b1 == 1000 - (q.instructionCount + 1))
    }

    @Test("a block longer than its budget does not start")
    func tooLongToStart() throws {
        let (p, m) = try program("a = 1; b = 2;")
        var budget = 4
        #expect(!p.run(budget: &budget))
        #expect(budget == 0 && m["a"] == 0)
    }

    @Test("each loop back edge charges the body's static length")
    func loopBackEdges() throws {
        // pushConst 10, loopStart, [pop, pushVar n, pushConst 1, add, storeVar n, loopNext], pop, end:
        // 10 up front, then 9 back edges of a 6-instruction body.
        let (p, m) = try program("loop(10, n += 1);")
        #expect(p.instructionCount + 1 == 10)
        var budget = 1000
        #expect(p.run(budget: &budget))
        #expect(m["n"] == 10 && budget == 1000 - 10 - 9 * 6)
    }

    @Test("loop(1e9) stops when the budget is spent, having run what it paid for, and the same every time")
    func hugeLoopStops() throws {
        let (p, m) = try program("loop(1000000000, n += 1);")
        var budget = 10_000
        #expect(!p.run(budget: &budget))
        // 9,990 left after the static 10: 1,665 back edges of 6 fit, so 1,666 runs of the body.
        #expect(budget == 0 && m["n"] == 1666)
        // Nothing is left over from the stopped run (stack, loop counters): the next one stops at the
        // same place.
        m[try m.slot("n")] = 0
        var again = 10_000
        _ = p.run(budget: &again)
        #expect(m["n"] == 1666)
    }

    @Test("nested loops and while(1) are bounded by the budget, not by 2^20 iterations each")
    func nestedAndWhile() throws {
        let (nested, m) = try program("loop(100000, loop(100000, k += 1));")
        var budget = 1_000_000
        #expect(!nested.run(budget: &budget))
        #expect(m["k"] < 1_000_000 / 6 + 2)
        let (spin, _) = try program("while(1);")
        var b2 = 50_000
        #expect(!spin.run(budget: &b2) && b2 == 0)
        // Unbudgeted, while(1) still ends at the loop cap.
        spin.run()
    }

    @Test("memset is charged an eighth of its entries, memcpy all of them, before they run")
    func bufferFunctions() throws {
        let (fill, m) = try program("memset(0, 1, 8388608);")
        var small = 500_000
        #expect(!fill.run(budget: &small))
        #expect(m.buffer[5] == 0)                  // refused before writing anything
        var ample = 2_000_000
        #expect(fill.run(budget: &ample))
        #expect(m.buffer[5] == 1 && ample == 2_000_000 - (fill.instructionCount + 1) - 8_388_608 / 8)
        let (copy, _) = try program("memcpy(100, 0, 1000);")
        var b = 10_000
        #expect(copy.run(budget: &b))
        #expect(b == 10_000 - (copy.instructionCount + 1) - 1000)
    }
}
