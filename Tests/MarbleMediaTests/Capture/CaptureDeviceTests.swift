import Foundation
import MarbleCore
@testable import MarbleMedia
import TestSupport
import Testing

extension CaptureTests {
    @Suite("Sources of a real PulseAudio server", .ownThread,
           .enabled(if: CaptureTools.available, CaptureTools.missingNote))
    struct Devices {
        @Test("the list marks the default sink's monitor, and follows a change of the default sink")
        func listMarksDefaultMonitor() throws {
            let server = try TestPulseServer()
            let devices = try CaptureDevices.list(server: server.serverString)
            let viz = try #require(devices.first { $0.name == "viz.monitor" }, "sources: \(devices.map(\.name))")
            #expect(viz.isMonitor && viz.isDefaultMonitor)
            #expect(viz.sampleRate == 48_000 && viz.channels == 2)
            #expect(!viz.description.isEmpty)

            try server.addSink("viz2")
            try server.addSink("mic")
            try server.pactl("set-default-sink", "viz2")
            try server.pactl("set-default-source", "mic.monitor")
            let after = try CaptureDevices.list(server: server.serverString)
            #expect(after.filter(\.isDefaultMonitor).map(\.name) == ["viz2.monitor"])
            #expect(after.first { $0.name == "viz.monitor" }?.isDefaultMonitor == false)
            #expect(after.filter(\.isDefaultSource).map(\.name) == ["mic.monitor"])
        }

        @Test("listing with no server fails with one line")
        func listWithoutServer() throws {
            let directory = CaptureTools.makeDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            do {
                let devices = try CaptureDevices.list(server: "unix:\(directory)/pulse/native")
                Issue.record("listed \(devices.count) sources with no server")
            } catch {
                #expect(error.kind == .device)
                #expect(error.message.hasPrefix("no PulseAudio server is running ("), "\(error.message)")
                #expect(!error.message.contains("\n"))
            }
        }

        @Test("an unknown source is an option error listing the available ones")
        func unknownSource() throws {
            let server = try TestPulseServer()
            var options = CaptureOptions(source: "nope")
            options.server = server.serverString
            let capture = try AudioCapture(options: options)
            do {
                try capture.start()
                Issue.record("started on an unknown source")
            } catch {
                #expect(error.kind == .option)
                #expect(error.message.contains("unknown source \"nope\""), "\(error.message)")
                #expect(error.message.contains("viz.monitor"), "\(error.message)")
                #expect(!error.message.contains("\n"))
            }
            #expect(capture.state == .stopped)
        }

        @Test("options out of range are refused before anything connects", arguments: [
            (4_000, 0.01), (400_000, 0.01), (48_000, 0.001), (48_000, 0.2), (48_000, .nan),
        ])
        func invalidOptions(rate: Int, fragment: Double) {
            var options = CaptureOptions()
            options.sampleRate = rate
            options.fragmentSeconds = fragment
            #expect(throws: MarbleError.self) { try AudioCapture(options: options) }
            #expect(throws: Never.self) { try CaptureOptions().validate() }
        }
    }
}
