import MarbleControl
import MarbleCore
import MarbleRender
import Synchronization

/// OSC control of a running session (`--osc PORT`): the listener's messages become the session's
/// events (``OSCCommands``), sent to its store like the keys are, so every change goes through the
/// same reducer. Messages that are not understood, malformed or do not fit the session are counted
/// and ignored; the first few reasons are kept for the summary.
package final class SessionRemote: Sendable {
    /// How many messages were applied and ignored, and why the first ignored ones were.
    struct Tally: Equatable {
        var applied = 0, unknown = 0, malformed = 0, rejected = 0
        var reasons: [String] = []
        var ignored: Int { unknown + malformed + rejected }
    }

    private let listener: OSCListener
    private let presets: [String]
    private let fixedScene: Preset?
    private let state = Mutex<(tally: Tally, scene: (key: String, revision: Int, preset: Preset?)?)>((Tally(), nil))
    private static let keptReasons = 5

    /// Binds `address`; ``start(_:)`` listens.
    /// - Throws: `.device` when the port cannot be bound.
    package init(address: OSCListener.Address, presets: [String], fixedScene: Preset?) throws(MarbleError) {
        listener = try OSCListener(address)
        self.presets = presets
        self.fixedScene = fixedScene
    }

    /// The UDP port listened on.
    package var port: UInt16 { listener.port }

    /// What happened to the messages so far.
    var tally: Tally { state.withLock { $0.tally } }

    /// Listens, sending each message's event to `store`.
    package func start(_ store: SessionComponent) {
        listener.start(receive: { [self] messages in
            for message in messages { apply(message, store) }
        }, refuse: { [self] reason in
            count(.malformed("not OSC: \(reason)"))
        })
    }

    /// Stops listening (idempotent).
    package func stop() { listener.stop() }

    /// One line for the session's summary, or nil when no message came.
    var summary: String? {
        let t = tally
        guard t.applied + t.ignored > 0 else { return nil }
        var line = "osc: \(t.applied) message\(t.applied == 1 ? "" : "s") applied, \(t.ignored) ignored"
        if !t.reasons.isEmpty { line += " (\(t.reasons.joined(separator: "; ")))" }
        return line
    }

    private func apply(_ message: OSCMessage, _ store: SessionComponent) {
        let snapshot = store.snapshot
        let scene = self.scene(preset: snapshot.preset, revision: snapshot.look.fileRevision)
        switch OSCCommands.event(for: message, presets: presets, scene: scene) {
        case .success(let event):
            state.withLock { $0.tally.applied += 1 }
            store.send(.controls(event))
        case .failure(let refusal):
            count(refusal)
        }
    }

    private func count(_ refusal: OSCCommands.Refusal) {
        state.withLock {
            switch refusal {
            case .unknown: $0.tally.unknown += 1
            case .malformed: $0.tally.malformed += 1
            case .rejected: $0.tally.rejected += 1
            }
            if $0.tally.reasons.count < Self.keptReasons, !$0.tally.reasons.contains(refusal.reason) {
                $0.tally.reasons.append(refusal.reason)
            }
        }
    }

    /// The scene drawn now, to check parameter changes against: the caller's own, or the preset read
    /// once per name and file revision (on the listener's thread, never the frame path's).
    private func scene(preset: String?, revision: Int) -> Preset? {
        if let fixedScene { return fixedScene }
        guard let preset else { return nil }
        if let cached = state.withLock({ $0.scene }), cached.key == preset, cached.revision == revision { return cached.preset }
        let loaded = try? PresetLibrary.load(preset)
        state.withLock { $0.scene = (preset, revision, loaded) }
        return loaded
    }
}
