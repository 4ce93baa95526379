import Foundation
import Testing
import MarbleAnalysis
import TestSupport
@testable import MarbleStudio

@Suite struct AnalysisCacheTests {
    @Test func aSongIsAnalysedOnceUntilItChanges() throws {
        let folder = TestMedia.output("analysis-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let song = folder + "/song.wav"
        try FileManager.default.copyItem(atPath: try TestMedia.tone("wav", seconds: 3, rate: 22_050, channels: 1), toPath: song)
        let cache = AnalysisCache()
        let first = try cache.report(path: song, configuration: AnalysisConfiguration())
        #expect(try cache.report(path: song, configuration: AnalysisConfiguration()) == first && cache.count == 1)
        var other = AnalysisConfiguration()
        other.bandCount = 16
        _ = try cache.report(path: song, configuration: other)
        #expect(cache.count == 2)
        // The file replaced by a longer one: analysed again, not the old answer.
        try FileManager.default.removeItem(atPath: song)
        try FileManager.default.copyItem(atPath: try TestMedia.tone("wav", seconds: 5, rate: 22_050, channels: 1), toPath: song)
        let again = try cache.report(path: song, configuration: AnalysisConfiguration())
        #expect(abs(again.duration - 5) < 0.05 && abs(first.duration - 3) < 0.05 && cache.count == 3)
    }
}
