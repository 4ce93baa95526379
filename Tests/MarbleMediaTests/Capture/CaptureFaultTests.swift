import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

extension CaptureTests {
    @Suite("No server, a server that dies and comes back, stopping in every state",
           .enabled(if: CaptureTools.available, CaptureTools.missingNote))
    struct Faults {
        /// Options for the server whose socket would be in `directory`.
        private func options(_ directory: String, wait: Bool = false) -> CaptureOptions {
            var options = CaptureOptions()
            options.server = "unix:\(directory)/pulse/native"
            options.waitForServer = wait
            return options
        }

        @Test("no server: start fails at once with one line")
        func noServer() throws {
            let directory = CaptureTools.makeDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let capture = try AudioCapture(options: options(directory))
            let startedAt = ContinuousClock.now
            do {
                try capture.start()
                Issue.record("started with no server")
            } catch {
                #expect(error.kind == .device)
                #expect(error.message.hasPrefix("no PulseAudio server is running: "), "\(error.message)")
                #expect(error.message.hasSuffix("; start one or pass --wait"), "\(error.message)")
                #expect(!error.message.contains("\n"))
            }
            #expect(seconds(since: startedAt) < 2)
            #expect(capture.state == .stopped)
        }

        @Test("waiting for a server: start returns, silence flows, and capture begins once one starts")
        func waitsForServer() async throws {
            let directory = CaptureTools.makeDirectory()
            let capture = try AudioCapture(options: options(directory, wait: true))
            let startedAt = ContinuousClock.now
            try capture.start()
            defer { capture.stop() }
            #expect(seconds(since: startedAt) < 0.5)
            #expect(capture.state == .connecting)
            // The timeline moves with silence meanwhile.
            #expect(await poll(timeout: 3) { capture.buffer.written >= 9_600 })
            #expect(capture.buffer.silenceFilled == capture.buffer.written)
            #expect(capture.state == .connecting)

            let server = try TestPulseServer(directory: directory)
            #expect(await poll(timeout: 3) { capture.state == .capturing(source: "viz.monitor") }, "state \(capture.state)")
            try server.play(CaptureTools.tone(1000))
            #expect(await poll(timeout: 5) { Heard.tone(capture.buffer, frequency: 1000) })
        }

        @Test("the server dies: silence at real time while reconnecting, then capture resumes on its return")
        func reconnects() async throws {
            let server = try TestPulseServer()
            let capture = try AudioCapture(options: options(server.directory))
            // States with the monotonic time the handler heard them, on the capture thread.
            let heard = Recorder<(state: CaptureState, at: UInt64)>()
            capture.onStateChange = { heard.append(($0, MonotonicClock.now())) }
            try capture.start()
            defer { capture.stop() }
            try server.play(CaptureTools.tone(1000))
            #expect(await poll(timeout: 5) { Heard.tone(capture.buffer, frequency: 1000) })

            server.stop(signal: SIGKILL)
            #expect(await poll(timeout: 3) { capture.state.reconnectReason != nil }, "state \(capture.state)")
            let wentAway = await poll(timeout: 3) {
                heard.all.contains { $0.state.reconnectReason?.hasPrefix("PulseAudio server went away: ") == true }
            }
            #expect(wentAway, "states \(heard.all.map(\.state))")

            // Over a second without a server, the timeline advances at about real time, all silence.
            let written = capture.buffer.written, silence = capture.buffer.silenceFilled
            let measuredFrom = ContinuousClock.now
            try await Task.sleep(for: .seconds(1))  // the length of the measurement, not a wait for an event
            let elapsed = seconds(since: measuredFrom)
            let advanced = capture.buffer.written - written
            let rate = Double(advanced) / elapsed
            #expect(rate > 48_000 * 0.85 && rate < 48_000 * 1.15, "\(rate) samples/s while reconnecting")
            #expect(capture.buffer.silenceFilled - silence == advanced)

            // Back within about a second of the server's start (the handler's clock, not this task's,
            // which a busy test run may resume late).
            let restartedAt = MonotonicClock.now()
            try server.start()
            #expect(await poll(timeout: 3) { capture.state == .capturing(source: "viz.monitor") }, "state \(capture.state)")
            let back = heard.all.first { $0.at > restartedAt && $0.state == .capturing(source: "viz.monitor") }
            let reconnect = back.map { Double($0.at - restartedAt) / 1e9 } ?? .infinity
            #expect(reconnect < 1.5, "capturing \(reconnect) s after the server was started again")
            try server.play(CaptureTools.tone(1500))
            #expect(await poll(timeout: 5) { Heard.tone(capture.buffer, frequency: 1500) })
        }

        @Test("stop() returns promptly while connecting, capturing and reconnecting, and from the handler")
        func stopsPromptly() async throws {
            // Connecting: no server, waiting for one.
            let directory = CaptureTools.makeDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let waiting = try AudioCapture(options: options(directory, wait: true))
            try waiting.start()
            #expect(waiting.state == .connecting)
            #expect(stopTime(waiting) < 1)

            // Capturing.
            let server = try TestPulseServer()
            let capturing = try AudioCapture(options: options(server.directory))
            try capturing.start()
            #expect(capturing.state == .capturing(source: "viz.monitor"))
            #expect(stopTime(capturing) < 1)

            // Reconnecting.
            let reconnecting = try AudioCapture(options: options(server.directory))
            try reconnecting.start()
            server.stop()
            #expect(await poll(timeout: 3) { reconnecting.state.reconnectReason != nil })
            #expect(stopTime(reconnecting) < 1)
            #expect(throws: MarbleError.self) { try reconnecting.start() }  // stopped for good

            // From the state handler, on the capture thread itself.
            try server.start()
            let selfStopping = try AudioCapture(options: options(server.directory))
            let states = Recorder<CaptureState>()
            selfStopping.onStateChange = { [weak selfStopping] state in
                states.append(state)
                if case .capturing = state { selfStopping?.stop() }
            }
            try selfStopping.start()
            let stopped = await poll(timeout: 3) { selfStopping.state == .stopped && states.all.last == .stopped }
            #expect(stopped, "states \(states.all)")
        }

        /// Stops `capture` twice and returns how long the first stop took; checks it ended stopped.
        private func stopTime(_ capture: AudioCapture, sourceLocation: SourceLocation = #_sourceLocation) -> Double {
            let startedAt = ContinuousClock.now
            capture.stop()
            let took = seconds(since: startedAt)
            capture.stop()
            #expect(capture.state == .stopped, sourceLocation: sourceLocation)
            return took
        }
    }
}
