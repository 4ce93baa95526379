@testable import MarbleKit
import MarbleControl
import MarbleRender
import Testing

/// The OSC messages a session understands: each becomes its event, checked against the session's
/// presets and the scene drawn now; everything else is refused with its kind and reason.
@Suite struct OSCCommandsTests {
    static let presets = ["aura", "bars"]
    static let scene = Preset(name: "t", layers: [LayerSpec(shader: "gradient"), LayerSpec(shader: "bars")])

    static func event(_ address: String, _ arguments: [OSCMessage.Argument] = []) -> Result<ControlEvent, OSCCommands.Refusal> {
        OSCCommands.event(for: OSCMessage(address, arguments), presets: presets, scene: scene)
    }

    @Test("each address becomes its event")
    func table() {
        #expect(Self.event("/marble/preset", [.string("bars")]) == .success(.presetSelected(name: "bars")))
        #expect(Self.event("/marble/next") == .success(.nextPresetRequested))
        #expect(Self.event("/marble/previous") == .success(.previousPresetRequested))
        #expect(Self.event("/marble/sensitivity", [.float(1.5)]) == .success(.sensitivitySet(1.5)))
        #expect(Self.event("/marble/sensitivity", [.int(2)]) == .success(.sensitivitySet(2)))
        #expect(Self.event("/marble/flash") == .success(.flashRequested))
        #expect(Self.event("/marble/milkdrop/next") == .success(.milkdropNextRequested))
    }

    @Test("/marble/param: the layer by index or shader name; numbers, words and flags, each checked against the shader")
    func parameters() {
        #expect(Self.event("/marble/param", [.int(1), .string("gap"), .float(0.5)])
                == .success(.parameterSet(ParameterChange(layer: 1, name: "gap", value: .number(0.5)))))
        #expect(Self.event("/marble/param", [.string("bars"), .string("count"), .int(32)])
                == .success(.parameterSet(ParameterChange(layer: 1, name: "count", value: .number(32)))))
        #expect(Self.event("/marble/param", [.string("gradient"), .string("from"), .string("#ff0000")])
                == .success(.parameterSet(ParameterChange(layer: 0, name: "from", value: .text("#ff0000")))))
        #expect(Self.event("/marble/param", [.int(1), .string("mirror"), .bool(true)])
                == .success(.parameterSet(ParameterChange(layer: 1, name: "mirror", value: .flag(true)))))
    }

    @Test("what does not fit the session is rejected with why", arguments: [
        ("/marble/preset", [OSCMessage.Argument.string("nope")], "unknown preset"),
        ("/marble/param", [.int(5), .string("gap"), .float(0.5)], "no layer 5"),
        ("/marble/param", [.string("magma"), .string("gap"), .float(0.5)], "no layer magma"),
        ("/marble/param", [.int(1), .string("nope"), .float(0.5)], "no parameter \"nope\""),
        ("/marble/param", [.int(1), .string("gap"), .float(5)], "gap"),
        ("/marble/param", [.int(1), .string("bottom_color"), .string("not a colour")], "bottom_color"),
    ])
    func rejected(address: String, arguments: [OSCMessage.Argument], reason: String) {
        guard case .failure(.rejected(let why)) = Self.event(address, arguments) else {
            Issue.record("not rejected: \(Self.event(address, arguments))")
            return
        }
        #expect(why.contains(reason), "\(why)")
    }

    @Test("wrong arguments are malformed; other addresses unknown", arguments: [
        ("/marble/preset", [OSCMessage.Argument](), true),
        ("/marble/preset", [.int(1)], true),
        ("/marble/next", [.int(1)], true),
        ("/marble/sensitivity", [.string("x")], true),
        ("/marble/sensitivity", [.float(.nan)], true),
        ("/marble/sensitivity", [.float(.infinity)], true),
        ("/marble/flash", [.float(1)], true),
        ("/marble/param", [.int(0), .string("angle")], true),
        ("/marble/param", [.float(0), .string("angle"), .float(1)], true),
        ("/marble/param", [.int(0), .string("angle"), .float(.nan)], true),
        ("/marble/param", [.int(0), .string("angle"), .blob([1])], true),
        ("/marble/other", [], false),
        ("/cava/preset", [.string("x")], false),
    ])
    func malformed(address: String, arguments: [OSCMessage.Argument], isMarble: Bool) {
        switch Self.event(address, arguments) {
        case .failure(.malformed): #expect(isMarble)
        case .failure(.unknown): #expect(!isMarble)
        case let other: Issue.record("accepted or rejected: \(other)")
        }
    }

    @Test("without a readable scene, parameters are rejected, the rest still works")
    func noScene() {
        let r = OSCCommands.event(for: OSCMessage("/marble/param", [.int(0), .string("angle"), .float(1)]), presets: [], scene: nil)
        guard case .failure(.rejected) = r else { Issue.record("\(r)"); return }
        #expect(OSCCommands.event(for: OSCMessage("/marble/flash"), presets: [], scene: nil) == .success(.flashRequested))
    }
}
