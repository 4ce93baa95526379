import Foundation
import TestSupport
import Testing

@Suite("marble effects", .ownThread)
struct EffectsCommandTests {
    @Test("lists every shader and preset with parameters from the same tables")
    func lists() throws {
        let r = try CLI.run(["effects"])
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["bars", "waveform", "gradient", "solid", "media", "ink", "spectrum"] {
            #expect(r.stdout.contains(name), "missing \(name)")
        }
        #expect(r.stdout.contains("count"))
        let one = try CLI.run(["effects", "bars"])
        #expect(one.stdout.contains("peak_color"))
        #expect(!one.stdout.contains("waveform ("))
        let none = try CLI.run(["effects", "nope"])
        #expect(none.status == 2)
    }

    @Test("--json: every shader with typed parameters, every preset with its layers, the bindable features")
    func json() throws {
        let r = try CLI.run(["effects", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let shaders = try #require(object["shaders"] as? [[String: Any]])
        #expect(shaders.count >= 50)
        let bars = try #require(shaders.first { $0["name"] as? String == "bars" })
        #expect(bars["kind"] as? String == "generator" && bars["opaque"] as? Bool == false)
        let count = try #require((bars["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "count" })
        #expect(count["type"] as? String == "integer" && count["min"] as? Double == 8 && count["max"] as? Double == 256)
        #expect(count["default"] as? String == "64" && count["bindable"] as? Bool == true)
        let presets = try #require(object["presets"] as? [[String: Any]])
        let spectrum = try #require(presets.first { $0["name"] as? String == "spectrum" })
        #expect((spectrum["layers"] as? [[String: Any]])?.isEmpty == false)
        // A preset's analysis section, keys as in the YAML; absent when the preset has none.
        let podcast = try #require(presets.first { $0["name"] as? String == "podcast" })
        let analysis = try #require(podcast["analysis"] as? [String: Any])
        #expect(analysis["noise_floor"] as? Double == -55 && analysis["dynamics"] as? Double == 0.7)
        #expect(spectrum["analysis"] == nil)
        #expect((object["features"] as? [String])?.contains("bass_att") == true)
        // One name: just that one; an unknown name is the same one-line error as without --json.
        let one = try CLI.run(["effects", "waveform", "--json"])
        let only = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
        #expect((only["shaders"] as? [[String: Any]])?.count == 1 && (only["presets"] as? [Any])?.isEmpty == true)
        let bad = try CLI.run(["effects", "nosuch", "--json"])
        #expect(bad.status == 2 && bad.stderr.split(separator: "\n").count == 1 && bad.stdout.isEmpty)
    }
}
