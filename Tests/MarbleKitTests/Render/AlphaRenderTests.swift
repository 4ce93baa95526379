import Foundation
import MarbleCore
@testable import MarbleKit
@testable import MarbleMedia
@testable import MarbleRender
import TestSupport
import Testing

/// Renders with alpha (`--transparent`, the alpha codecs, PNG sequences), read back with the real
/// ffprobe and ffmpeg: the pixel formats editors look for, the picture over a background as an editor
/// composites it (ffmpeg's `overlay`) against the same scene drawn on that background, straight alpha,
/// antialiased text, and pieces joined.
@Suite("AlphaRender", .serialized)
struct AlphaRenderTests {
    static let width = 64, height = 36
    static let backgroundHex = "336699"

    /// A background, bars and antialiased text: `--transparent` drops the background.
    static let scene = Preset(name: "alpha-test", layers: [
        LayerSpec(shader: "solid", parameters: ["color": .text("#" + backgroundHex)]),
        LayerSpec(shader: "bars", parameters: ["count": .number(12)]),
        LayerSpec(shader: "text", parameters: ["text": .text("Ag"), "size": .number(400), "fade_in": .number(0),
                                               "fade_out": .number(0), "outline": .number(0), "shadow_color": .text("#00000000")]),
    ])

    static func options(_ output: String, scene: Preset = scene, seconds: Double = 0.3) throws -> RenderOptions {
        var o = RenderOptions(input: try TestMedia.tone("wav", seconds: seconds), output: output)
        o.width = width
        o.height = height
        o.fps = Rational(30)
        o.encoderPreset = .ultrafast
        o.scene = scene
        return o
    }

    /// A fresh folder for a PNG sequence.
    static func folder(_ name: String) throws -> String {
        let path = TestMedia.output(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// ffprobe's codec and pixel format of the first video stream, and its `alpha_mode` tag.
    static func describe(_ path: String) throws -> String {
        let out = try TestMedia.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                "stream=codec_name,pix_fmt:stream_tags=alpha_mode", "-of", "csv=p=0", path])
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What to say before a file: VP9's alpha is read only by libvpx's decoder; a PNG sequence's rate.
    static func decoder(_ path: String) -> [String] {
        path.hasSuffix(".webm") ? ["-c:v", "libvpx-vp9"] : path.contains("%") ? ["-framerate", "30"] : []
    }

    /// Every frame of `path` decoded to raw `format` (rgba, rgb24, gray).
    static func decode(_ path: String, _ format: String, filter: [String] = []) throws -> [UInt8] {
        [UInt8](try TestMedia.run("ffmpeg", ["-hide_banner", "-loglevel", "error"] + decoder(path) + ["-i", path]
                                  + filter + ["-f", "rawvideo", "-pix_fmt", format, "-"]))
    }

    /// `path` put over a solid background with ffmpeg's `overlay` in RGB (straight alpha, as editors
    /// composite), as raw RGB24.
    static func overBackground(_ path: String) throws -> [UInt8] {
        // Made in RGB (`color` alone is negotiated to YUV, which moves #336699 by 2).
        let background = "color=c=0x\(backgroundHex):s=\(width)x\(height):r=30,format=rgb24"
        return [UInt8](try TestMedia.run("ffmpeg", [
            "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", background] + decoder(path) + ["-i", path,
            "-filter_complex", "[1:v]format=rgba[o];[0:v][o]overlay=format=rgb:shortest=1",
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
    }

    /// Max and mean absolute difference of two byte arrays of one length.
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> (max: Int, mean: Double) {
        var worst = 0, sum = 0
        for i in a.indices {
            let d = abs(Int(a[i]) - Int(b[i]))
            worst = max(worst, d)
            sum += d
        }
        return (worst, Double(sum) / Double(max(1, a.count)))
    }

    /// The outputs with alpha: file name, `--codec`, whether `--transparent` is needed, and the pixel
    /// format ffprobe must report (VP9: the stream's `alpha_mode` tag, as the native decoder drops alpha).
    static let outputs: [(name: String, codec: VideoCodec?, probe: String)] = [
        ("prores.mov", nil, "prores,yuva444p12le"), ("qtrle.mov", .qtrle, "qtrle,argb"),
        ("vp9.webm", nil, "vp9,yuv420p,1"), ("%04d.png", nil, "png,rgba"),
    ]

    static func render(_ name: String, codec: VideoCodec?, scene: Preset = scene) throws -> String {
        let output = name.hasPrefix("%") ? try folder("seq") + "/" + name : TestMedia.output(name)
        var o = try options(output, scene: scene)
        o.transparent = true
        o.codec = codec
        let summary = try RenderJob(options: o).run()
        #expect(summary.frames == 9)
        return output
    }

    @Test("each output reports its alpha pixel format; the sound is kept where the container holds it",
          arguments: outputs.map(\.name))
    func pixelFormats(name: String) throws {
        let output = try #require(Self.outputs.first { $0.name == name })
        let path = try Self.render(name, codec: output.codec)
        #expect(try Self.describe(path) == output.probe)
        if !name.hasSuffix(".png") {
            #expect(try Probe(path, countFrames: false).audio != nil, "\(name) lost its sound")
        }
    }

    @Test("over a background, the transparent render matches the scene drawn on that background",
          arguments: outputs.map(\.name))
    func overBackgroundMatches(name: String) throws {
        let output = try #require(Self.outputs.first { $0.name == name })
        let reference = try Self.folder("reference") + "/%04d.png"
        _ = try RenderJob(options: try Self.options(reference)).run()
        let expected = try Self.decode(reference, "rgb24")
        let path = try Self.render(name, codec: output.codec)
        let composed = try Self.overBackground(path)
        try #require(composed.count == expected.count && expected.count == Self.width * Self.height * 3 * 9)
        let d = Self.difference(composed, expected)
        print("alpha over background, \(name): max \(d.max), mean \(String(format: "%.3f", d.mean))")
        switch name {
        case "vp9.webm":
            // VP9 at CRF 23 on a 64x36 picture loses as much as it does on the opaque render (measured:
            // mean 3.8 with alpha, 4.2 opaque; single pixels of letters' edges far off in both, the alpha
            // plane being coded like luma): the bound is the opaque render's own loss.
            let opaque = TestMedia.output("opaque.webm")
            _ = try RenderJob(options: try Self.options(opaque)).run()
            let loss = Self.difference(try Self.decode(opaque, "rgb24"), expected)
            #expect(d.mean <= loss.mean * 1.5 + 0.5, "VP9 with alpha: mean \(d.mean); opaque VP9: \(loss.mean)")
        case "prores.mov":
            // 12-bit YUVA 4:4:4 as decoded, through BT.709 both ways: measured max 2, mean 0.04.
            #expect(d.max <= 4 && d.mean <= 0.2, "\(name): max \(d.max), mean \(d.mean)")
        default:
            // Lossless RGB: the layer's blend onto nothing and `overlay`'s blend each round once (and
            // un-premultiplying once): measured max 1, mean 0.007 for qtrle.
            #expect(d.max <= 2 && d.mean <= 0.05, "\(name): max \(d.max), mean \(d.mean)")
        }
    }

    /// A half-transparent orange: #ff8000 at opacity 128/255 on nothing is premultiplied (128, 64, 0, 128).
    static let halfOrange = Preset(name: "half", layers: [
        LayerSpec(shader: "solid", opacity: 128.0 / 255, parameters: ["color": .text("#ff8000")]),
    ])

    @Test("straight alpha: a half-transparent pixel reads back with its colour, not darkened", arguments: outputs.map(\.name))
    func straightAlpha(name: String) throws {
        let output = try #require(Self.outputs.first { $0.name == name })
        let path = try Self.render(name, codec: output.codec, scene: Self.halfOrange)
        let pixels = try Self.decode(path, "rgba")
        let centre = ((Self.height / 2) * Self.width + Self.width / 2) * 4
        let got = Array(pixels[centre..<centre + 4])
        // Lossless: exact up to one rounding; ProRes and VP9 go through YUV (VP9 8-bit, limited range).
        let tolerance = name.hasSuffix(".webm") ? 6 : name == "prores.mov" ? 3 : 1
        for (c, want) in [255, 128, 0, 128].enumerated() {
            #expect(abs(Int(got[c]) - want) <= tolerance, "\(name): \(got), expected (255, 128, 0, 128)")
        }
    }

    @Test("antialiased text over alpha: edge pixels are partly transparent white, not partly black")
    func textAntialiasing() throws {
        let text = Preset(name: "text", layers: [Self.scene.layers[2]])
        let path = try Self.render("%04d.png", codec: nil, scene: text)
        let pixels = try Self.decode(path, "rgba")
        var edges = 0, transparent = 0
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = pixels[i + 3]
            if a == 0 {
                transparent += 1
                #expect(pixels[i] == 0 && pixels[i + 1] == 0 && pixels[i + 2] == 0)
            } else if a < 255 {
                edges += 1
                #expect(pixels[i] >= 250 && pixels[i + 1] >= 250 && pixels[i + 2] >= 250, "edge pixel \(i / 4): \(pixels[i..<i + 4])")
            }
        }
        #expect(edges > 10 && transparent > Self.width * Self.height / 2, "\(edges) edge pixels, \(transparent) transparent")
    }

    @Test("pieces rendered with --segment and joined keep their alpha", arguments: ["mov", "webm"])
    func segmentsJoined(ext: String) throws {
        var pieces: [String] = []
        for k in 1...2 {
            var o = try Self.options(TestMedia.output("piece\(k).\(ext)"), seconds: 0.6)
            o.transparent = true
            o.segment = try RenderSegment.piece(parsing: "\(k)/2")
            _ = try RenderJob(options: o).run()
            pieces.append(o.output)
        }
        let joined = TestMedia.output("joined.\(ext)")
        _ = try JoinJob(options: JoinOptions(pieces: pieces, output: joined)).run()
        #expect(try Self.describe(joined) == (ext == "mov" ? "prores,yuva444p12le" : "vp9,yuv420p,1"))
        let alpha = try Self.decode(joined, "gray", filter: ["-vf", "alphaextract"])
        #expect(alpha.count == Self.width * Self.height * 18)
        // The background was dropped: most of every frame is transparent, the bars and letters are not.
        let frame = Self.width * Self.height
        for f in 0..<18 {
            let plane = alpha[(f * frame)..<((f + 1) * frame)]
            #expect(plane.filter { $0 < 16 }.count > frame / 3 && plane.contains { $0 > 200 }, "frame \(f) of the joined \(ext)")
        }
    }

    @Test("--transparent with an output without alpha is a one-line option error", arguments: [
        ("out.mp4", nil), ("out.mkv", nil), ("out.mov", VideoCodec.h264),
    ] as [(String, VideoCodec?)])
    func refused(output: String, codec: VideoCodec?) throws {
        var o = try Self.options(TestMedia.output(output))
        o.transparent = true
        o.codec = codec
        do {
            try o.validate()
            Issue.record("\(output) was accepted with --transparent")
        } catch {
            #expect(error.kind == .option)
            #expect(error.message.hasPrefix("--transparent:") && !error.message.contains("\n"), "\(error.message)")
        }
    }

    @Test("a PNG sequence in a folder that does not exist is refused before anything is decoded")
    func missingFolder() throws {
        let o = try Self.options(TestMedia.output("nowhere") + "/%06d.png")
        #expect(throws: MarbleError.self) { try RenderJob(options: o) }
    }
}
