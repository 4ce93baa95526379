import Foundation
import TestSupport
import Testing

/// The `.ownThread` trait the command-line suites carry: their tests run on a thread of their own, not
/// on the cooperative pool's.
@Suite("TestSupport: .ownThread", .ownThread)
struct OwnThreadTests {
    /// Whether this runs on a thread of ``OwnThread`` (a synchronous function: the answer is the
    /// calling thread's, which async code may not ask for directly).
    static func onOwnThread() -> Bool { OwnThread.isRunningOnOwnThread }

    @Test("a synchronous test runs on the trait's thread")
    func synchronous() {
        #expect(Self.onOwnThread())
    }

    @Test("an asynchronous test is back on the trait's thread after it suspends")
    func asynchronous() async throws {
        #expect(Self.onOwnThread())
        await Task.yield()   // a suspension, resumed through the preferred executor
        #expect(Self.onOwnThread())
    }

    @Test("each case of a parameterized test runs on such a thread", arguments: [1, 2])
    func cases(_ n: Int) {
        #expect(Self.onOwnThread())
    }
}
