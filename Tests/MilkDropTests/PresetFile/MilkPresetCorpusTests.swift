import Foundation
import MilkDrop
import Testing

/// Debian's projectm-data (4,188 presets of MilkDrop 1.x and 2.x); CI installs it, elsewhere it may be absent.
private let corpus = "/usr/share/projectM/presets"
private let corpusPresent = FileManager.default.fileExists(atPath: corpus)

@Suite("MilkPreset corpus", .enabled(if: corpusPresent, "\(corpus) is absent: apt-get install projectm-data"))
struct MilkPresetCorpusTests {
    @Test("every preset of projectm-data parses, with settings and code where MilkDrop reads them")
    func everyPreset() throws {
        let report = MilkPresetCatalog(path: corpus).scan()
        print(report.description)
        let notes = report.entries.reduce(0) { if case .parsed(let s) = $1.outcome { $0 + s.noteCount } else { $0 } }
        print("files \(report.fileCount), parsed \(report.parsedCount), with shaders \(report.withShadersCount), "
            + "notes \(notes), failures by reason: "
            + report.failuresByReason.map { "\($0.reason.rawValue) \($0.errors.count)" }.joined(separator: ", "))
        #expect(report.fileCount >= 4000)
        #expect(report.problems.isEmpty)
        #expect(report.parsedCount == report.fileCount)
        // MilkDrop 2 presets mostly carry shaders; 1.x ones never do.
        #expect(report.withShadersCount > 300 && report.withShadersCount < report.parsedCount / 2)
    }

    @Test("a classic 1.x preset and a 2.x preset read as MilkDrop reads them")
    func knownPresets() throws {
        let v1 = try MilkPresetParser.parse(contentsOf: corpus + "/presets_stock/Geiss - Space Voyage.milk")
        #expect(v1.version == nil && v1.number("fDecay") != nil && v1.number("nWaveMode") != nil)
        #expect(!v1.perFrame.isEmpty && !v1.hasShaders)
        let v2 = try MilkPresetParser.parse(contentsOf: corpus + "/presets_milkdrop_200/Geiss - Brain Zoom 3 (random texture mix).milk")
        #expect(v2.version == 201)
        #expect(v2.warpShader?.text.hasPrefix("shader_body\n{\n    ret = tex2D( sampler_main, uv ).xyz;") == true)
        #expect(v2.compositeShader != nil)
        #expect(v2.perFrame.line(atOffset: 0) == 219)
        #expect(v2.waves[0].number("samples") == 512 && v2.shapes[0].number("border_a") == 0.1)
    }
}
