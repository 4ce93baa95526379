import MarbleControl
import MarbleRender

/// The OSC messages a session understands, and the events they become. Each is checked before it
/// becomes an event: the preset exists, the layer and parameter exist in the preset drawn now and the
/// value fits the parameter, the sensitivity is a finite number. What does not fit is refused with a
/// reason (counted by ``SessionRemote``), never sent.
///
/// | Address | Arguments | Event |
/// |---|---|---|
/// | `/marble/preset` | name (string) | ``ControlEvent/presetSelected(name:)`` |
/// | `/marble/next`, `/marble/previous` | none | ``ControlEvent/nextPresetRequested``, ``ControlEvent/previousPresetRequested`` |
/// | `/marble/param` | layer (index or shader name), parameter (string), value (number, string or bool) | ``ControlEvent/parameterSet(_:)`` |
/// | `/marble/sensitivity` | value (number) | ``ControlEvent/sensitivitySet(_:)`` |
/// | `/marble/flash` | none | ``ControlEvent/flashRequested`` |
/// | `/marble/milkdrop/next` | none | ``ControlEvent/milkdropNextRequested`` |
package enum OSCCommands {
    /// The addresses understood, for messages and docs.
    package static let addresses = ["/marble/preset", "/marble/next", "/marble/previous", "/marble/param", "/marble/sensitivity",
                            "/marble/flash", "/marble/milkdrop/next"]

    /// The event `message` asks for, checked against the preset names the session cycles through and
    /// the scene drawn now (nil when it could not be read); or why it is refused.
    package static func event(for message: OSCMessage, presets: [String], scene: Preset?) -> Result<ControlEvent, Refusal> {
        let a = message.arguments
        switch message.address {
        case "/marble/preset":
            guard a.count == 1, let name = a[0].text else { return .failure(.malformed("/marble/preset takes a preset name (s)")) }
            guard presets.contains(name) else { return .failure(.rejected("unknown preset \"\(name.prefix(64))\"")) }
            return .success(.presetSelected(name: name))
        case "/marble/next": return a.isEmpty ? .success(.nextPresetRequested) : .failure(.malformed("/marble/next takes no arguments"))
        case "/marble/previous":
            return a.isEmpty ? .success(.previousPresetRequested) : .failure(.malformed("/marble/previous takes no arguments"))
        case "/marble/sensitivity":
            guard a.count == 1, let value = a[0].number, value.isFinite else {
                return .failure(.malformed("/marble/sensitivity takes a finite number (f or i)"))
            }
            return .success(.sensitivitySet(Float(value)))
        case "/marble/flash": return a.isEmpty ? .success(.flashRequested) : .failure(.malformed("/marble/flash takes no arguments"))
        case "/marble/milkdrop/next":
            return a.isEmpty ? .success(.milkdropNextRequested) : .failure(.malformed("/marble/milkdrop/next takes no arguments"))
        case "/marble/param": return parameter(a, scene: scene)
        default: return .failure(.unknown("unknown address \(message.address.prefix(64))"))
        }
    }

    /// `/marble/param LAYER NAME VALUE`, checked against `scene`.
    private static func parameter(_ a: [OSCMessage.Argument], scene: Preset?) -> Result<ControlEvent, Refusal> {
        guard a.count == 3, let name = a[1].text else {
            return .failure(.malformed("/marble/param takes a layer (i or s), a parameter name (s) and a value"))
        }
        let value: ParameterValue
        switch a[2] {
        case .int(let v): value = .number(Double(v))
        case .float(let v) where v.isFinite: value = .number(v)
        case .string(let s): value = ParameterValue(parsing: s)
        case .bool(let b): value = .flag(b)
        default: return .failure(.malformed("/marble/param: the value must be a finite number, a string or a bool"))
        }
        guard let scene else { return .failure(.rejected("/marble/param: the scene drawn now could not be read")) }
        let reference: String
        switch a[0] {
        case .int(let i): reference = String(i)
        case .string(let s): reference = s
        default: return .failure(.malformed("/marble/param: the layer is an index (i) or a shader name (s)"))
        }
        guard let layer = scene.layerIndex(reference) else {
            return .failure(.rejected("\(scene.name) has no layer \(reference.prefix(64))"))
        }
        let change = ParameterChange(layer: layer, name: name, value: value)
        do throws(MarbleError) {
            _ = try scene.applying([change])
        } catch {
            return .failure(.rejected(error.message))
        }
        return .success(.parameterSet(change))
    }

    /// Why a message was not applied.
    package enum Refusal: Error, Equatable {
        /// Not a Marble address.
        case unknown(String)
        /// A Marble address with arguments of the wrong number or types.
        case malformed(String)
        /// Well formed, but it does not fit the session (an unknown preset, layer or parameter, a value
        /// out of range).
        case rejected(String)

        package var reason: String {
            switch self {
            case .unknown(let r), .malformed(let r), .rejected(let r): r
            }
        }
    }
}
