import CFFmpeg
import Foundation
import MarbleBench
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

/// AudioEncoder fed with generated samples in odd-sized blocks, muxed, and decoded back.
@Suite("AudioEncoder")
struct AudioEncoderTests {
    static let seconds = 1.5

    /// Encodes 1.5 s of a 1 kHz sine (amplitude 0.5 left, 0.25 right) at `rate` into `container`
    /// (`m4a`: AAC alone; `mp4`: AAC beside 30 fps H.264; `webm`: Opus alone) and returns the path and
    /// the encoder's frame length in seconds.
    func encodeTone(_ container: String, rate: Int, channels: Int) throws -> (path: String, frame: Double) {
        let format: OutputFormat = container == "webm" ? .webm : .mp4
        let path = TestMedia.output("tone-\(rate)-\(channels).\(container)")
        let muxer = try Muxer(destination: path, format: format)
        var video: (encoder: VideoEncoder, stream: Int32, picture: YUVFrame)?
        if container == "mp4" {
            let settings = VideoEncoder.Settings(width: 64, height: 36, fps: Rational(30), crf: 30, preset: .ultrafast,
                                                 threads: 1, globalHeader: muxer.needsGlobalHeader)
            let encoder = try VideoEncoder(format: .mp4, settings: settings)
            video = (encoder, try muxer.addStream(encoder: encoder.context), try greyFrame(width: 64, height: 36))
        }
        let encoder = try AudioEncoder(codecName: format == .webm ? "libopus" : "aac", inputSampleRate: rate,
                                       channels: channels, globalHeader: muxer.needsGlobalHeader)
        let stream = try muxer.addStream(encoder: encoder.context)
        try muxer.writeHeader()
        let sink = { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
            try muxer.write(packet, stream: stream, timeBase: encoder.timeBase)
        }
        var frames = 0
        let left = TestSignal.sine(1000, amplitude: 0.5, rate: rate, seconds: Self.seconds)
        let right = channels == 2 ? TestSignal.sine(1000, amplitude: 0.25, rate: rate, seconds: Self.seconds) : nil
        try TestSignal.feed(left, right) { l, r in
            try encoder.append(left: l, right: r)
            guard let video else { return try encoder.encode(upTo: .infinity, sink) }
            // With pictures: frames up to the sound appended so far, sound up to the frames.
            while Double(frames + 1) / 30 <= Double(encoder.samplesAppended) / Double(rate) {
                video.picture.frame.pointer.pointee.pts = Int64(frames)
                try video.encoder.encode(video.picture.frame.pointer) { (p: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
                    try muxer.write(p, stream: video.stream, timeBase: video.encoder.timeBase)
                }
                frames += 1
            }
            try encoder.encode(upTo: Double(frames) / 30, sink)
            #expect(encoder.encodedSeconds <= Double(frames) / 30 + 1e-9, "sound encoded past the pictures")
        }
        if let video {
            try video.encoder.encode(nil) { (p: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
                try muxer.write(p, stream: video.stream, timeBase: video.encoder.timeBase)
            }
        }
        try encoder.finish(sink)
        #expect(encoder.isFinished)
        try muxer.finish()
        return (path, Double(encoder.frameSize) / Double(encoder.sampleRate))
    }

    @Test("a 1 kHz sine comes back at its length, frequency and level", arguments: ["m4a", "mp4", "webm"],
          [(44_100, 1), (44_100, 2), (48_000, 1), (48_000, 2)])
    func sine(container: String, input: (rate: Int, channels: Int)) throws {
        let (path, frame) = try encodeTone(container, rate: input.rate, channels: input.channels)
        let sound = try DecodedSound(path)
        #expect(sound.rate == (container == "webm" ? 48_000 : input.rate))
        #expect(sound.channels.count == input.channels)
        #expect(abs(sound.seconds - Self.seconds) <= frame, "\(container): decoded \(sound.seconds) s")
        if let probed = try Probe(path, countFrames: false).audio?.duration {
            #expect(abs(probed - Self.seconds) <= frame, "\(container): ffprobe says \(probed) s")
        }
        for (channel, amplitude) in zip(0..<input.channels, [0.5, 0.25]) {
            let f = sound.frequency(channel, from: 0.1, to: 1.4)
            #expect(abs(f - 1000) < 2, "\(container) channel \(channel): \(f) Hz")
            let level = sound.level(channel, from: 0.1, to: 1.4)
            #expect(abs(level - decibels(amplitude / 2.squareRoot())) <= 1, "\(container) channel \(channel): \(level) dB")
        }
    }

    @Test("finish(totalSamples:) pads with silence or cuts, to the sample", arguments: [0.6, 1.0])
    func exactEnd(end: Double) throws {
        let path = TestMedia.output("end-\(end).m4a")
        let muxer = try Muxer(destination: path, format: .mp4)
        let encoder = try AudioEncoder(codecName: "aac", inputSampleRate: 48_000, channels: 1,
                                       globalHeader: muxer.needsGlobalHeader)
        let stream = try muxer.addStream(encoder: encoder.context)
        try muxer.writeHeader()
        let sink = { (packet: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in
            try muxer.write(packet, stream: stream, timeBase: encoder.timeBase)
        }
        try TestSignal.feed(TestSignal.sine(1000, amplitude: 0.5, rate: 48_000, seconds: 0.8), nil) { l, _ in
            try encoder.append(left: l, right: nil)
            try encoder.encode(upTo: 0.3, sink)
        }
        try encoder.finish(totalSamples: Int64(end * 48_000), sink)
        try muxer.finish()
        let sound = try DecodedSound(path)
        #expect(abs(sound.seconds - end) <= 1024.0 / 48_000, "decoded \(sound.seconds) s, asked for \(end)")
        let probed = try #require(try Probe(path, countFrames: false).audio?.duration)
        #expect(abs(probed - end) <= 1024.0 / 48_000, "ffprobe: \(probed) s")
        #expect(abs(sound.level(0, from: 0.1, to: min(end, 0.8) - 0.05) - decibels(0.5 / 2.squareRoot())) <= 1)
        if end > 0.8 {
            #expect(sound.level(0, from: 0.85, to: end) < -50, "the padding is silence")
        }
    }

    @Test("appending in steady state allocates nothing")
    func noAllocations() throws {
        let encoder = try AudioEncoder(codecName: "aac", inputSampleRate: 44_100, channels: 2, globalHeader: false)
        let block = TestSignal.sine(1000, amplitude: 0.5, rate: 44_100, seconds: 1013.0 / 44_100)
        let discard = { (_: UnsafeMutablePointer<AVPacket>) throws(MarbleError) in }
        try block.withUnsafeBufferPointer { b in
            for _ in 0..<8 {  // warm up: the conversion buffer and the FIFO reach their sizes
                try encoder.append(left: b, right: b)
                try encoder.encode(upTo: .infinity, discard)
            }
            // Counted on this thread only (other suites allocate at once); the fewest of the attempts.
            var fewest = Int.max
            for _ in 0..<500 where fewest > 0 {
                var failure: Error?
                fewest = min(fewest, AllocationCounter.measureThisThread {
                    do { try encoder.append(left: b, right: b) } catch { failure = error }
                })
                if let failure { throw failure }
                try encoder.encode(upTo: .infinity, discard)
            }
            #expect(fewest == 0, "append made \(fewest) mallocs")
        }
    }

    @Test("bad channel counts and rates are refused with a clear message")
    func refused() {
        #expect(throws: MarbleError.self) { try AudioEncoder(codecName: "aac", inputSampleRate: 48_000, channels: 6, globalHeader: false) }
        #expect(throws: MarbleError.self) { try AudioEncoder(codecName: "aac", inputSampleRate: 10, channels: 2, globalHeader: false) }
        #expect(throws: MarbleError.self) { try AudioEncoder(codecName: "nope", inputSampleRate: 48_000, channels: 2, globalHeader: false) }
    }
}

/// A grey 4:2:0 picture (Y = `level`, no colour).
func greyFrame(width: Int, height: Int, level: UInt8 = 128) throws -> YUVFrame {
    let frame = try YUVFrame(width: width, height: height)
    let p = frame.planes
    for y in 0..<height { (p.y + y * p.yStride).update(repeating: level, count: width) }
    for y in 0..<height / 2 {
        (p.u + y * p.uStride).update(repeating: 128, count: width / 2)
        (p.v + y * p.vStride).update(repeating: 128, count: width / 2)
    }
    return frame
}
