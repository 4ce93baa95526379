import Foundation
import MilkDrop
import Testing

@Suite("Expression semantics")
struct ExpressionSemanticsTests {
    static let precedenceCases: [(String, Double)] = [
        ("1 + 2 * 3", 7.0), ("(1 + 2) * 3", 9), ("10 - 4 - 3", 3), ("8 / 4 / 2", 1), ("2 ^ 3", 8),
        ("2 ^ 3 ^ 2", 64), ("-2 ^ 2", 4), ("2 * 3 ^ 2", 18), ("7 % 4 * 2", 6), ("2 * 7 % 4", 6),
        ("1 + 2 < 4", 1), ("1 < 2 == 1", 1), ("3 & 1 | 4", 5), ("1 | 2 && 0", 0), ("0 || 2 && 3", 1),
        ("!0 + 1", 2), ("!2 * 5", 0), ("- - 3", 3), ("+4", 4), (".5 + 1e3", 1000.5), ("2.5E-1", 0.25),
        ("$pi", Double.pi), ("$PHI", 1.618033988749895), ("$x1F", 31), ("$'a'", 97), ("1 ? 2 : 3", 2),
        ("0 ? 2 : 3", 3), ("0 ? 5", 0), ("1 == 1.000001", 1), ("1 != 1.1", 1), ("2 >= 2", 1), ("2 <= 1", 0),
        ("(1; 2; 3)", 3), ("(; 4 ;)", 4), ("5 // six\n", 5), ("/* a\nb */ 6", 6), ("()", 0),
    ]

    @Test("operators bind as in ns-eel2", arguments: precedenceCases)
    func precedence(_ source: String, _ expected: Double) throws {
        #expect(try evaluate(source) == expected, "\(source)")
    }

    @Test("variables: names are case-insensitive, unknown ones start at 0, assignments chain and give their value")
    func variables() throws {
        let memory = ExpressionMemory(globalBuffer: MegaBuffer())
        let program = try ExpressionProgram(compiling: "Zoom = zoom + 1; a = b = 3; c = unknown; d = (e = 4) + 1", memory: memory)
        program.run()
        program.run()
        #expect(memory["ZOOM"] == 2)
        #expect(memory["a"] == 3 && memory["b"] == 3 && memory["c"] == 0 && memory["d"] == 5)
        #expect(memory.existingSlot("UNKNOWN") != nil)
        #expect(memory.existingSlot("nothere") == nil)
        let slot = try memory.slot("zoom")
        memory[slot] = 10
        program.run()
        #expect(memory[slot] == 11)
        program.run(times: 3)
        #expect(memory[slot] == 14)
        #expect(memory.variableNames[slot] == "zoom")
    }

    @Test("compound assignments update variables, megabuf entries and if() targets")
    func compound() throws {
        let memory = ExpressionMemory(globalBuffer: MegaBuffer())
        let program = try ExpressionProgram(compiling: """
            a = 10; a += 5; a -= 1; a *= 2; a /= 4; b = 17; b %= 5; c = 2; c ^= 10; d = 6; d &= 3; e = 4; e |= 1;
            megabuf(3) = 2; megabuf(3) += 5; gmem[2] = 1; gmem[2] *= 9; f = 0; f /= 0;
            if(a > 100, g, h) = 7; (0 ? g : h) += 1; 1[2] = 42; k = megabuf(3.00001)
            """, memory: memory)
        program.run()
        #expect(memory["a"] == 7 && memory["b"] == 2 && memory["c"] == 1024 && memory["d"] == 2 && memory["e"] == 5)
        #expect(memory.buffer[3] == 42 && memory["k"] == 42)
        #expect(memory.globalBuffer[2] == 9)
        #expect(memory["f"] == 0 && memory["g"] == 0 && memory["h"] == 8)
    }

    static let builtInCases: [(String, Double)] = [
        ("sin(1)", sin(1.0)), ("cos(1)", cos(1.0)), ("tan(1)", tan(1.0)), ("asin(0.5)", asin(0.5)),
        ("acos(0.5)", acos(0.5)), ("atan(2)", atan(2.0)), ("atan2(1, -1)", atan2(1.0, -1.0)), ("sqr(-3)", 9),
        ("sqrt(16)", 4), ("pow(2, 10)", 1024), ("exp(1)", M_E), ("log(M)", 0), ("log(100)", log(100.0)),
        ("log10(1000)", 3), ("abs(-2.5)", 2.5), ("min(3, -1)", -1), ("max(3, -1)", 3), ("sign(-7)", -1),
        ("sign(0)", 0), ("sign(2)", 1), ("int(-2.7)", -2), ("int(2.7)", 2), ("floor(-2.5)", -3), ("ceil(-2.5)", -2),
        ("above(2, 1)", 1), ("above(1, 1)", 0), ("below(1, 2)", 1), ("equal(1, 1.000001)", 1), ("equal(1, 2)", 0),
        ("if(1, 2, 3)", 2), ("if(0, 2, 3)", 3), ("band(2, 3)", 1), ("band(2, 0)", 0), ("bor(0, 0)", 0),
        ("bor(0, -1)", 1), ("bnot(0)", 1), ("bnot(5)", 0), ("exec2(1, 2)", 2), ("exec3(1, 2, 3)", 3),
        ("sigmoid(0, 1)", 0.5), ("sigmoid(2, 3)", 1 / (1 + exp(-6.0))), ("invsqrt(4)", 0.5),
        ("megabuf(5)", 0), ("gmegabuf(5)", 0), ("assign(x, 3) + x", 6), ("freembuf(7)", 7),
        ("loop(4, x += 2)", 8), ("while(x += 1; x < 5)", 0),
    ]

    @Test("each built-in gives ns-eel2's value", arguments: builtInCases)
    func builtIn(_ source: String, _ expected: Double) throws {
        #expect(abs(try evaluate(source) - expected) < 1e-12, "\(source)")
    }

    @Test("if, band, bor, &&, || and ?: only run the branch they need")
    func laziness() throws {
        let memory = ExpressionMemory(globalBuffer: MegaBuffer())
        let program = try ExpressionProgram(compiling: """
            if(1, a = 1, b = 1); if(0, c = 1, d = 1); band(0, e = 1); bor(1, f = 1); 0 && (g = 1); 1 || (h = 1);
            band(1, i = 1); bor(0, j = 1); 0 ? k = 1 : l = 1; 1 ? m = 1 : n = 1
            """, memory: memory)
        program.run()
        let ran = ["a", "d", "i", "j", "l", "m"], skipped = ["b", "c", "e", "f", "g", "h", "k", "n"]
        #expect(ran.allSatisfy { memory[$0] == 1 })
        #expect(skipped.allSatisfy { memory[$0] == 0 })
    }

    @Test("loop and while stop at MilkDropLimits.loopIterations; loop counts are truncated; while(1) returns")
    func loopsAreCapped() throws {
        let memory = ExpressionMemory(globalBuffer: MegaBuffer())
        try ExpressionProgram(compiling: "n = 0; while(n += 1; 1)", memory: memory).run()
        #expect(memory["n"] == Double(MilkDropLimits.loopIterations))
        try ExpressionProgram(compiling: "m = 0; loop(1e12, m += 1)", memory: memory).run()
        #expect(memory["m"] == Double(MilkDropLimits.loopIterations))
        try ExpressionProgram(compiling: "p = 0; loop(3.9, p += 1); loop(-2, p += 100); loop(0/0, p += 100)", memory: memory).run()
        #expect(memory["p"] == 3)
        try ExpressionProgram(compiling: "q = 0; loop(3, loop(4, q += 1; while(0)))", memory: memory).run()
        #expect(memory["q"] == 12)
    }

    @Test("division by zero, % 0, sqrt and log of negatives, pow's NaN and huge integers are contained")
    func containment() throws {
        #expect(try evaluate("1 / 0") == 0)
        #expect(try evaluate("x = 0; 5 / x") == 0)
        #expect(try evaluate("7 % 0") == 0)
        #expect(try evaluate("-7 % 3") == -1)
        #expect(try evaluate("7.9 % 3.2") == 1)
        #expect(try evaluate("sqrt(-9)") == 3)
        #expect(try evaluate("log(-1) + log10(0)") == 0)
        #expect(try evaluate("(-8) ^ 0.5") == 0)
        #expect(try evaluate("0 ^ -1") == 0)
        #expect(try evaluate("invsqrt(0)") == 0)
        #expect(try evaluate("(1e300 * 1e300) % 7") == Double(Int64.max % 7))
        #expect(try evaluate("(0 - 1e300 * 1e300) % -1") == 0)
        #expect(try evaluate("(1e300 * 1e300 - 1e300 * 1e300) | 1") == 1)
        #expect(try evaluate("int(1e300 * 1e300 * 0) + if(asin(2), 1, 2)") == 2)
        #expect(try evaluate("megabuf(-1) = 5") == 5)
        #expect(try evaluate("megabuf(-1) + megabuf(1e20) + gmegabuf(0/0)") == 0)
    }

    @Test("line breaks join the lines as MilkDrop does; // and \\\\ comments end at the line break")
    func lineJoins() throws {
        let memory = ExpressionMemory(globalBuffer: MegaBuffer())
        try ExpressionProgram(compiling: "a = .\r\n5; bc = 2; b = 1; // note\nd = b\nc \\\\ old comment\n; e = 3 /* x\n */ + 1", memory: memory).run()
        #expect(memory["a"] == 0.5 && memory["d"] == 2 && memory["e"] == 4)
        #expect(memory.existingSlot("note") == nil && memory.existingSlot("old") == nil)
    }

    @Test("constants are folded and variable or constant operands fused, so a block is a few instructions")
    func compactCode() throws {
        let memory = ExpressionMemory(globalBuffer: MegaBuffer())
        let program = try ExpressionProgram(compiling: "a = 2 * $pi * x + y; b = a / 4 - sin(0)", memory: memory)
        // pushConst 2π, multiplyVar x, addVar y, storeVarPop a; pushVar a, divideConst 4, subtractConst 0, storeVarPop b
        #expect(program.instructionCount == 8)
        memory[try memory.slot("x")] = 1
        memory[try memory.slot("y")] = 3
        program.run()
        #expect(memory["a"] == 2 * Double.pi + 3 && memory["b"] == (2 * Double.pi + 3) / 4)
    }

    @Test("an empty block is empty and running it changes nothing")
    func empty() throws {
        let memory = ExpressionMemory(globalBuffer: MegaBuffer())
        let program = try ExpressionProgram(compiling: " ; // nothing\n /* at all */ ;", memory: memory)
        #expect(program.isEmpty)
        program.run()
        #expect(try !ExpressionProgram(compiling: "x = 1", memory: memory).isEmpty)
    }
}
