import Foundation

/// Turns beat times into per-frame `isBeat`, `beatPhase`, `beatPulse` and `beatIndex`, the same way
/// for a precomputed grid (offline) and for beats arriving live.
struct BeatClock {
    /// Beat times from an offline tracker, ascending (empty = live).
    private var grid: [Double] = []
    private var cursor = 0
    private(set) var lastBeat: Double = -1
    private(set) var beatIndex = -1
    private var pendingBeat = false
    private var gridTempo: Double = 0
    var pulseDecay: Double = 0.25

    var hasGrid: Bool { !grid.isEmpty }

    /// Installs an offline beat grid (seconds). Frames after it use the grid from then on.
    mutating func setGrid(_ times: [Double], tempo: Double) {
        grid = times.filter { $0.isFinite }.sorted()
        gridTempo = tempo
        cursor = 0
        lastBeat = -1
        beatIndex = -1
    }

    /// Records a live beat at `time` (seconds).
    mutating func liveBeat(at time: Double) {
        lastBeat = time
        beatIndex += 1
        pendingBeat = true
    }

    /// Fills the rhythm fields for the frame `[start, end)`. `livePeriod` is the live beat period in
    /// seconds (0 = unknown). Returns (isBeat, phase, pulse, tempoBPM).
    mutating func frame(start: Double, end: Double, livePeriod: Double) -> (Bool, Float, Float, Float) {
        var isBeat = false
        var period = livePeriod
        if !grid.isEmpty {
            while cursor < grid.count, grid[cursor] < end {
                if grid[cursor] >= start { isBeat = true }
                lastBeat = grid[cursor]
                beatIndex = cursor
                cursor += 1
            }
            if beatIndex >= 0, cursor < grid.count { period = grid[cursor] - lastBeat }
            else if beatIndex >= 1 { period = grid[beatIndex] - grid[beatIndex - 1] }
            else if cursor < grid.count, cursor + 1 < grid.count { period = grid[cursor + 1] - grid[cursor] }
            else { period = gridTempo > 0 ? 60 / gridTempo : 0 }
        } else {
            isBeat = pendingBeat
            pendingBeat = false
        }
        guard lastBeat >= 0, period > 0 else { return (false, 0, 0, 0) }
        // Past the end of the grid: stop pulsing a beat later.
        if !grid.isEmpty, cursor >= grid.count, start - lastBeat > 1.5 * period { return (false, 0, 0, Float(60 / period)) }
        let since = max(0, start - lastBeat)
        let phase = isBeat ? 0 : Float(min(1, since / period))
        let pulse = isBeat ? 1 : Float(exp(-since / max(1e-3, pulseDecay * period)))
        let tempo = hasGrid && gridTempo > 0 ? gridTempo : 60 / period
        return (isBeat, phase, pulse, Float(tempo))
    }
}
