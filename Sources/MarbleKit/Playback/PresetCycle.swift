/// Stepping through the available presets with the n/p keys, shared by the player and live sessions.
enum PresetCycle {
    /// The preset `offset` places from `current` in `available`, wrapping around; from no current
    /// preset (or an unknown one), the first (forwards) or the last (backwards). Nil when none are available.
    static func step(from current: String?, by offset: Int, in available: [String]) -> String? {
        let count = available.count
        guard count > 0 else { return current }
        if let index = current.flatMap({ available.firstIndex(of: $0) }) {
            return available[((index + offset) % count + count) % count]
        }
        return offset >= 0 ? available[0] : available[count - 1]
    }
}
