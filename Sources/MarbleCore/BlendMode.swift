/// How a layer is combined with what is under it (premultiplied alpha, Porter-Duff "over" family).
public enum BlendMode: String, Sendable, CaseIterable, Codable {
    /// source over destination
    case normal
    /// destination + source, clamped: glows and light
    case add
    /// 1 − (1 − source)(1 − destination): brightens, never darker
    case screen
    /// source × destination (+ the uncovered parts of each): darkens, never brighter
    case multiply
}
