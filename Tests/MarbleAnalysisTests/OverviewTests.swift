import Foundation
@testable import MarbleAnalysis
import MarbleCore
import TestSupport
import Testing

/// The analysis pass builds the whole song's waveform envelope: bounded bins, exact peaks, the song's shape.
@Suite struct WaveformOverviewTests {
    @Test func peaksAndRMSFollowTheSignalWhateverItsLength() throws {
        let rate = 8000
        for seconds in [0.01, 1.0, 7.3] {
            let n = Int(Double(rate) * seconds)
            // Loud for the first half, quiet after; the right channel at a third.
            let left = (0..<n).map { i in Float((i < n / 2 ? 0.8 : 0.1) * sin(Double(i) * 0.3)) }
            let right = left.map { $0 / 3 }
            let report = try OfflineAnalyzer.analyze(left: left, right: right, sampleRate: rate)
            let o = try #require(report.overview)
            #expect(o.channels == 2 && o.count <= WaveformOverview.maximumBins)
            if n > WaveformOverview.maximumBins { #expect(o.count > WaveformOverview.maximumBins / 2) } else { #expect(o.count == n) }
            #expect(abs(o.duration - seconds) < o.binSeconds + 1e-9)
            // Every bin's peak is exactly the largest sample it holds.
            let width = Int((o.binSeconds * Double(rate)).rounded())
            for b in stride(from: 0, to: o.count, by: max(1, o.count / 37)) {
                let samples = left[(b * width)..<min(n, (b + 1) * width)]
                #expect(o.peaks[0][b] == samples.map(abs).max()!, "bin \(b) of \(o.count)")
                #expect(abs(o.peaks[1][b] - o.peaks[0][b] / 3) < 1e-6)
            }
            guard n > 1000 else { continue }
            // The power mean of the loud quarter's and the quiet quarter's bins (one bin may be a few samples).
            func power(_ bins: Range<Int>) -> Float { (bins.map { o.rms[0][$0] * o.rms[0][$0] }.reduce(0, +) / Float(bins.count)).squareRoot() }
            let loud = power(0..<(o.count / 4)), quiet = power((o.count * 3 / 4)..<o.count)
            #expect(abs(loud - 0.8 / Float(2).squareRoot()) < 0.08 && abs(quiet - 0.1 / Float(2).squareRoot()) < 0.02, "\(loud), \(quiet)")
        }
    }

    @Test func aMonoFileHasOneChannelAndTheReportOfAFileCarriesIt() throws {
        let path = try TestMedia.make("loud-then-quiet.flac", [
            "-f", "lavfi", "-i", "aevalsrc=if(lt(t\\,1)\\,0.8\\,0.1)*sin(2*PI*220*t):s=22050:d=2", "-ac", "1"])
        let report = try MediaAnalysis.report(path: path)
        let o = try #require(report.overview)
        #expect(o.channels == 1)
        let firstHalf = o.peaks[0][..<(o.count / 2 - 8)], secondHalf = o.peaks[0][(o.count / 2 + 8)...]
        // Short bins near a zero crossing hold small peaks: compare the halves' means, and the quiet half's top.
        let loud = firstHalf.reduce(0, +) / Float(firstHalf.count), quiet = secondHalf.reduce(0, +) / Float(secondHalf.count)
        #expect(loud > 0.4 && loud > 5 * quiet && secondHalf.max()! < 0.12, "loud \(loud), quiet \(quiet), quiet top \(secondHalf.max()!)")
    }
}
