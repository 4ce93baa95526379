import Foundation
import MarbleAnalysis
import MarbleCore
import Synchronization

/// The whole-song analyses the studio's previews share: a song opened again (another page, a reload, a
/// new look with the same analysis settings) starts at once instead of analysing the song again.
/// Keyed by the file's path, size and modification time and the analysis settings; the oldest of
/// ``capacity`` entries goes first.
package final class AnalysisCache: Sendable {
    package static let capacity = 8

    private struct Key: Hashable {
        var path: String, size: Int, modified: Double, configuration: String
    }

    private let entries = Mutex<[(key: Key, report: AnalysisReport)]>([])

    package init() {}

    /// The analysis of `path` with `configuration`, computed on the caller's thread when it is not cached.
    package func report(path: String, configuration: AnalysisConfiguration) throws(MarbleError) -> AnalysisReport {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let key = Key(path: path, size: (attributes?[.size] as? Int) ?? -1,
                      modified: (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0,
                      configuration: String(describing: configuration))
        if let hit = entries.withLock({ list in list.first { $0.key == key }?.report }) { return hit }
        let report = try MediaAnalysis.report(path: path, configuration: configuration)
        entries.withLock { list in
            list.removeAll { $0.key == key }
            list.append((key, report))
            if list.count > Self.capacity { list.removeFirst(list.count - Self.capacity) }
        }
        return report
    }

    /// Entries held now.
    package var count: Int { entries.withLock { $0.count } }
}
