import Testing
@testable import MarbleStudio

@Suite struct StudioAccessTests {
    private let token = "abcdefghijklmnopqrstuvwxyz012345"

    private func access(listen: String) throws -> StudioAccess {
        var c = StudioConfiguration(folders: ["/music"], token: token)
        try c.listen(listen)
        return StudioAccess(configuration: c)
    }

    @Test func onLoopbackOnlyLoopbackHostsAreAnswered() throws {
        let a = try access(listen: "127.0.0.1:8140")
        for host in ["127.0.0.1:8140", "localhost:8140", "[::1]:8140", "localhost"] {
            #expect(a.refusal(method: "GET", host: host, token: nil, origin: nil, upgrade: false) == nil, "\(host)")
        }
        // DNS rebinding: a name of the attacker's that points at 127.0.0.1.
        for host in ["evil.example:8140", "127.0.0.1.evil.example", ""] {
            #expect(a.refusal(method: "GET", host: host, token: nil, origin: nil, upgrade: false)?.status == 403, "\(host)")
        }
    }

    @Test func elsewhereEveryRequestNeedsTheToken() throws {
        let a = try access(listen: "0.0.0.0:8140")
        #expect(a.refusal(method: "GET", host: "box:8140", token: nil, origin: nil, upgrade: false)?.status == 401)
        #expect(a.refusal(method: "GET", host: "box:8140", token: "abcdefghijklmnopqrstuvwxyz012346", origin: nil, upgrade: false)?.status == 401)
        #expect(a.refusal(method: "GET", host: "box:8140", token: String(token.dropLast()), origin: nil, upgrade: false)?.status == 401)
        #expect(a.refusal(method: "GET", host: "box:8140", token: token, origin: nil, upgrade: false) == nil)
    }

    @Test func changesAndSocketsMustComeFromTheStudiosOwnPage() throws {
        let a = try access(listen: "127.0.0.1:8140")
        let host = "127.0.0.1:8140"
        #expect(a.refusal(method: "POST", host: host, token: nil, origin: "http://evil.example", upgrade: false)?.status == 403)
        #expect(a.refusal(method: "DELETE", host: host, token: nil, origin: "http://127.0.0.1:9999", upgrade: false)?.status == 403)
        #expect(a.refusal(method: "GET", host: host, token: nil, origin: "http://evil.example", upgrade: true)?.status == 403)
        #expect(a.refusal(method: "POST", host: host, token: nil, origin: "http://127.0.0.1:8140", upgrade: false) == nil)
        #expect(a.refusal(method: "POST", host: host, token: nil, origin: nil, upgrade: false) == nil)   // curl, scripts
        // Reading is allowed from anywhere the browser lets it (the answers are not readable cross-site).
        #expect(a.refusal(method: "GET", host: host, token: nil, origin: "http://evil.example", upgrade: false) == nil)
    }

    @Test func cookies() {
        #expect(StudioAccess.cookie(named: "marble_token", in: "a=1; marble_token=abc; b=2") == "abc")
        #expect(StudioAccess.cookie(named: "marble_token", in: "marble_token2=abc") == nil)
        #expect(StudioAccess.cookie(named: "marble_token", in: "") == nil)
    }

    @Test func hostNamesLoseTheirPort() {
        #expect(StudioAccess.name(ofHost: "[::1]:8140") == "::1")
        #expect(StudioAccess.name(ofHost: "localhost:8140") == "localhost")
        #expect(StudioAccess.name(ofHost: "127.0.0.1") == "127.0.0.1")
    }

    @Test func tokensCompareWhole() {
        #expect(StudioAccess.same("abc", "abc"))
        #expect(!StudioAccess.same("abc", "abd") && !StudioAccess.same("abc", "abcd") && !StudioAccess.same("", "a"))
    }

    @Test func byteRanges() {
        #expect(StudioAccess.byteRange("bytes=0-99", size: 1000) == 0...99)
        #expect(StudioAccess.byteRange("bytes=900-", size: 1000) == 900...999)
        #expect(StudioAccess.byteRange("bytes=-100", size: 1000) == 900...999)
        #expect(StudioAccess.byteRange("bytes=-5000", size: 1000) == 0...999)
        #expect(StudioAccess.byteRange("bytes=990-5000", size: 1000) == 990...999)
        for bad in ["bytes=1000-", "bytes=5-4", "bytes=0-1,5-6", "items=0-1", "bytes=-0", "bytes=a-b", "bytes=--1",
                    "bytes=99999999999999999999-"] {
            #expect(StudioAccess.byteRange(bad, size: 1000) == nil, "\(bad)")
        }
    }
}
