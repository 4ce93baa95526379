import Granite
@testable import MarbleKit
import MarbleRender
import TestSupport
import Testing

/// What changes the look while a session plays (OSC, a saved preset file), reduced by the same store
/// as the keys: each event's effect on the state asserted by the test store.
@Suite struct LookChangesTests {
    static let presets = ["aura", "bars", "magma"]
    static let speed = ParameterChange(layer: 0, name: "speed", value: .number(2))

    @Test("a parameter set is kept per layer and name (a new value replaces the old); a new preset drops them")
    func parameters() async {
        let store = makeSessionTestStore(presets: Self.presets, client: SessionClient(load: { _ in 1 }))
        await store.send(.controls(.presetSelected(name: "bars"))) { $0.preset = "bars" }
        await store.send(.controls(.parameterSet(Self.speed))) { $0.look.set(Self.speed) }
        let faster = ParameterChange(layer: 0, name: "speed", value: .number(3))
        await store.send(.controls(.parameterSet(faster))) {
            $0.look.set(faster)
            #expect($0.look.parameters == [faster])
            #expect($0.look.parameterRevision == 2)
        }
        await store.send(.controls(.parameterSet(faster)))   // the same value again changes nothing
        await store.send(.controls(.nextPresetRequested)) {
            $0.preset = "magma"
            $0.look.presetChanged()
            #expect($0.look.parameters.isEmpty && $0.look.parameterRevision == 3)
        }
        await store.finish()
    }

    @Test("the current preset's file saved: drawn again; saved with an error: the error shows, the look stays; another preset's save changes nothing")
    func fileSaves() async {
        let store = makeSessionTestStore(presets: Self.presets, client: SessionClient(load: { _ in 1 }))
        await store.send(.controls(.presetSelected(name: "bars"))) { $0.preset = "bars" }
        await store.send(.controls(.presetFileSaved(name: "bars", error: nil))) {
            $0.look.fileSaved(error: nil)
            #expect($0.look.fileRevision == 1)
        }
        await store.send(.controls(.presetFileSaved(name: "bars", error: "bars.yaml: line 3: bad"))) {
            $0.look.fileSaved(error: "bars.yaml: line 3: bad")
            #expect($0.look.fileRevision == 1 && $0.presetLabel(fixed: nil) == "bars [not reloaded: bars.yaml: line 3: bad]")
        }
        await store.send(.controls(.presetFileSaved(name: "magma", error: nil)))
        await store.send(.controls(.presetFileSaved(name: "bars", error: nil))) {
            $0.look.fileSaved(error: nil)
            #expect($0.look.fileError == nil && $0.look.fileRevision == 2)
        }
        await store.finish()
    }

    @Test("sensitivity set to a value is clamped; flashes and MilkDrop skips count up")
    func cues() async {
        let store = makeSessionTestStore(input: .capture(source: nil), presets: Self.presets, client: SessionClient())
        await store.send(.controls(.sensitivitySet(2.5))) { $0.sensitivity = 2.5 }
        await store.send(.controls(.sensitivitySet(1000))) { $0.sensitivity = Sensitivity.range.upperBound }
        await store.send(.controls(.flashRequested)) { $0.look.flash() }
        await store.send(.controls(.flashRequested)) { $0.look.flash(); #expect($0.look.flashes == 2) }
        await store.send(.controls(.milkdropNextRequested)) { $0.look.skip(); #expect($0.look.skips == 1) }
        await store.finish()
    }

    @Test("at most 256 different parameters are kept; one already set can still change")
    func bounded() {
        var look = LookChanges()
        for i in 0..<LookChanges.maxParameters {
            let kept = look.set(ParameterChange(layer: 0, name: "p\(i)", value: .number(1)))
            #expect(kept)
        }
        let oneMore = look.set(ParameterChange(layer: 0, name: "one more", value: .number(1)))
        let changed = look.set(ParameterChange(layer: 0, name: "p0", value: .number(2)))
        #expect(!oneMore && changed)
        #expect(look.parameters.count == LookChanges.maxParameters && look.parameters[0].value == .number(2))
    }

    @Test("a good save of the preset's file drops the parameters set while playing: the file is the look now")
    func saveDropsParameters() {
        var look = LookChanges()
        look.set(Self.speed)
        look.fileSaved(error: "line 2: bad")
        #expect(look.parameters == [Self.speed], "a bad save changes nothing drawn")
        look.fileSaved(error: nil)
        #expect(look.parameters.isEmpty && look.parameterRevision == 2 && look.fileRevision == 1 && look.fileError == nil)
    }

    @Test("the renderer's choice carries the preset and every counter")
    func choice() {
        var look = LookChanges()
        look.fileSaved(error: nil)
        look.set(Self.speed)
        look.flash()
        look.skip()
        let choice = look.choice(preset: "bars")
        #expect(choice.preset == "bars" && choice.parameters == [Self.speed] && choice.parameterRevision == 1)
        #expect(choice.flashes == 1 && choice.skips == 1 && choice.fileRevision == 1)
    }
}
