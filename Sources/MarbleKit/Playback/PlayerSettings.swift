import Foundation
import Granite

/// What `marble play` remembers between runs: the preset and the sensitivity.
///
/// Decoding is forgiving: a missing key takes its default and the sensitivity is clamped, so an
/// older or hand-edited file still loads (a file that is not JSON at all gives the defaults and a
/// warning, see `GranitePersistence`).
public struct PlayerSettings: GraniteState {
    /// The preset name, or `nil` for the first available one.
    public var preset: String?
    /// Within ``Sensitivity/range``.
    public var sensitivity: Float

    /// Settings with the given preset (nil: the first available) and sensitivity.
    public init(preset: String? = nil, sensitivity: Float = Sensitivity.default) {
        self.preset = preset
        self.sensitivity = Sensitivity.clamped(sensitivity)
    }

    private enum CodingKeys: String, CodingKey { case preset, sensitivity }

    /// Decodes the settings file; a missing sensitivity is the default, and one out of range is clamped.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        preset = try container.decodeIfPresent(String.self, forKey: .preset)
        sensitivity = Sensitivity.clamped(
            try container.decodeIfPresent(Float.self, forKey: .sensitivity) ?? Sensitivity.default)
    }

    /// Encodes `preset` (when set) and `sensitivity`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(preset, forKey: .preset)
        try container.encode(sensitivity, forKey: .sensitivity)
    }
}

/// The Center of the persisted settings store: it only records what the player chose.
public struct PlayerSettingsCenter: GraniteCenter {
    /// The remembered settings.
    public typealias State = PlayerSettings

    /// What can happen to the remembered settings.
    public enum Event: Equatable, Sendable {
        /// The player's preset or sensitivity changed; these are its new settings.
        case playerSettingsChanged(PlayerSettings)
    }

    /// The settings reducer (it has no configuration).
    public init() {}

    /// Records the player's new settings; no effects (saving is the store's persistence).
    public func reduce(state: inout PlayerSettings, event: Event) -> GraniteEffect<Event> {
        switch event {
        case .playerSettingsChanged(let settings): state = settings
        }
        return .none
    }
}
