// A render with a scene made in code instead of a preset file: a gradient background that brightens
// with the level, bars on the spectrum, and a glowing waveform on top.
//
//   swift run RenderScene [song] [out.mp4]        (defaults: Samples/sample.ogg → scene.mp4)
import Foundation
import MarbleKit

let arguments = CommandLine.arguments.dropFirst()
let input = arguments.first ?? "Samples/sample.ogg"
let output = arguments.dropFirst().first ?? "scene.mp4"

let scene = Preset(name: "in-code", description: "Made in Swift", layers: [
    LayerSpec(shader: "gradient", parameters: ["from": .text("#10002b"), "to": .text("#3c096c"), "angle": .number(90)]),
    LayerSpec(shader: "bars", blend: .add, parameters: ["count": .number(48), "top_color": .text("#ff9e00")],
              bindings: ["height": Binding(feature: "level", amount: 0.4, base: 0.5, smoothing: 0.5)]),
    LayerSpec(shader: "waveform", blend: .screen, parameters: ["style": .text("glow"), "color": .text("#e0aaff")]),
])

var options = RenderOptions(input: input, output: output)
options.scene = scene
options.width = 640
options.height = 360
options.fps = Rational(30)

do {
    let job = try RenderJob(options: options)
    let summary = try job.run { progress in
        if let total = progress.expectedFrames, progress.phase == .rendering {
            FileHandle.standardError.write(Data("\rframe \(progress.frames) of \(total)".utf8))
        }
    }
    print("\nwrote \(summary.output): \(summary.frames) frames, \(String(format: "%.1f", summary.realTimeFactor))× real time")
} catch {
    FileHandle.standardError.write(Data("render-scene: \(error.message)\n".utf8))
    exit(1)
}
