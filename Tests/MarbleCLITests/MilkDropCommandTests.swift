import Foundation
import TestSupport
import Testing

/// `marble render --milkdrop`, `marble effects --milkdrop`: MilkDrop presets from the command line.
@Suite("marble … --milkdrop", .ownThread, .serialized)
struct MilkDropCommandTests {
    /// A folder with two presets written for the test and one that does not compile.
    static func presets() throws -> URL {
        let folder = try CLI.subfolder("milkdrop-presets")
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        try write("a-rings.milk", """
            [preset00]
            fDecay=0.96
            nWaveMode=0
            bWaveThick=1
            bAdditiveWaves=1
            fWaveScale=1.4
            zoom=1.03
            per_frame_1=wave_r = 0.6 + 0.4 * sin(time * 2); wave_b = bass * 0.5;
            """)
        try write("b-lines.milk", """
            MILKDROP_PRESET_VERSION=201
            [preset00]
            nWaveMode=6
            fWaveScale=1.2
            rot=0.02
            ob_size=0.02
            ob_r=1
            ob_a=0.8
            per_pixel_1=dx = 0.005 * sin(y * 10 + time);
            """)
        try write("c-broken.milk", "[preset00]\nper_frame_1=zoom = 1 +;\n")
        return folder
    }

    @Test("effects --milkdrop counts what loads and draws, and lists the failure with its file, line and reason")
    func survey() throws {
        let folder = try Self.presets()
        let r = try CLI.run(["effects", "--milkdrop", folder.path, "--frames", "20", "--threads", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("3 presets"), "\(r.stdout)")
        #expect(r.stdout.contains("loaded (parsed and compiled): 2"), "\(r.stdout)")
        #expect(r.stdout.contains("rendered a picture:           2"), "\(r.stdout)")
        #expect(r.stdout.contains("an equation does not compile: 1"), "\(r.stdout)")
        #expect(r.stdout.contains("c-broken.milk:2: per_frame"), "\(r.stdout)")
        let json = try CLI.run(["effects", "--milkdrop", folder.path, "--frames", "10", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["files"] as? Int == 3 && object?["rendered"] as? Int == 2)
        let missing = try CLI.run(["effects", "--milkdrop", folder.appendingPathComponent("none").path])
        #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
    }

    @Test("effects --milkdrop over a folder of hostile presets finishes and lists each under the work budget")
    func hostileSurvey() throws {
        let folder = try CLI.subfolder("milkdrop-hostile")
        let code = [
            "per_pixel_1=loop(1000000000, n = n + 1);", "per_pixel_1=while(1);", "per_pixel_1=memset(0, 1, 8388608);",
            "per_pixel_1=loop(100000, loop(100000, n = n + 1));", "per_frame_1=loop(1000000, loop(1000000, m = m + 1));",
            "per_frame_init_1=loop(1000000, while(k = k + 1; 1));", "per_frame_1=loop(1000000, while(1));",
            "wavecode_0_enabled=1\nwave_0_per_point1=loop(1000000, a = a + 1);",
            "shapecode_0_enabled=1\nshapecode_0_num_inst=1024\nshape_0_per_frame1=loop(1000000, a = a + 1);",
            "per_pixel_1=" + String(repeating: "a = a + 1; ", count: 40_000),
        ]
        for (i, c) in code.enumerated() {
            try Data("[preset00]\n\(c)\n".utf8).write(to: folder.appendingPathComponent("hostile-\(i).milk"))
        }
        let r = try CLI.run(["effects", "--milkdrop", folder.path, "--frames", "5", "--threads", "2", "--milkdrop-shaders", "off"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("10 presets") && r.stdout.contains("over the work budget: 10"), "\(r.stdout)")
        // The line of the block's code: after `[preset00]` and the settings before it.
        for (i, c) in code.enumerated() {
            let line = 2 + c.split(separator: "\n").count - 1
            #expect(r.stdout.contains("hostile-\(i).milk:\(line): "), "\(i): \(r.stdout)")
        }
    }

    @Test("render names a preset whose code ran out of its work budget once, by file and line; a folder skips it")
    func renderOverBudget() throws {
        let folder = try CLI.subfolder("milkdrop-overrun")
        let hostile = folder.appendingPathComponent("a-hostile.milk"), good = folder.appendingPathComponent("b-good.milk")
        try Data("[preset00]\nper_pixel_1=loop(1000000000, n = n + 1);\n".utf8).write(to: hostile)
        try Data("[preset00]\nzoom=1.01\nper_frame_1=wave_r = 0.5;\n".utf8).write(to: good)
        let song = folder.appendingPathComponent("song.wav").path
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=220:d=1:r=22050", song])
        let out = folder.appendingPathComponent("lone.mp4").path
        let lone = try CLI.run(["render", song, "-o", out, "--size", "64x36", "--fps", "10", "-q", "--milkdrop", hostile.path])
        #expect(lone.status == 0, "\(lone.stderr)")
        let warning = "warning: milkdrop: \(hostile.path):2: per_pixel ran out of the work budget"
        #expect(lone.stderr.components(separatedBy: warning).count == 2, "\(lone.stderr)")
        #expect(lone.stderr.contains("its code was stopped on 10 frames"), "\(lone.stderr)")
        let list = try CLI.run(["render", song, "-o", out, "--size", "64x36", "--fps", "10", "-q",
                                "--milkdrop", folder.path, "--switch", "0.5s"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr.components(separatedBy: warning).count == 2, "\(list.stderr)")
        #expect(list.stderr.contains("; skipped"), "\(list.stderr)")
    }

    @Test("render --milkdrop FILE writes a video whose frames move; a folder plays as a playlist")
    func render() throws {
        let folder = try Self.presets()
        let song = folder.appendingPathComponent("song.ogg").path
        try CLI.ffmpeg(["-f", "lavfi", "-i", "sine=f=110:d=3:r=22050", "-f", "lavfi", "-i", "anoisesrc=d=3:a=0.2:r=22050",
                        "-filter_complex", "amix=inputs=2", "-c:a", "libvorbis", song])
        let out = folder.appendingPathComponent("one.mp4").path
        let r = try CLI.run(["render", song, "-o", out, "--size", "192x108", "--fps", "30", "-q",
                             "--milkdrop", folder.appendingPathComponent("a-rings.milk").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(((try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0) > 2000)
        let png = folder.appendingPathComponent("still.png").path
        let p = try CLI.run(["render", song, "-o", png, "--at", "2s", "--size", "192x108", "--fps", "30", "-q",
                             "--milkdrop", folder.path, "--switch", "1s", "--blend", "0.5s", "--shuffle", "--seed", "3"])
        #expect(p.status == 0, "\(p.stderr)")
        #expect(FileManager.default.fileExists(atPath: png))
    }

    @Test("bad --milkdrop options are one line and exit 2, before anything is written", arguments: [
        (["--milkdrop", "X", "--switch", "soon"], "--switch"),
        (["--milkdrop", "X", "--blend", "11s"], "--blend"),
        (["--milkdrop", "X", "--render-scale", "0"], "--render-scale"),
        (["--shuffle"], "go with --milkdrop"),
    ])
    func badOptions(_ extra: [String], _ words: String) throws {
        let out = CLI.path("milkdrop-bad.mp4")
        let r = try CLI.run(["render", "song.ogg", "-o", out, "-q"] + extra)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains(words) && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
