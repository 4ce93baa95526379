import Testing
import MarbleCore
@testable import MarbleStudio

@Suite struct StudioConfigurationTests {
    @Test func listensOnLoopbackByDefaultWithoutAToken() throws {
        let c = StudioConfiguration(folders: ["/music"])
        try c.validate()
        #expect(c.isLoopback && c.url == "http://127.0.0.1:8140/")
    }

    @Test func anyOtherAddressPrintsItsToken() throws {
        var c = StudioConfiguration(folders: ["/music"], token: "abcdefghijklmnop1234")
        try c.listen("192.168.1.7:9000")
        #expect(!c.isLoopback && c.host == "192.168.1.7" && c.port == 9000)
        #expect(c.url == "http://192.168.1.7:9000/?token=abcdefghijklmnop1234")
        try c.listen("[::1]:8141")
        #expect(c.isLoopback && c.host == "::1" && c.url == "http://[::1]:8141/")
        try c.listen(":8142")
        #expect(c.host == "127.0.0.1" && c.port == 8142)
        try c.listen("localhost")
        #expect(c.isLoopback && c.port == 8142)
    }

    @Test func refusesBadAddressesPortsTokensAndJobs() {
        var c = StudioConfiguration(folders: ["/music"])
        for bad in ["host:0", "host:65536", "host:http", "[::1", "[::1]x", "a b:80", "x/y:80"] {
            #expect(throws: MarbleError.self, "\(bad)") { try c.listen(bad) }
        }
        c.token = "short"
        #expect(throws: MarbleError.self) { try c.validate() }
        c.token = String(repeating: "a", count: 16) + "/"
        #expect(throws: MarbleError.self) { try c.validate() }
        c.token = StudioConfiguration.makeToken()
        c.jobs = 5
        #expect(throws: MarbleError.self) { try c.validate() }
        #expect(throws: MarbleError.self) { try StudioConfiguration(folders: []).validate() }
    }

    @Test func tokensAreRandomAndWellFormed() throws {
        let a = StudioConfiguration.makeToken(), b = StudioConfiguration.makeToken()
        #expect(a != b && a.count == 32)
        try StudioConfiguration(folders: ["/m"], token: a).validate()
    }
}
