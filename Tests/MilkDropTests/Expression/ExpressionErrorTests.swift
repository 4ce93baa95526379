import Foundation
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
        #expect(compileError("x = 1" + String(repeating: " + 1", count: 60)) == nil)
    }

    @Test("the deepest nesting and chaining allowed compiles on a 512 KiB stack (debug); a bit more is an error")
    func deepButLegalOnSmallStack() async {
        let outcome: (Bool, Bool) = await withCheckedContinuation { done in
            let thread = Thread {
                done.resume(returning: (
                    compileError(Self.nested(20, chained: 12)) == nil,
                    compileError(Self.nested(22))?.message == "expression nested too deeply"
                        && compileError(Self.nested(1, chained: 300))?.message == "expression nested too deeply"))
            }
            thread.stackSize = 512 << 10
            thread.start()
        }
        #expect(outcome == (true, true))
    }

    /// `x = sin(-(1 + 1 + sin(-(1 + 1 + …1))))`: three levels of nesting per pair, each with a chain.
    static func nested(_ pairs: Int, chained terms: Int = 0) -> String {
        let inner = "sin(-(" + String(repeating: "1 + ", count: terms)
        return "x = " + String(repeating: inner, count: pairs) + "1" + String(repeating: "))", count: pairs)
    }

    @Test("the description names the message and the offset")
    func description() {
        #expect(compileError("a = b(")?.description == "unknown function \"b\" (at offset 4)")
    }
}
