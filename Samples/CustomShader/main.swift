// A shader of our own (Rings.swift) registered with the engine and rendered with a waveform on top,
// exactly like a built-in one: by name, with parameters and a binding to the music.
//
//   swift run CustomShader [song] [out.mp4]       (defaults: Samples/sample.ogg → rings.mp4)
import Foundation
import MarbleKit

let arguments = CommandLine.arguments.dropFirst()
let input = arguments.first ?? "Samples/sample.ogg"
let output = arguments.dropFirst().first ?? "rings.mp4"

do {
    try ShaderRegistry.register(Rings.self)
    var options = RenderOptions(input: input, output: output)
    options.scene = Preset(name: "rings", layers: [
        LayerSpec(shader: "rings", parameters: ["color": .text("#7df9ff")],
                  bindings: ["spacing": Binding(feature: "bass_att", amount: 0.02, base: 0.06, smoothing: 0.8)]),
        LayerSpec(shader: "waveform", blend: .screen, parameters: ["color": .text("#ffffff")]),
    ])
    options.width = 640
    options.height = 360
    options.fps = Rational(30)
    let summary = try RenderJob(options: options).run()
    print("wrote \(summary.output): \(summary.frames) frames with the rings shader")
} catch {
    FileHandle.standardError.write(Data("custom-shader: \(error.message)\n".utf8))
    exit(1)
}
