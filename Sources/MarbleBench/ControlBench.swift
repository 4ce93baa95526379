import Foundation
import MarbleControl
import MarbleCore
import MarbleKit
import MarblePipeline
import MarbleRender

/// `marble bench --control`: how long a control from outside takes to show, end to end, on the path a
/// session runs: an OSC datagram on loopback (the listener's thread decodes it, checks it against the
/// scene, sends the event to the session's store) or a preset file saved by rename (inotify, the file
/// read and checked, the event), then the renderer reading the store at its next frame. Measured from
/// the send (or the rename) to the end of the first frame drawn with the change, on a frame loop paced
/// at the frame rate; sends fall at random moments of the idle part of a frame, so the figures include
/// the wait for the next frame (up to one period).
package enum ControlBench {
    /// One kind of control's latencies, in milliseconds.
    package struct Row: Codable, Sendable {
        package var control: String
        package var samples: Int
        package var p50: Double, p99: Double, max: Double
    }

    /// The measurements of one run.
    package struct Report: Codable, Sendable {
        package var size: String
        package var fps: Double
        package var rows: [Row]

        package var summary: String {
            var lines = ["control bench: \(size) at \(String(format: "%.0f", fps)) fps (a frame every \(String(format: "%.1f", 1000 / fps)) ms); send → first frame drawn with the change"]
            for r in rows {
                let name = r.control.padding(toLength: 36, withPad: " ", startingAt: 0)
                lines.append("  " + name + String(format: "p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%d)", r.p50, r.p99, r.max, r.samples))
            }
            return lines.joined(separator: "\n")
        }
    }

    /// A control to measure: what to send for round `round`, and whether a frame's choice shows it
    /// (given the choice drawn before the send).
    private struct Control {
        var name: String
        var send: (_ round: Int) throws(MarbleError) -> Void
        var shows: (_ choice: SceneChoice, _ before: SceneChoice, _ round: Int) -> Bool
    }

    /// Measures each control `rounds` times at `width`×`height` and `fps`.
    package static func run(width: Int, height: Int, fps: Rational, threads: Int, rounds: Int,
                            progress: (String) -> Void) throws(MarbleError) -> Report {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marble-control-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("look.yaml").path
        try save(file, gradientAngle: 0)
        let presets = [file] + PresetLibrary.names()
        let store = SessionComponent(input: .capture(source: nil), availablePresets: presets,
                                     settings: PlayerSettings(preset: file), client: SessionClient())
        defer { store.stop() }
        let remote = try SessionRemote(address: .init(port: 0), presets: presets, fixedScene: nil)
        remote.start(store)
        defer { remote.stop() }
        let reload = try PresetReload(presets: [file], store: store, report: { _ in })
        reload.start()
        defer { reload.stop() }
        let sender = try OSCSender(port: remote.port)
        func send(_ message: OSCMessage) throws(MarbleError) {
            guard sender.send(message) else { throw MarbleError(.device, "control bench: a datagram could not be sent") }
        }
        let controls = Self.controls(file: file, send: send)
        let renderer = try FrameRenderer(scene: try PresetLibrary.load(file), width: width, height: height, fps: fps,
                                         threads: threads, choose: { store.snapshot.sceneChoice },
                                         chosen: store.snapshot.sceneChoice)
        let slot = try FrameSlot(width: width, height: height, features: AudioFeatures(), hasPicture: false, needs: .rgba)
        var loop = FrameLoop(period: 1 / fps.doubleValue, renderer: renderer, slot: slot)
        var rows: [Row] = []
        for control in controls {
            var latencies: [Double] = []
            // The file's own preset on screen first (the preset control leaves either).
            try send(OSCMessage("/marble/preset", [.string(file)]))
            _ = try loop.until({ c in c.preset == file }, within: 5)
            for round in 0..<rounds {
                try loop.idle(frames: 3)
                let before = renderer.lastChoice ?? SceneChoice(preset: nil)
                let sent = try loop.sendInIdle { () throws(MarbleError) in try control.send(round) }
                guard let drawn = try loop.until({ control.shows($0, before, round) }, within: 5) else { continue }
                latencies.append(Double(drawn &- sent) / 1e6)
            }
            let row = Row(control: control.name, samples: latencies.count, p50: LiveBench.percentile(latencies, 50),
                          p99: LiveBench.percentile(latencies, 99), max: latencies.max() ?? 0)
            progress(String(format: "%@: p50 %.1f ms, p99 %.1f ms", control.name, row.p50, row.p99))
            rows.append(row)
        }
        return Report(size: "\(width)x\(height)", fps: fps.doubleValue, rows: rows)
    }

    /// The controls measured, sent with `send`; `file` is the preset's file on screen.
    private static func controls(file: String, send: @escaping (OSCMessage) throws(MarbleError) -> Void) -> [Control] {
        let other = PresetLibrary.names().first ?? PresetLibrary.defaultName
        return [
            Control(name: "/marble/param (a number, in place)", send: { r throws(MarbleError) in
                try send(OSCMessage("/marble/param", [.int(0), .string("angle"), .float(Double(r % 90 + 1))]))
            }, shows: { c, _, r in c.parameters.contains { $0.value == .number(Double(r % 90 + 1)) } }),
            Control(name: "/marble/param (a colour, rebuilt)", send: { r throws(MarbleError) in
                try send(OSCMessage("/marble/param", [.int(0), .string("from"), .string(r % 2 == 0 ? "#ff0000" : "#00ff00")]))
            }, shows: { c, _, r in c.parameters.contains { $0.value == .text(r % 2 == 0 ? "#ff0000" : "#00ff00") } }),
            Control(name: "/marble/flash", send: { _ throws(MarbleError) in try send(OSCMessage("/marble/flash")) },
                    shows: { c, before, _ in c.flashes > before.flashes }),
            Control(name: "/marble/preset (another preset)", send: { r throws(MarbleError) in
                try send(OSCMessage("/marble/preset", [.string(r % 2 == 0 ? other : file)]))
            }, shows: { c, _, r in c.preset == (r % 2 == 0 ? other : file) }),
            Control(name: "preset file saved (inotify)", send: { r throws(MarbleError) in
                try save(file, gradientAngle: Double(r % 80 + 5))
            }, shows: { c, before, _ in c.preset == file && c.fileRevision > before.fileRevision }),
        ]
    }

    /// A preset of a linear gradient at `angle`, saved as editors save (a new file renamed over the old).
    private static func save(_ path: String, gradientAngle angle: Double) throws(MarbleError) {
        let text = "name: look\nlayers:\n  - shader: gradient\n    parameters:\n      angle: \(angle)\n      from: \"#102040\"\n      to: \"#f0c040\"\n"
        do {
            try text.write(toFile: path + ".new", atomically: false, encoding: .utf8)
        } catch {
            throw MarbleError(.output, "control bench: cannot write \(path): \(error.localizedDescription)")
        }
        guard rename(path + ".new", path) == 0 else { throw MarbleError(.output, "control bench: cannot rename onto \(path)") }
    }

    /// Frames drawn on the frame clock, one after another, with the choice each frame drew kept.
    private struct FrameLoop {
        let period: Double
        let renderer: FrameRenderer
        let slot: FrameSlot
        var index = 0
        var next = MonotonicClock.now()
        var generator = SystemRandomNumberGenerator()

        /// Draws `frames` frames on time.
        mutating func idle(frames: Int) throws(MarbleError) {
            for _ in 0..<frames { _ = try frame() }
        }

        /// Waits a random part of the time left before the next frame, runs `send`, and returns when
        /// it was sent.
        mutating func sendInIdle(_ send: () throws(MarbleError) -> Void) throws(MarbleError) -> UInt64 {
            let left = next > MonotonicClock.now() ? Double(next &- MonotonicClock.now()) / 1e9 : 0
            Thread.sleep(forTimeInterval: Double.random(in: 0..<max(left, 1e-6), using: &generator))
            let sent = MonotonicClock.now()
            try send()
            return sent
        }

        /// Draws frames until one drew a choice that passes `test`; returns when that frame was ready,
        /// or nil after `seconds`.
        mutating func until(_ test: (SceneChoice) -> Bool, within seconds: Double) throws(MarbleError) -> UInt64? {
            let deadline = MonotonicClock.now() &+ UInt64(seconds * 1e9)
            while MonotonicClock.now() < deadline {
                let (choice, ready) = try frame()
                if test(choice) { return ready }
            }
            return nil
        }

        /// Waits for the frame's time, draws it, and returns the choice it drew and when it was ready.
        private mutating func frame() throws(MarbleError) -> (SceneChoice, UInt64) {
            let now = MonotonicClock.now()
            if next > now { Thread.sleep(forTimeInterval: Double(next &- now) / 1e9) }
            next = max(next, MonotonicClock.now()) &+ UInt64(period * 1e9)
            slot.index = index
            slot.time = Double(index) * period
            index += 1
            try renderer.render(slot)
            return (renderer.lastChoice ?? SceneChoice(preset: nil), slot.readyTime)
        }
    }
}
