import MilkDrop
import Testing

@Suite("Expression errors")
struct ExpressionErrorTests {
    static let cases: [(String, Int, String)] = [
        ("x = sinn(1)", 4, "unknown function \"sinn\""),
        ("x = (1 + 2", 10, "expected \")\""),
        ("x = sin(1, 2)", 4, "sin takes 1 argument, not 2"),
        ("x = if(1, 2)", 4, "if takes 3 arguments, not 2"),
        ("x = 1 +", 7, "expected an expression"),
        ("x = 1 2", 6, "expected \";\""),
        ("x = 3 # 4", 6, "unexpected character \"#\""),
        ("// é\nx = @", 10, "unexpected character \"@\""),
        ("x = $foo", 4, "unknown constant \"$foo\""),
        ("x = 1)", 5, "unexpected \")\""),
        ("gmem[1 = 2", 10, "expected \"]\""),
    ]

    @Test("compile errors say what and where (UTF-8 offset)", arguments: cases)
    func errors(_ source: String, _ offset: Int, _ message: String) {
        let error = compileError(source)
        #expect(error?.offset == offset, "\(source): \(String(describing: error))")
        #expect(error?.message.hasPrefix(message) == true, "\(source): \(String(describing: error))")
    }

    @Test("hostile nesting is an error, not a stack overflow")
    func deepNesting() {
        #expect(compileError(String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000))?.message == "expression nested too deeply")
        #expect(compileError("x = " + String(repeating: "-", count: 100_000) + "1")?.message == "expression nested too deeply")
        #expect(compileError("x = 1" + String(repeating: " + 1", count: 100_000))?.message == "expression nested too deeply")
        #expect(compileError("x = 1" + String(repeating: " + 1", count: 200)) == nil)
    }

    @Test("the description names the message and the offset")
    func description() {
        #expect(compileError("a = b(")?.description == "unknown function \"b\" (at offset 4)")
    }
}
