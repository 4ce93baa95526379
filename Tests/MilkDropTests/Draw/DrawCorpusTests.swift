import MarbleCore
@testable import MilkDrop
import Testing

private let drawCorpus = "/usr/share/projectM/presets"
private let drawCorpusPresent = MilkPresetCatalog(path: drawCorpus).paths.count > 0

@Suite("Draw corpus", .enabled(if: drawCorpusPresent, "\(drawCorpus) is absent: apt-get install projectm-data"))
struct DrawCorpusTests {
    @Test("every 8th installed preset's custom waves and shapes build and draw three frames (counts printed)")
    func corpus() {
        let paths = MilkPresetCatalog(path: drawCorpus).paths
        var presets = 0, drawn = 0, compileErrors = 0, objects = 0, withObjects = 0, withPixels = 0
        var f = AudioFeatures(bandCount: 4, waveformLength: 576, spectrumLength: 257)
        f.spectrumResolution = 22050 / 256
        for i in 0..<576 { f.waveformLeft[i] = Float((i * 37) % 64) / 64 - 0.5; f.waveformRight[i] = Float((i * 11) % 50) / 50 - 0.5 }
        for i in 0..<257 { f.spectrum[i] = 0.05 }
        f.bass = 1.2; f.mid = 1; f.treble = 0.8
        let audio = MilkAudio(); audio.update(from: f)
        let previous = Texture(width: 48, height: 27); previous.fill(RGBA8(r: 90, g: 40, b: 20))
        for path in paths.enumerated().filter({ $0.offset % 8 == 0 }).map(\.element) {
            guard let file = try? MilkPresetParser.parse(contentsOf: path) else { continue }
            presets += 1
            let global = MegaBuffer()
            var waves: [CustomWave] = [], shapes: [CustomShape] = []
            for (i, code) in file.waves.enumerated() {
                do { waves.append(try CustomWave(code: code, index: i, globalBuffer: global, seed: 1)) } catch { compileErrors += 1 }
            }
            for (i, code) in file.shapes.enumerated() {
                do { shapes.append(try CustomShape(code: code, index: i, globalBuffer: global, seed: 2)) } catch { compileErrors += 1 }
            }
            let enabled = waves.filter(\.settings.enabled).count + shapes.filter(\.settings.enabled).count
            objects += enabled
            if enabled > 0 { withObjects += 1 }
            let canvas = Canvas(width: 48, height: 27)
            var list = MilkDrawList(width: 48, height: 27)
            for frame in 0..<3 {
                var values = MilkFrameValues(time: Double(frame) / 30, fps: 30, frame: Double(frame), audio: audio)
                values.q[0] = 0.5
                list.reset(width: 48, height: 27)
                for s in shapes { s.build(values, into: &list) }
                for w in waves { w.build(values, audio: audio, into: &list) }
                MilkRasterizer.draw(list, into: canvas.texture.view, rows: 0..<27, texture: previous.view)
            }
            drawn += 1
            let bytes = canvas.texture.packedBytes()
            if stride(from: 0, to: bytes.count, by: 4).contains(where: { bytes[$0] | bytes[$0 + 1] | bytes[$0 + 2] != 0 }) { withPixels += 1 }
        }
        print("draw corpus: \(presets) presets, \(drawn) drawn 3 frames, \(objects) enabled waves/shapes in \(withObjects) presets, \(withPixels) drew pixels, \(compileErrors) waves/shapes not compiling")
        #expect(presets > 100 && drawn == presets)
        #expect(withPixels > withObjects / 2)
    }
}
