import MarbleCore
@testable import MarbleKit
import Testing

/// The plan a real-time session makes from its options before it opens anything: what to open, what
/// the picture's size follows, how frames are dropped.
@Suite struct SessionPlanTests {
    @Test("live, shown only: the picture follows the window, else the terminal; nothing may lag")
    func liveShown() {
        var options = LiveOptions()
        var plan = SessionPlan.live(options)
        #expect(plan == SessionPlan(input: .capture(source: nil), transport: false, terminal: true, window: nil,
                                    width: 1280, height: 720, sizing: .terminal, policy: .realtime, lagAllowance: 0,
                                    outputs: []))
        options.window = true
        options.fullscreen = true
        plan = SessionPlan.live(options)
        #expect(plan.window == SessionPlan.Window(width: 1280, height: 720, fullscreen: true))
        #expect(plan.sizing == .window && plan.terminal && plan.watched)
    }

    @Test("live, recorded: the size is fixed; watched, a tenth of a second of lag; unwatched, half a second, buffered")
    func liveRecorded() {
        var options = LiveOptions()
        options.outputs = ["out.mp4"]
        options.fps = Rational(30)
        var plan = SessionPlan.live(options)
        #expect(plan.sizing == .fixed && plan.width == 1280 && plan.height == 720)
        #expect(plan.policy == .realtime && plan.lagAllowance == 3)
        options.terminal = false
        options.size = (640, 360)
        options.fps = Rational(60)
        plan = SessionPlan.live(options)
        #expect(!plan.watched && plan.policy == .realtimeBuffered && plan.lagAllowance == 30)
        #expect(plan.width == 640 && plan.height == 360 && plan.outputs == ["out.mp4"])
    }

    @Test("live with --size and nothing recorded: the size stays as asked")
    func liveFixedSize() {
        var options = LiveOptions()
        options.size = (320, 200)
        options.window = true
        let plan = SessionPlan.live(options)
        #expect(plan.sizing == .fixed && plan.window == SessionPlan.Window(width: 320, height: 200, fullscreen: false))
    }

    @Test("play: the terminal unless only a window was asked for; the picture follows the window, else the terminal")
    func play() {
        var options = PlayOptions(input: "song.mp3")
        #expect(SessionPlan.play(options) == SessionPlan(input: .file("song.mp3"), transport: true, terminal: true,
                                                         window: nil, width: 1280, height: 720, sizing: .terminal,
                                                         policy: .realtime, lagAllowance: 0, outputs: []))
        options.window = true
        options.terminal = false
        let windowOnly = SessionPlan.play(options)
        #expect(!windowOnly.terminal && windowOnly.sizing == .window)
        #expect(windowOnly.window == SessionPlan.Window(width: 1280, height: 720, fullscreen: false))
        options.terminal = false
        options.window = false
        #expect(SessionPlan.play(options).terminal, "neither: the terminal is opened, and says there is none")
    }

    @Test("the input: one file, songs (with --loop a playlist even of one), a capture's source, songs paced for outputs")
    func inputs() {
        var play = PlayOptions(songs: ["a.mp3", "b.flac"])
        #expect(SessionPlan.play(play).input == .playlist(["a.mp3", "b.flac"], loop: false))
        play = PlayOptions(input: "a.mp3")
        play.loop = true
        #expect(SessionPlan.play(play).input == .playlist(["a.mp3"], loop: true) && SessionPlan.play(play).transport)
        var live = LiveOptions()
        live.capture.source = "mic"
        #expect(SessionPlan.live(live).input == .capture(source: "mic") && !SessionPlan.live(live).transport)
        live.sound = .playlist(paths: ["a.mp3"], loop: true)
        live.outputs = ["out.mp4"]
        #expect(SessionPlan.live(live).input == .playlist(["a.mp3"], loop: true), "songs with outputs: no transport")
        #expect(!SessionPlan.live(live).transport)
    }
}
