import Foundation
import MarbleCore
@testable import MarbleKit
@testable import MarbleMedia
@testable import MarblePipeline
import TestSupport
import Testing

/// A live recording's sound and picture stay the same length whatever was dropped.
@Suite struct LiveEncodingSinkTests {
    @Test("after a stall of seconds (179 frames skipped at once, then frames as usual) the sound is exactly as long as the picture")
    func longSkipKeepsLengths() throws {
        let buffer = CaptureBuffer(sampleRate: 48_000)
        let tone = (0..<(48_000 * 7)).map { Float(sin(Double($0) * 0.0576) * 0.3) }
        var options = LiveOptions()
        options.encoderPreset = .ultrafast
        options.threads = 1
        let path = TestMedia.output("live-stall-\(UUID().uuidString.prefix(6)).mp4")
        options.outputs = [path]
        let sink = try #require(try LiveOutputs.encodings(options: options, width: 64, height: 36, buffer: buffer, startSample: 0).first)
        tone.withUnsafeBufferPointer { buffer.append(left: $0.baseAddress!, right: $0.baseAddress!, count: $0.count) }
        for index in [0] + Array(180...200) {
            let slot = try FrameSlot(width: 64, height: 36, features: AudioFeatures(), hasPicture: false, needs: .yuv)
            slot.index = index
            try sink.consume(slot)
        }
        try sink.finish(stopped: false)
        let probe = try Probe(path)
        #expect(probe.video?.frames == 201)
        let video = try #require(probe.video?.duration), audio = try #require(probe.audio?.duration)
        // Before, the writer filled the 6 s the held pictures ran ahead with silence, and the sound of
        // those seconds came after it: from the stall on, the sound ran seconds ahead of the picture
        // and ended about 2 s after it.
        #expect(abs(video - audio) < 0.05, "video \(video) s, sound \(audio) s")
    }
}
