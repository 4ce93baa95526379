// libFuzzer harness: command-line values → options, through what the `marble` commands call (the
// commands themselves live in the executable target, which another target cannot import): the value
// parsers (`--fps`, `--size`, colours, `-o` stream URLs, `--segment`, `--frames`) and the options' validation of render, play and
// live (outputs, bitrate, keyframe interval). The input is an argument vector, arguments separated by
// NUL bytes. Errors are fine; crashes are not.
import CLibFuzzer
import Foundation
import MarbleKit

func check(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let arguments = UnsafeBufferPointer(start: data, count: size)
        .split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    func argument(_ i: Int) -> String? { i < arguments.count ? arguments[i] : nil }
    for text in arguments {
        if let rate = Rational(parsing: text), rate.numerator > 0 {
            _ = rate.doubleValue
            _ = rate.seconds(ofFrame: 1000)
            _ = rate.reciprocal
        }
        _ = FrameSize(parsing: text)?.isValidFrameSize
        _ = Color(parsing: text)?.premultiplied
        _ = EncoderPreset(rawValue: text)
        _ = try? StreamURL(text)  // -o: a stream URL, a path, or an error
        // --segment K/N and --frames A-B, then against a render of a fuzzed length.
        for segment in [try? RenderSegment.piece(parsing: text), try? RenderSegment.frames(parsing: text)] {
            guard let segment else { continue }
            _ = try? segment.range(totalFrames: Int(text.utf8.count) * 977)
            _ = try? segment.range(totalFrames: RenderSegment.maxFrame)
        }
    }
    var render = RenderOptions(input: argument(0) ?? "in.ogg", output: argument(1) ?? "out.mp4")
    if let size = argument(2).flatMap(FrameSize.init(parsing:)) { render.width = size.width; render.height = size.height }
    if let fps = argument(3).flatMap(Rational.init(parsing:)) { render.fps = fps }
    if let at = argument(4).flatMap(Double.init) { render.at = at }
    if let crf = argument(5).flatMap({ Int($0) }) {
        render.crf = crf; render.bandCount = crf; render.threads = crf; render.encoderThreads = crf
    }
    render.segment = argument(6).flatMap { try? RenderSegment.piece(parsing: $0) }
    _ = try? render.validate()
    var play = PlayOptions(input: render.input)
    play.fps = render.fps
    if let seconds = argument(4).flatMap(Double.init) { play.bufferSeconds = seconds }
    _ = try? play.validate()
    var live = LiveOptions()
    live.outputs = Array(arguments.prefix(3))
    live.window = arguments.count > 6
    live.bitrate = argument(5).flatMap { Int($0) }
    live.keyframeSeconds = argument(4).flatMap(Double.init) ?? 2
    live.size = (render.width, render.height)
    live.fps = render.fps
    live.duration = argument(4).flatMap(Double.init)
    live.crf = render.crf
    _ = try? live.validate()
    return 0
}

// The link pulls in libFuzzer's own main, which wants this symbol; SwiftPM's main (this file) runs instead
// and hands the same function to libFuzzer's driver, which parses the command line (-max_total_time=…).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { check(data, size) }

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in check(data, size) }))
