import MarbleCore
@testable import MarbleRender
import Testing

@Suite("PresetTextShape: a preset's text is bounded before the YAML parser sees it")
struct PresetTextShapeTests {
    static let plain = """
        name: ok
        description: "Bass & treble, *loud*" # a comment with *stars and &ampersands
        layers:
          - shader: bars
            parameters: { count: 16 }
            bind:
              height: { feature: level, amount: 0.9 }
        """

    @Test("a real preset passes: quotes and comments may hold & and *, four levels of nesting")
    func realPresetPasses() throws {
        try PresetTextShape.check(Self.plain, source: "ok.yaml")
        _ = try Preset.parse(Self.plain, source: "ok.yaml")
    }

    @Test("10,000 nested brackets, 10,000 '- ' on one line, or 100 levels of indentation: one line with the line number",
          arguments: [(String(repeating: "[", count: 10_000), 1),
                      ("layers:\n" + String(repeating: "- ", count: 10_000) + "x\n", 2),
                      ("a:\n" + (1...100).map { String(repeating: " ", count: 2 * $0) + "k\($0):\n" }.joined(), 34)])
    func deepNesting(text: String, line: Int) {
        #expect(throws: MarbleError(.preset, "deep.yaml: line \(line): nested deeper than 32 levels")) {
            try Preset.parse(text, source: "deep.yaml")
        }
    }

    @Test("anchors and aliases are refused (a few lines of them expand into billions of nodes)")
    func aliases() {
        let laughs = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
        #expect(throws: MarbleError(.preset, "laughs.yaml: line 1: YAML anchors and aliases (&name, *name) are not allowed in a preset")) {
            try Preset.parse(laughs, source: "laughs.yaml")
        }
    }

    @Test("text over 256 KB is refused before parsing, naming its size")
    func tooLarge() {
        let text = "name: big\ndescription: " + String(repeating: "x", count: 300_000) + "\nlayers: []\n"
        #expect(throws: MarbleError(.preset, "big.yaml: \(text.utf8.count) bytes, larger than the 256 KB a preset may be")) {
            try Preset.parse(text, source: "big.yaml")
        }
    }
}
