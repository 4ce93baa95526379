import Foundation
import MarbleCore
@testable import MarblePipeline
import MarbleRender
import Synchronization
import Testing

/// The renderer of a live session follows its ``SceneChoice``: a saved preset file, parameter changes
/// and the performer's cues, each from the next frame, and never stops on a file that does not load.
@Suite struct FrameRendererChoiceTests {
    static let width = 32, height = 16

    /// A preset file of one solid layer in `color`, written in place of `path`'s old one by a rename.
    static func writePreset(_ path: String, color: String) throws {
        try save(path, "name: look\nlayers:\n  - shader: solid\n    parameters:\n      color: \"\(color)\"\n")
    }

    static func save(_ path: String, _ text: String) throws {
        try text.write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
        _ = rename(path + ".tmp", path)
    }

    static func firstPixel(_ slot: FrameSlot) -> [UInt8] {
        Array(slot.canvas!.packedBytes().prefix(3))
    }

    /// The session's choice, changed by the test between frames.
    final class Choice: Sendable {
        let value: Mutex<SceneChoice>
        init(_ choice: SceneChoice) { value = Mutex(choice) }
        func withLock(_ body: (inout SceneChoice) -> Void) { value.withLock { body(&$0) } }
        var now: SceneChoice { value.withLock { $0 } }
    }

    static func renderer(_ scene: Preset, choice: Choice) throws -> FrameRenderer {
        try FrameRenderer(scene: scene, width: width, height: height, fps: Rational(30), threads: 1,
                          choose: { choice.now }, chosen: choice.now)
    }

    @Test("a saved preset file is drawn from the next frame; a save that does not load keeps the last good look")
    func savedFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("look-\(UUID().uuidString).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.writePreset(path, color: "#ff0000")
        let choice = Choice(SceneChoice(preset: path))
        let renderer = try Self.renderer(try PresetLibrary.load(path), choice: choice)
        let slot = try FrameSlot(width: Self.width, height: Self.height, features: AudioFeatures(), hasPicture: false, needs: .rgba)
        try renderer.render(slot)
        #expect(Self.firstPixel(slot) == [255, 0, 0])
        try Self.writePreset(path, color: "#0000ff")
        try renderer.render(slot)
        #expect(Self.firstPixel(slot) == [255, 0, 0], "not before the store says the file was saved")
        choice.withLock { $0.fileRevision = 1 }
        try renderer.render(slot)
        #expect(Self.firstPixel(slot) == [0, 0, 255])
        try Self.save(path, "name: look\nlayers:\n  - shader: nope\n")
        choice.withLock { $0.fileRevision = 2 }
        try renderer.render(slot)
        #expect(Self.firstPixel(slot) == [0, 0, 255], "the last good look stays")
    }

    @Test("a colour set while playing rebuilds the scene; a number changes in place; a new preset drops both")
    func parameters() throws {
        let scene = Preset(name: "t", layers: [LayerSpec(shader: "solid", parameters: ["color": .text("#000000")])])
        let choice = Choice(SceneChoice(preset: nil))
        let renderer = try Self.renderer(scene, choice: choice)
        let slot = try FrameSlot(width: Self.width, height: Self.height, features: AudioFeatures(), hasPicture: false, needs: .rgba)
        try renderer.render(slot)
        #expect(Self.firstPixel(slot) == [0, 0, 0])
        choice.withLock {
            $0.parameters = [ParameterChange(layer: 0, name: "color", value: .text("#00ff00"))]
            $0.parameterRevision = 1
        }
        try renderer.render(slot)
        #expect(Self.firstPixel(slot) == [0, 255, 0])
        // A change that does not fit (it never should: the session checks first) keeps the scene.
        choice.withLock {
            $0.parameters.append(ParameterChange(layer: 3, name: "color", value: .text("#ffffff")))
            $0.parameterRevision = 2
        }
        try renderer.render(slot)
        #expect(Self.firstPixel(slot) == [0, 255, 0])
    }

    @Test("a flash: the next frame lifted to white, fading over the following frames, then gone")
    func flash() throws {
        let scene = Preset(name: "t", layers: [LayerSpec(shader: "solid", parameters: ["color": .text("#000000")])])
        let choice = Choice(SceneChoice(preset: nil))
        let renderer = try Self.renderer(scene, choice: choice)
        let slot = try FrameSlot(width: Self.width, height: Self.height, features: AudioFeatures(), hasPicture: false, needs: .rgba)
        var lumas: [Int] = []
        for frame in 0..<16 {
            if frame == 2 { choice.withLock { $0.flashes = 1 } }
            slot.index = frame
            slot.time = Double(frame) / 30
            try renderer.render(slot)
            lumas.append(Int(Self.firstPixel(slot)[0]))
        }
        #expect(lumas[0] == 0 && lumas[1] == 0)
        #expect(lumas[2] == 255, "\(lumas)")
        #expect(zip(lumas[2...], lumas[3...]).allSatisfy { $0 >= $1 }, "fading: \(lumas)")
        #expect(lumas[3] > 0 && lumas[3] < 255)
        #expect(lumas[15] == 0, "over after \(Flash.lastsSeconds) s: \(lumas)")
    }
}
