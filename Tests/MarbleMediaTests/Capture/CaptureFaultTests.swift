import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

extension CaptureTests {
    @Suite("No server, a server that dies and comes back, stopping in every state", .ownThread,
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
            do {
                try capture.start()
                Issue.record("started with no server")
            } catch {
                #expect(error.kind == .device)
                #expect(error.message.hasPrefix("no PulseAudio server is running: "), "\(error.message)")
                #expect(error.message.hasSuffix("; start one or pass --wait"), "\(error.message)")
                #expect(!error.message.contains("\n"))
            }
            #expect(capture.state == .stopped)
        }

        @Test("a server that never answers: start gives up once the capture's clock passes 5 s, not before")
        func silentServer() throws {
            let directory = CaptureTools.makeDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let socket = try SilentSocket(path: "\(directory)/pulse/native")
            defer { socket.close() }
            let clock = ManualClock()
            let capture = try AudioCapture(options: options(directory), clock: RealTimePacer(clock: clock))
            let outcome = Recorder<String>()
            Thread.detachNewThread {
                do throws(MarbleError) {
                    try capture.start()
                    outcome.append("started")
                } catch {
                    outcome.append(error.message)
                }
            }
            // Once the start has begun (its time is 0 on the clock: the start publishes .connecting
            // before it waits).
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { capture.state == .connecting })
            // At 4.9 s on the capture's clock the ticker has filled exactly 4.9 s of silence (the
            // timeline follows the clock, not the wall) and the start still waits.
            clock.advance(by: .milliseconds(4_900))
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { capture.buffer.written >= 235_200 })
            #expect(capture.buffer.written == 235_200 && capture.buffer.silenceFilled == 235_200)
            #expect(outcome.all.isEmpty, "\(outcome.all)")
            // Past 5 s the next tick gives up. (libpulse's own 30 s wait for the server's reply, on the
            // wall clock, would end the start otherwise: "Timeout".)
            clock.advance(by: .milliseconds(200))
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { !outcome.all.isEmpty })
            #expect(outcome.all == ["the PulseAudio server did not answer within 5 s"])
            #expect(capture.state == .stopped)
        }

        @Test("waiting for a server: start returns, silence flows, and capture begins once one starts")
        func waitsForServer() throws {
            let directory = CaptureTools.makeDirectory()
            let capture = try AudioCapture(options: options(directory, wait: true))
            try capture.start()  // returns without waiting for a server: it cannot, none is there
            defer { capture.stop() }
            #expect(capture.state == .connecting)
            // The timeline moves with silence meanwhile.
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { capture.buffer.written >= 9_600 })
            #expect(capture.buffer.silenceFilled == capture.buffer.written)
            #expect(capture.state == .connecting)

            let server = try TestPulseServer(directory: directory)
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { capture.state == .capturing(source: "viz.monitor") }, "state \(capture.state)")
            try server.play(CaptureTools.tone(1000))
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { Heard.tone(capture.buffer, frequency: 1000) })
        }

        @Test("the server dies: only silence while reconnecting, then capture resumes on its return")
        func reconnects() throws {
            let server = try TestPulseServer()
            let capture = try AudioCapture(options: options(server.directory))
            let heard = Recorder<CaptureState>()
            capture.onStateChange = { heard.append($0) }
            try capture.start()
            defer { capture.stop() }
            try server.play(CaptureTools.tone(1000))
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { Heard.tone(capture.buffer, frequency: 1000) })

            server.stop(signal: SIGKILL)
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { capture.state.reconnectReason != nil }, "state \(capture.state)")
            let wentAway = pollBlocking(timeout: CaptureTools.failsafe) {
                heard.all.contains { $0.reconnectReason?.hasPrefix("PulseAudio server went away: ") == true }
            }
            #expect(wentAway, "states \(heard.all)")

            // Without a server the timeline goes on, all of it silence: half a second of samples
            // counted in the buffer (how fast it goes is the pacer's rule, checked on a test clock in
            // silentServer and CapturePacerTests).
            let written = capture.buffer.written, silence = capture.buffer.silenceFilled
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { capture.buffer.written >= written + 24_000 })
            let advanced = capture.buffer.written - written
            #expect(capture.buffer.silenceFilled - silence == advanced)
            #expect(capture.state.reconnectReason != nil, "state \(capture.state)")

            // Back once the server is: the retries (every 250 ms on the capture's clock, see
            // CaptureRetryPolicyTests) reach it.
            try server.start()
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { capture.state == .capturing(source: "viz.monitor") }, "state \(capture.state)")
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { heard.all.last == .capturing(source: "viz.monitor") }, "states \(heard.all)")
            try server.play(CaptureTools.tone(1500))
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { Heard.tone(capture.buffer, frequency: 1500) })
        }

        @Test("stop() returns promptly while connecting, capturing and reconnecting, and from the handler")
        func stopsPromptly() throws {
            // Connecting: no server, waiting for one.
            let directory = CaptureTools.makeDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let waiting = try AudioCapture(options: options(directory, wait: true))
            try waiting.start()
            #expect(waiting.state == .connecting)
            stopTwice(waiting)

            // Capturing.
            let server = try TestPulseServer()
            let capturing = try AudioCapture(options: options(server.directory))
            try capturing.start()
            #expect(capturing.state == .capturing(source: "viz.monitor"))
            stopTwice(capturing)

            // Reconnecting.
            let reconnecting = try AudioCapture(options: options(server.directory))
            try reconnecting.start()
            server.stop()
            #expect(pollBlocking(timeout: CaptureTools.failsafe) { reconnecting.state.reconnectReason != nil })
            stopTwice(reconnecting)
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
            let stopped = pollBlocking(timeout: CaptureTools.failsafe) { selfStopping.state == .stopped && states.all.last == .stopped }
            #expect(stopped, "states \(states.all)")
        }

        /// Stops `capture` twice and checks it ended stopped. That stop() returns is the verdict (it
        /// never waits on the server: a hang would hold the test until the run's own time limit); how
        /// long it took depends on the machine's load, so it is not one.
        private func stopTwice(_ capture: AudioCapture, sourceLocation: SourceLocation = #_sourceLocation) {
            capture.stop()
            capture.stop()
            #expect(capture.state == .stopped, sourceLocation: sourceLocation)
        }
    }
}
