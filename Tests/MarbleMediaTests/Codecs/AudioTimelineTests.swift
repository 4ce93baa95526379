import Foundation
import MarbleBench
@testable import MarbleMedia
import TestSupport
import Testing

/// The decoder delivers the sound on the output's timeline (MediaTimeline.swift): time 0 is the earliest
/// start of the sound and the video, a late start and gaps are silence, a negative start is shifted.
@Suite("AudioDecoder: the sound on the output's timeline")
struct AudioTimelineTests {
    /// The decoded sound (left channel) and where it first gets loud, in seconds.
    func decode(_ path: String) throws -> (seconds: Double, burst: Double?) {
        let decoder = try AudioDecoder(path: path)
        var left: [Float] = []
        while try decoder.decodeNext({ l, _ in left.append(contentsOf: l) }) {}
        let rate = Double(decoder.sampleRate)
        #expect(decoder.samplesDelivered == left.count)
        return (Double(left.count) / rate, left.firstIndex { abs($0) > 0.3 }.map { Double($0) / rate })
    }

    func check(_ media: TimelineMedia.Case) throws {
        let (seconds, burst) = try decode(media.path)
        let found = try #require(burst, "\(media): no burst decoded")
        #expect(abs(found - media.burst) < 0.005, "\(media): burst at \(found) s, expected \(media.burst) s")
        #expect(abs(seconds - media.end) < 0.05, "\(media): \(seconds) s of sound, expected \(media.end) s")
    }

    @Test("a sound that starts 5 s after the video starts with 5 s of silence", arguments: ["mp4", "mkv", "ogg"])
    func lateStart(ext: String) throws { try check(try TimelineMedia.lateStart(ext)) }

    @Test("a 3 s jump in the sound's timestamps is 3 s of silence", arguments: ["mp4", "mkv", "ogg"])
    func gap(ext: String) throws { try check(try TimelineMedia.gap(ext)) }

    @Test("a negative start is shifted to 0, nothing trimmed (ogg, with and without video)")
    func negativeStart() throws {
        try check(try TimelineMedia.negativeStart())
        try check(try TimelineMedia.negativeStartWithVideo())
    }

    @Test("an MP4 edit list that cuts a negative start is applied, as FFmpeg reads it")
    func negativeStartMP4() throws { try check(try TimelineMedia.negativeStartMP4()) }

    @Test("an ordinary file's timeline starts at 0 with its sound")
    func ordinary() throws {
        let d = try AudioDecoder(path: try TestMedia.video("mp4", codec: ["-c:v", "libx264", "-c:a", "aac"]))
        #expect(d.timelineOrigin == 0)
    }

    @Test("seeking into the silence before a late start lands there, and the sound comes at its time")
    func seekBeforeLateStart() throws {
        let d = try AudioDecoder(path: try TimelineMedia.lateStart("mkv").path)
        try d.seek(to: 2)
        var left: [Float] = []
        while try d.decodeNext({ l, _ in left.append(contentsOf: l) }) {}
        let burst = try #require(left.firstIndex { abs($0) > 0.3 })
        #expect(abs(2 + Double(burst) / Double(d.sampleRate) - 6) < 0.005)
    }

    @Test("silence for a late start is delivered without allocating")
    func silenceAllocatesNothing() throws {
        let d = try AudioDecoder(path: try TimelineMedia.lateStart("mkv").path)
        var sum: Float = 0
        _ = try d.decodeNext { l, _ in sum += l[0] }  // the first block: nothing to warm up after that
        // Counted on this thread only (other suites allocate at once); one clean block of the first 4 s
        // of silence shows that delivering silence makes none.
        var fewest = Int.max
        while fewest > 0 && d.samplesDelivered < 4 * d.sampleRate {
            fewest = min(fewest, try AllocationCounter.measureThisThread { _ = try d.decodeNext { l, _ in sum += l[0] } })
        }
        #expect(AllocationCounter.isCounting)
        #expect(fewest == 0)
        #expect(d.samplesDelivered < 5 * d.sampleRate && sum == 0, "still in the leading silence")
    }

    @Test("placement: exact for the first block, a tolerance after it")
    func placement() {
        var p = SamplePlacement(sampleRate: 1000)  // tolerance: 20 samples
        #expect(p.place(start: 5, count: 10, position: 0) == (5, 0), "a late start is padded exactly")
        #expect(p.place(start: 25, count: 10, position: 15) == (0, 0), "within the tolerance: continues")
        #expect(p.place(start: 100, count: 10, position: 35) == (65, 0), "a gap is silence")
        #expect(p.place(start: 80, count: 10, position: 110) == (0, 10), "wholly covered: dropped")
        #expect(p.place(start: 80, count: 40, position: 110) == (0, 30), "an overlap is trimmed")
        #expect(p.place(start: nil, count: 10, position: 120) == (0, 0), "no timestamp: continues")
        p.restart()
        #expect(p.place(start: 995, count: 10, position: 1000) == (0, 5), "after a seek: exact")
    }
}
