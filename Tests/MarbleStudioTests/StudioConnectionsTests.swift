import Synchronization
import Testing
@testable import MarbleStudio

@Suite struct StudioConnectionsTests {
    @Test func closingClosesEverySocketOpenAndRefusesNewOnes() async {
        let connections = StudioConnections()
        let closed = Mutex<[Int]>([])
        let a = connections.add { closed.withLock { $0.append(1) } }
        let b = connections.add { closed.withLock { $0.append(2) } }
        let c = connections.add { closed.withLock { $0.append(3) } }
        connections.remove(b!)
        #expect(a != nil && c != nil && connections.count == 2)
        await connections.closeAll()
        #expect(closed.withLock { $0.sorted() } == [1, 3])
        #expect(connections.add { closed.withLock { $0.append(4) } } == nil)   // the studio is stopping
        #expect(connections.count == 0)
    }
}
