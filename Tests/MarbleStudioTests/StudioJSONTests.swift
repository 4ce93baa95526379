import Testing
@testable import MarbleStudio

@Suite struct StudioJSONTests {
    @Test func readsObjectsAndRefusesTheRest() throws {
        let o = try StudioJSON.object(Array(#"{"a": 1, "b": "x", "c": true, "d": 1.5}"#.utf8))
        #expect(try StudioJSON.integer(o, "a", default: 0) == 1)
        #expect(try StudioJSON.integer(o, "missing", default: 7) == 7)
        #expect(throws: StudioFailure.self) { try StudioJSON.integer(o, "b", default: 0) }
        #expect(throws: StudioFailure.self) { try StudioJSON.integer(o, "c", default: 0) }   // true is not 1
        #expect(throws: StudioFailure.self) { try StudioJSON.integer(o, "d", default: 0) }
        #expect(try StudioJSON.number(o, "d", default: 0) == 1.5)
        for bad in ["[1]", "nope", "", "{\"a\":"] {
            #expect(throws: StudioFailure.self, "\(bad)") { try StudioJSON.object(Array(bad.utf8)) }
        }
    }

    @Test func deepNestingIsRefusedBeforeParsing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: StudioFailure(.badRequest, "the JSON is nested more than 32 deep")) {
            try StudioJSON.object(Array("{\"a\":\(deep)}".utf8))
        }
        // Brackets inside strings do not count.
        #expect(throws: Never.self) { try StudioJSON.object(Array("{\"a\":\"\(String(repeating: "[", count: 100))\"}".utf8)) }
    }

    @Test func bodiesOverAMegabyteAreRefused() {
        let big = "{\"a\":\"" + String(repeating: "x", count: StudioLimits.maxBody) + "\"}"
        #expect(throws: StudioFailure.self) { try StudioJSON.object(Array(big.utf8)) }
    }

    @Test func sizes() {
        #expect(StudioJSON.size("640x360")! == (640, 360))
        for bad in ["641x360", "8x8", "640", "640x", "x360", "99999x2", "640x360x2", "６４０x360"] {
            #expect(StudioJSON.size(bad) == nil, "\(bad)")
        }
    }
}
