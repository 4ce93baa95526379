import Foundation
import MarbleCore
@testable import MarbleKit
@testable import MarbleMedia
import MarblePipeline
import Testing

/// The live source's clock: which frame is due when the capture is ahead of the drawing.
@Suite struct CaptureFrameSourceTests {
    /// A source over a buffer that already holds one second of a tone (the drawing fell 1 s behind).
    static func behindByOneSecond(lagAllowance: Int) throws -> CaptureFrameSource {
        let buffer = CaptureBuffer(sampleRate: 48_000)
        let source = try CaptureFrameSource(buffer: buffer, fps: Rational(30), lagAllowance: lagAllowance, idleAfter: 100)
        let tone = (0..<48_000).map { Float(sin(Double($0) * 0.05) * 0.3) }
        tone.withUnsafeBufferPointer { buffer.append(left: $0.baseAddress!, right: $0.baseAddress!, count: $0.count) }
        return source
    }

    @Test("watched (no allowance): only the newest due frame is drawn, the ones before it count as late")
    func displayDrawsTheNewest() throws {
        let due = try #require(try Self.behindByOneSecond(lagAllowance: 0).nextDueFrame(cancel: CancellationFlag()))
        #expect(due.index >= 25 && due.lateSkipped == due.index, "\(due)")
    }

    @Test("a recording alone may fall behind by its allowance before it skips, and skips only the excess")
    func recordingWaitsWithinItsAllowance() throws {
        let newest = try #require(try Self.behindByOneSecond(lagAllowance: 0).nextDueFrame(cancel: CancellationFlag())).index
        let allowed = try #require(try Self.behindByOneSecond(lagAllowance: 15).nextDueFrame(cancel: CancellationFlag()))
        #expect(allowed.index == newest - 15 && allowed.lateSkipped == allowed.index, "\(allowed), newest \(newest)")
        let all = try #require(try Self.behindByOneSecond(lagAllowance: 60).nextDueFrame(cancel: CancellationFlag()))
        #expect(all.index == 0 && all.lateSkipped == 0, "\(all)")
    }
}
