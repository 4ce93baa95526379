@testable import MarbleKit
import Testing

/// The status row of songs played through the speakers.
@Suite struct StatusLineTests {
    static func text(_ content: StatusLine.Content) -> String {
        var line = StatusLine()
        line.update(content)
        return String(decoding: line.bytes, as: UTF8.self)
    }

    @Test("a file: transport, position / duration, preset, sensitivity; a playlist names the song too")
    func songTitle() {
        var content = StatusLine.Content(status: .playing, second: 62, duration: 185, preset: "aura", sensitivity: 1.25,
                                         fpsTenths: 299, dropped: 1)
        #expect(Self.text(content).hasPrefix(" playing  1:02 / 3:05  preset aura  sens 1.25  29.9 fps  dropped 1   [space] pause"))
        content.title = "second song"
        content.status = .paused
        #expect(Self.text(content).hasPrefix(" paused  second song  1:02 / 3:05  preset aura"))
    }
}
