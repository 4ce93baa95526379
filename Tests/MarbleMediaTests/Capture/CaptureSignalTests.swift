import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

extension CaptureTests {
    @Suite("What plays into a real PulseAudio sink is captured", .ownThread,
           .enabled(if: CaptureTools.available, CaptureTools.missingNote))
    struct Signals {
        @Test("a 1 kHz sine played into the null sink is captured at its frequency and level")
        func capturesTone() throws {
            let server = try TestPulseServer()
            var options = CaptureOptions()
            options.server = server.serverString
            let capture = try AudioCapture(options: options)
            try capture.start()
            defer { capture.stop() }
            #expect(capture.state == .capturing(source: "viz.monitor"))
            #expect(capture.sourceName == "viz.monitor")

            try server.play(CaptureTools.tone(1000))
            let heard = pollBlocking(timeout: CaptureTools.failsafe) { Heard.tone(capture.buffer, frequency: 1000) }
            let window = Heard.latest(capture.buffer, count: 4800)
            #expect(heard, """
                1 kHz at \(Heard.amplitude(window.left, frequency: 1000)) / \(Heard.amplitude(window.right, frequency: 1000)), \
                RMS \(Heard.rms(window.left)); expected 0.5, RMS 0.354
                """)
            // Not some other frequency: a neighbour gets next to nothing.
            #expect(Heard.amplitude(window.left, frequency: 1500) < 0.02)
        }

        @Test("with a 10 ms fragment, data arrives in blocks of about 10 ms")
        func fragmentSize() throws {
            let server = try TestPulseServer()
            var options = CaptureOptions()
            options.server = server.serverString
            options.fragmentSeconds = 0.010
            let capture = try AudioCapture(options: options)
            try capture.start()
            defer { capture.stop() }
            try server.play(CaptureTools.tone(1000))
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { Heard.tone(capture.buffer, frequency: 1000) })

            // Half a second of steady data. Blocks are the runs of samples appended at the same time;
            // only those with sound count (the filler appends silence in blocks of its own). On a
            // machine so loaded that the server itself stalls, the filler covers a window: take the
            // next half second then, up to six times.
            var blocks: [(size: Int, time: UInt64)] = []
            for _ in 0..<6 where blocks.count < 20 {
                let from = capture.buffer.written
                #expect(pollBlocking(timeout: CaptureTools.failsafe) { capture.buffer.written >= from + 24_000 })
                blocks = Self.blocksWithSound(capture.buffer, from: from, count: 24_000)
            }
            try #require(blocks.count >= 20, "only \(blocks.count) blocks with sound in 0.5 s")
            let sorted = blocks.map(\.size).sorted()
            // 480 samples = 10 ms at 48 kHz. Without fragsize the server sends about 2 s at once.
            #expect(sorted[sorted.count / 2] <= 960, "median block \(sorted[sorted.count / 2]) samples")
            #expect(sorted[sorted.count * 9 / 10] <= 960, "90th percentile block \(sorted[sorted.count * 9 / 10]) samples")
            // How far apart they arrive is left out: that is the machine's load, not the capture's.
        }

        /// The runs of samples in `from..<from + count` that arrived at one time and have sound: their
        /// sizes and arrival times (the first, partial, run left out).
        static func blocksWithSound(_ buffer: CaptureBuffer, from: Int, count: Int) -> [(size: Int, time: UInt64)] {
            var blocks: [(size: Int, time: UInt64)] = []
            var runStart = from
            var runTime = buffer.arrivalTime(ofSample: from)
            var heard = false
            for index in from..<(from + count) {
                let time = buffer.arrivalTime(ofSample: index)
                if time != runTime {
                    if runStart > from, heard, let runTime { blocks.append((index - runStart, runTime)) }
                    runStart = index
                    runTime = time
                    heard = false
                }
                if !heard { buffer.read(from: index, upTo: index + 1) { l, _ in heard = l[0] != 0 } }
            }
            return blocks
        }
    }
}
