import Testing
@testable import MarbleStudio

@Suite struct StudioTests {
    @Test func port() { #expect(Studio.defaultPort == 8140) }
}
