import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

/// The SDL window, for real: frames shown in an Xvfb server and read back from its screen with `xwd`.
/// Without Xvfb these tests fail (they say what to install); they are never skipped.
@Suite(.serialized, .ownThread) struct VideoWindowTests {
    /// A 320x180 picture with four quadrants: red, green, blue over half transparent (premultiplied:
    /// shows as half blue over black), and a grey ramp across the last one.
    static func quadrants(width: Int = 320, height: Int = 180) -> Texture {
        let t = Texture(width: width, height: height)
        for y in 0..<height {
            let row = t.view.row(y)
            for x in 0..<width {
                let top = y < height / 2, left = x < width / 2
                let p: RGBA8
                switch (top, left) {
                case (true, true): p = RGBA8(r: 255, g: 0, b: 0)
                case (true, false): p = RGBA8(r: 0, g: 255, b: 0)
                case (false, true): p = RGBA8(r: 0, g: 0, b: 128, a: 128)
                case (false, false):
                    let v = UInt8((x - width / 2) * 255 / (width / 2 - 1))
                    p = RGBA8(r: v, g: v, b: v)
                }
                row[4 * x] = p.r; row[4 * x + 1] = p.g; row[4 * x + 2] = p.b; row[4 * x + 3] = p.a
            }
        }
        return t
    }

    /// Takes screenshots until `accept` says yes (the X server, another process, draws asynchronously
    /// and tells nothing) or 60 s pass (a guard against a hang); the last.
    static func screen(_ server: XvfbServer, until accept: (Screenshot) -> Bool) throws -> Screenshot {
        var shot = try server.screenshot()
        _ = try pollProcess(every: 0.05) {
            shot = try server.screenshot()
            return accept(shot)
        }
        return shot
    }

    /// Pixels of `shot` whose channels differ from the picture's premultiplied colour (composited over
    /// black) by more than `tolerance`, with the window at the screen's origin: at most `limit` listed.
    static func differences(_ shot: Screenshot, _ picture: Texture, tolerance: Int, limit: Int = 5) -> [String] {
        var out: [String] = []
        for y in 0..<picture.height {
            let row = picture.view.row(y)
            for x in 0..<picture.width {
                let s = shot.pixel(x, y)
                let d = max(abs(Int(s.r) - Int(row[4 * x])), abs(Int(s.g) - Int(row[4 * x + 1])), abs(Int(s.b) - Int(row[4 * x + 2])))
                if d > tolerance {
                    if out.count < limit { out.append("(\(x),\(y)): screen \(s) picture \(row[4 * x]),\(row[4 * x + 1]),\(row[4 * x + 2])") }
                    else { return out + ["…"] }
                }
            }
        }
        return out
    }

    @Test("a frame shown in a window of its size is on the screen pixel for pixel (premultiplied, over black)")
    func showsTheFrame() throws {
        try XvfbServer.withDisplay(width: 320, height: 180) { server in
            let window = try VideoWindow(title: "marble-window-test", width: 320, height: 180)
            defer { window.close() }
            #expect(window.drawableSize == (320, 180))
            let picture = Self.quadrants()
            try window.present(picture)
            let shot = try Self.screen(server) { Self.differences($0, picture, tolerance: 1).isEmpty }
            #expect(shot.width == 320 && shot.height == 180)
            let wrong = Self.differences(shot, picture, tolerance: 1)
            #expect(wrong.isEmpty, "renderer \(window.rendererName): \(wrong.joined(separator: "; "))")
        }
    }

    @Test("SDL's software renderer (the fallback where there is no OpenGL) shows the same pixels")
    func softwareRenderer() throws {
        try XvfbServer.withDisplay(width: 320, height: 180) { server in
            // Under the display lock: no other window test reads the environment meanwhile.
            setenv("SDL_RENDER_DRIVER", "software", 1)
            defer { unsetenv("SDL_RENDER_DRIVER") }
            let window = try VideoWindow(title: "marble-window-test", width: 320, height: 180)
            defer { window.close() }
            #expect(window.rendererName == "software")
            let picture = Self.quadrants()
            try window.present(picture)
            let shot = try Self.screen(server) { Self.differences($0, picture, tolerance: 1).isEmpty }
            let wrong = Self.differences(shot, picture, tolerance: 1)
            #expect(wrong.isEmpty, "\(wrong.joined(separator: "; "))")
        }
    }

    @Test("a square picture in a wide window is scaled to the window's height, centred, with black bars")
    func letterboxes() throws {
        try XvfbServer.withDisplay(width: 320, height: 180) { server in
            let window = try VideoWindow(title: "marble-window-test", width: 320, height: 180)
            defer { window.close() }
            // 160x160: left half red, right half blue → shown 180x180 at x 70..<250.
            let picture = Texture(width: 160, height: 160)
            for y in 0..<160 {
                let row = picture.view.row(y)
                for x in 0..<160 {
                    row[4 * x] = x < 80 ? 255 : 0; row[4 * x + 1] = 0; row[4 * x + 2] = x < 80 ? 0 : 255; row[4 * x + 3] = 255
                }
            }
            #expect(VideoWindow.fit(width: 160, height: 160, into: (320, 180)) == (70, 0, 180, 180))
            try window.present(picture)
            func isBlack(_ p: (r: UInt8, g: UInt8, b: UInt8)) -> Bool { p.r < 3 && p.g < 3 && p.b < 3 }
            func isRed(_ p: (r: UInt8, g: UInt8, b: UInt8)) -> Bool { p.r > 250 && p.g < 5 && p.b < 5 }
            func isBlue(_ p: (r: UInt8, g: UInt8, b: UInt8)) -> Bool { p.b > 250 && p.r < 5 && p.g < 5 }
            let shot = try Self.screen(server) { isRed($0.pixel(100, 90)) && isBlue($0.pixel(220, 90)) }
            for y in [0, 45, 90, 135, 179] {
                for x in [0, 30, 68] { #expect(isBlack(shot.pixel(x, y)), "left bar at (\(x),\(y)): \(shot.pixel(x, y))") }
                for x in [251, 290, 319] { #expect(isBlack(shot.pixel(x, y)), "right bar at (\(x),\(y)): \(shot.pixel(x, y))") }
                for x in [72, 100, 150] { #expect(isRed(shot.pixel(x, y)), "picture at (\(x),\(y)): \(shot.pixel(x, y))") }
                for x in [165, 200, 247] { #expect(isBlue(shot.pixel(x, y)), "picture at (\(x),\(y)): \(shot.pixel(x, y))") }
            }
        }
    }

    @Test("a new picture size makes a new texture; a wider window pillarboxes a tall picture's fit")
    func followsPictureSize() throws {
        #expect(VideoWindow.fit(width: 320, height: 180, into: (640, 360)) == (0, 0, 640, 360))
        #expect(VideoWindow.fit(width: 1920, height: 1080, into: (800, 800)) == (0, 175, 800, 450))
        #expect(VideoWindow.fit(width: 90, height: 160, into: (320, 180)) == (109, 0, 101, 180))
        try XvfbServer.withDisplay(width: 320, height: 180) { server in
            let window = try VideoWindow(title: "marble-window-test", width: 320, height: 180)
            defer { window.close() }
            let small = Texture(width: 64, height: 36)
            small.fill(RGBA8(r: 0, g: 0, b: 255))
            try window.present(small)
            let picture = Self.quadrants()
            try window.present(picture)
            let shot = try Self.screen(server) { Self.differences($0, picture, tolerance: 1).isEmpty }
            #expect(Self.differences(shot, picture, tolerance: 1).isEmpty)
        }
    }

    @Test("with no display, opening a window is one clear .device error; a display later works")
    func noDisplay() throws {
        let error = XvfbServer.withoutDisplay {
            #expect(throws: MarbleError.self) { try VideoWindow(title: "marble-window-test", width: 64, height: 64) }
        }
        #expect(error?.kind == .device)
        #expect(error?.message.hasPrefix("no display: cannot open a window (SDL: ") == true, "\(error?.message ?? "")")
        #expect(error?.message.hasSuffix("); is DISPLAY set?") == true)
        #expect(error?.message.contains("\n") == false)
        let unset = XvfbServer.withoutDisplay(unset: true) {
            #expect(throws: MarbleError.self) { try VideoWindow(title: "marble-window-test", width: 64, height: 64) }
        }
        #expect(unset?.kind == .device && unset?.message.hasPrefix("no display: ") == true, "\(unset?.message ?? "")")
        // The failed start left nothing behind: a window opens once there is a display.
        try XvfbServer.withDisplay(width: 64, height: 64) { _ in
            let window = try VideoWindow(title: "marble-window-test", width: 64, height: 64)
            #expect(window.isOpen)
            window.close()
            window.close()
            #expect(!window.isOpen && window.drawableSize == (0, 0))
            #expect(throws: MarbleError.self) { try window.present(Texture(width: 4, height: 4)) }
        }
    }

    @Test("SDL leaves the process's signal handlers alone (the app stops cleanly on Ctrl-C itself)")
    func signalHandlers() throws {
        func handlers() -> [Int] {
            [SIGINT, SIGTERM].map { signal in
                var current = sigaction()
                sigaction(signal, nil, &current)
                return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            }
        }
        let before = handlers()
        try XvfbServer.withDisplay(width: 64, height: 64) { _ in
            let window = try VideoWindow(title: "marble-window-test", width: 64, height: 64)
            defer { window.close() }
            _ = window.pollEvents()
            #expect(handlers() == before)
        }
    }

    @Test("a size out of range is an .option error, before any display is needed")
    func badSize() {
        #expect(throws: MarbleError(.option, "window size 0x10 is out of range (1 to 16384 pixels a side)")) {
            try VideoWindow(title: "x", width: 0, height: 10)
        }
    }
}
