import Foundation
import MarbleCore
import Synchronization
import Testing
import TestSupport
@testable import MarbleControl

@Suite("File watcher: a watched file saved in place or by rename is reported; other files are not")
struct FileWatcherTests {
    static func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("marble-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("written in place, then replaced by a rename (as editors save): reported both times; a neighbour never",
          .timeLimit(.minutes(5)))
    func saves() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watched = dir + "/look.yaml"
        try "a".write(toFile: watched, atomically: false, encoding: .utf8)
        let watcher = try FileWatcher(paths: [watched])
        let seen = Mutex<[String]>([])
        let arrivals = Arrivals()
        watcher.start { path in
            seen.withLock { $0.append(path) }
            arrivals.arrive()
        }
        defer { watcher.stop() }
        // The neighbour first: had it been reported, it would come before the watched file's save.
        try "x".write(toFile: dir + "/other.yaml", atomically: false, encoding: .utf8)
        try "b".write(toFile: watched, atomically: false, encoding: .utf8)
        await arrivals.reach(1)
        try "c".write(toFile: dir + "/.look.yaml.tmp", atomically: false, encoding: .utf8)
        #expect(rename(dir + "/.look.yaml.tmp", watched) == 0)
        await arrivals.reach(2)
        let paths = seen.withLock { $0 }
        #expect(paths.allSatisfy { $0 == watched }, "\(paths)")
    }

    @Test("a folder that does not exist is one error naming it")
    func missingFolder() {
        #expect { try FileWatcher(paths: ["/no/such/folder/x.yaml"]) } throws: { error in
            (error as? MarbleError)?.message.contains("/no/such/folder") == true
        }
    }
}
