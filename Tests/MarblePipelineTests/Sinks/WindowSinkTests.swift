import Foundation
import MarbleCore
import MarbleMedia
@testable import MarblePipeline
import MarbleRender
import TestSupport
import Testing

/// The window sink, for real: frames drawn by the renderer shown in an Xvfb server and read back with
/// `xwd`; keys typed with `xdotool`. Without Xvfb (or xdotool) these tests fail, saying what to install.
@Suite(.serialized, .ownThread) struct WindowSinkTests {
    static let title = "marble-window-sink-test"

    /// A frame of the bundled `spectrum` preset at `width` x `height`, drawn by the real renderer into a
    /// slot with an RGBA canvas, with some sound in its features.
    static func renderedSlot(width: Int, height: Int) throws -> FrameSlot {
        let renderer = try FrameRenderer(scene: try PresetLibrary.load("spectrum"), width: width, height: height,
                                         fps: Rational(30), threads: 1)
        var features = AudioFeatures(bandCount: 64, waveformLength: 256)
        for i in features.bands.indices { features.bands[i] = Float(i % 16) / 16 }
        for i in features.waveformLeft.indices { features.waveformLeft[i] = sin(Float(i) / 9) * 0.6 }
        features.waveformRight = features.waveformLeft
        features.level = 0.7
        features.bass = 0.8
        features.beatPulse = 0.5
        features.time = 1.5
        let slot = try FrameSlot(width: width, height: height, features: features, hasPicture: false, needs: .rgba)
        slot.time = 1.5
        slot.index = 45
        try renderer.render(slot)
        return slot
    }

    /// Records keys and close requests (called on the thread calling `consume`).
    final class Calls: Sendable {
        let keys = Recorder<Key>()
        let closes = Recorder<Bool>()
        func sink(size: (width: Int, height: Int)) throws -> WindowSink {
            try WindowSink(title: WindowSinkTests.title, size: size, fullscreen: false,
                           onKey: { [keys] in keys.append($0) }, onClose: { [closes] in closes.append(true) })
        }
    }

    /// Consumes `slot` again and again (showing it and handling events) until `done`, or 60 s: the
    /// events come from another process (xdotool, the X server), which tells nothing else, so this
    /// polls, with a deadline that only guards against a hang.
    static func consume(_ slot: FrameSlot, in sink: WindowSink, until done: () -> Bool) throws {
        _ = try pollProcess {
            try sink.consume(slot)
            return done()
        }
    }

    @Test("a rendered frame is shown 1:1: the screen has the renderer's premultiplied pixels over black")
    func showsTheRenderersFrame() throws {
        let (width, height) = (320, 180)
        let slot = try Self.renderedSlot(width: width, height: height)
        let canvas = try #require(slot.canvas)
        let bytes = canvas.packedBytes()
        #expect(Set(stride(from: 0, to: bytes.count, by: 4).map { bytes[$0] }).count > 8, "the frame should not be flat")
        try XvfbServer.withDisplay(width: width, height: height) { server in
            let calls = Calls()
            let sink = try calls.sink(size: (width, height))
            #expect(sink.needs == .rgba)
            #expect(sink.showsLatestOnly && sink.label == "window", "a display: behind, it skips to the newest frame")
            #expect(sink.pixelSize == (width, height))
            try sink.consume(slot)
            func wrong(_ shot: Screenshot) -> [String] {
                var out: [String] = []
                for y in 0..<height {
                    for x in 0..<width {
                        let i = (y * width + x) * 4, s = shot.pixel(x, y)
                        // Premultiplied RGBA over black is its RGB.
                        if max(abs(Int(s.r) - Int(bytes[i])), abs(Int(s.g) - Int(bytes[i + 1])), abs(Int(s.b) - Int(bytes[i + 2]))) > 2 {
                            out.append("(\(x),\(y)): screen \(s) frame \(bytes[i]),\(bytes[i + 1]),\(bytes[i + 2])")
                            if out.count == 5 { return out }
                        }
                    }
                }
                return out
            }
            // The X server draws asynchronously: screenshots until right.
            var shot = try server.screenshot()
            _ = try pollProcess(every: 0.05) {
                shot = try server.screenshot()
                return wrong(shot).isEmpty
            }
            #expect(wrong(shot).isEmpty, "renderer \(sink.rendererName): \(wrong(shot).joined(separator: "; "))")
            #expect(sink.framesPresented == 1 && sink.presentMilliseconds > 0)
            try sink.finish(stopped: false)
            sink.abort()  // after finish: the window is closed already, nothing happens
            #expect(calls.keys.all.isEmpty && calls.closes.all.isEmpty)
            print("WindowSinkTests: SDL renderer under Xvfb: \(sink.rendererName)")
        }
    }

    @Test("keys typed in the window reach onKey; f toggles fullscreen and Esc leaves it, neither forwarded")
    func keys() throws {
        let slot = try Self.renderedSlot(width: 160, height: 90)
        try XvfbServer.withDisplay(width: 320, height: 180) { server in
            let calls = Calls()
            let sink = try calls.sink(size: (160, 90))
            defer { sink.abort() }
            try sink.consume(slot)
            let found = String(decoding: try server.run("xdotool", ["search", "--sync", "--name", Self.title]), as: UTF8.self)
            let id = try #require(found.split(separator: "\n").first.map(String.init))
            try server.run("xdotool", ["windowfocus", "--sync", id])
            func type(_ key: String) throws { try server.run("xdotool", ["key", "--window", id, key]) }

            try type("n")
            try Self.consume(slot, in: sink) { !calls.keys.all.isEmpty }
            #expect(calls.keys.all == [.character("n")])

            try type("Left")
            try type("shift+n")
            try Self.consume(slot, in: sink) { calls.keys.all.count >= 3 }
            #expect(calls.keys.all == [.character("n"), .left, .character("N")])

            #expect(!sink.isFullscreen && sink.pixelSize == (160, 90), "\(sink.pixelSize)")
            try type("f")
            try Self.consume(slot, in: sink) { sink.isFullscreen && sink.pixelSize == (320, 180) }
            #expect(sink.isFullscreen)
            #expect(sink.pixelSize == (320, 180), "the window should cover the 320x180 screen")
            try type("Escape")
            try Self.consume(slot, in: sink) { !sink.isFullscreen && sink.pixelSize == (160, 90) }
            #expect(!sink.isFullscreen && sink.pixelSize == (160, 90), "\(sink.pixelSize)")
            let geometry = String(decoding: try server.run("xdotool", ["getwindowgeometry", id]), as: UTF8.self)
            #expect(geometry.contains("Geometry: 160x90"), "the X window itself: \(geometry)")
            // Esc in a window is the session's.
            try type("Escape")
            try Self.consume(slot, in: sink) { calls.keys.all.count >= 4 }
            #expect(calls.keys.all == [.character("n"), .left, .character("N"), .escape])
            #expect(sink.warnings.isEmpty, "\(sink.warnings)")
        }
    }

    @Test("closing the window (what a window manager's close button sends) calls onClose, once")
    func close() throws {
        let slot = try Self.renderedSlot(width: 64, height: 64)
        try XvfbServer.withDisplay(width: 128, height: 128) { server in
            let calls = Calls()
            let sink = try calls.sink(size: (64, 64))
            defer { sink.abort() }
            try sink.consume(slot)
            let found = String(decoding: try server.run("xdotool", ["search", "--sync", "--name", Self.title]), as: UTF8.self)
            let id = try #require(found.split(separator: "\n").first.flatMap { UInt($0) })
            try server.requestClose(window: id)
            try Self.consume(slot, in: sink) { !calls.closes.all.isEmpty }
            #expect(calls.closes.all == [true])
            try sink.consume(slot)  // the window stays until the session finishes
            #expect(calls.closes.all == [true] && calls.keys.all.isEmpty)
        }
    }

    @Test("a resized window is followed: pixelSize and sizing give its new size, made even")
    func resize() throws {
        let slot = try Self.renderedSlot(width: 64, height: 64)
        try XvfbServer.withDisplay(width: 320, height: 180) { server in
            let sink = try Calls().sink(size: (100, 60))
            defer { sink.abort() }
            let sizing = sink.sizing
            #expect(sink.pixelSize == (100, 60) && sizing() == (100, 60))
            try sink.consume(slot)
            let found = String(decoding: try server.run("xdotool", ["search", "--sync", "--name", Self.title]), as: UTF8.self)
            let id = try #require(found.split(separator: "\n").first.map(String.init))
            try server.run("xdotool", ["windowsize", id, "251", "141"])
            try Self.consume(slot, in: sink) { sink.pixelSize == (250, 140) }
            #expect(sink.pixelSize == (250, 140) && sizing() == (250, 140))
            // A renderer following the window draws the next frame at its size: shown 1:1.
            let renderer = try FrameRenderer(scene: try PresetLibrary.load("spectrum"), width: 64, height: 64,
                                             fps: Rational(30), threads: 1, sizing: sizing)
            try renderer.render(slot)
            #expect(slot.canvas?.width == 250 && slot.canvas?.height == 140)
            try sink.consume(slot)
        }
    }

    @Test("the size a renderer follows is even and at least 16 pixels a side")
    func usableSizes() {
        #expect(WindowPixelSize.usable((641, 359)) == (640, 358))
        #expect(WindowPixelSize.usable((5, 0)) == (16, 16))
        let size = WindowPixelSize((100, 50))
        size.set((1921, 1081))
        #expect(size.current == (1920, 1080))
    }
}
