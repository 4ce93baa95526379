// libFuzzer harness: preset YAML → validated preset → scene → compositor → one small frame, the path of
// `marble render --preset FILE`. Errors are fine; crashes are not.
import CLibFuzzer
import Foundation
import MarbleCore
import MarbleRender

enum Scratch { static let canvas = Texture(width: 64, height: 36) }

func build(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let canvas = Scratch.canvas
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let preset = try? Preset.parse(text, source: "fuzz.yaml") else { return 0 }
    for hasPicture in [false, true] {
        guard let scene = try? SceneBuilder.layers(preset: preset, effects: ["ink"], hasPicture: hasPicture) else { continue }
        guard let compositor = try? Compositor(preset: scene, width: canvas.width, height: canvas.height, threads: 1) else { continue }
        if hasPicture { continue }  // the media layer wants a picture from a video; the scene is built, that is enough
        var features = AudioFeatures(bandCount: 64, waveformLength: 1024)
        features.level = 1
        for frame in 0..<2 {
            let uniforms = FrameUniforms(time: Double(frame) / 30, frameIndex: frame, fps: Rational(30),
                                         width: canvas.width, height: canvas.height, features: features)
            compositor.render(uniforms, into: canvas)
        }
    }
    return 0
}

// The link pulls in libFuzzer's own main, which wants this symbol; SwiftPM's main (this file) runs instead
// and hands the same function to libFuzzer's driver, which parses the command line (-max_total_time=…).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { build(data, size) }

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in build(data, size) }))
