import Foundation

/// Turns beat times into per-frame `isBeat`, `beatPhase`, `beatPulse`, `beatIndex` and bar position,
/// the same way for a precomputed grid (offline) and for beats arriving live.
struct BeatClock {
    struct Frame {
        var isBeat = false
        var isDownbeat = false
        /// 0 at a beat, rising to 1 at the next.
        var phase: Float = 0
        /// 1 at a beat, decaying.
        var pulse: Float = 0
        /// BPM (0 = unknown).
        var tempo: Float = 0
        /// 0 at a downbeat, rising to 1 at the next (0 when bars are unknown).
        var barPhase: Float = 0
    }

    /// Beat times from an offline tracker, ascending (empty = live).
    private var grid: [Double] = []
    /// For each grid beat, its position in the bar (0 = downbeat), or -1 when bars are unknown.
    private var barPosition: [Int] = []
    private var beatsPerBar = 0
    private var cursor = 0
    private(set) var lastBeat: Double = -1
    private(set) var beatIndex = -1
    private var pendingBeat = false
    private var gridTempo: Double = 0
    var pulseDecay: Double = 0.25

    var hasGrid: Bool { !grid.isEmpty }

    /// Installs an offline beat grid (seconds). `downbeats` must be a subset of `times` (matched within
    /// 5 ms); the bar length is the most common number of beats between them.
    mutating func setGrid(_ times: [Double], tempo: Double, downbeats: [Double] = []) {
        grid = times.filter { $0.isFinite }.sorted()
        gridTempo = tempo
        cursor = 0
        lastBeat = -1
        beatIndex = -1
        barPosition = [Int](repeating: -1, count: grid.count)
        beatsPerBar = 0
        var marks = [Int]()
        var d = downbeats.sorted()[...]
        for (i, t) in grid.enumerated() {
            while let first = d.first, first < t - 0.005 { d = d.dropFirst() }
            if let first = d.first, abs(first - t) <= 0.005 { marks.append(i); d = d.dropFirst() }
        }
        guard marks.count >= 2 else { return }
        var histogram = [Int: Int]()
        for (a, b) in zip(marks, marks.dropFirst()) { histogram[b - a, default: 0] += 1 }
        guard let bar = histogram.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key,
              bar >= 2 else { return }
        beatsPerBar = bar
        let anchor = marks[0]
        for i in grid.indices { barPosition[i] = ((i - anchor) % bar + bar) % bar }
    }

    /// Records a live beat at `time` (seconds).
    mutating func liveBeat(at time: Double) {
        lastBeat = time
        beatIndex += 1
        pendingBeat = true
    }

    /// The rhythm fields for the frame `[start, end)`. `livePeriod` is the live beat period in
    /// seconds (0 = unknown).
    mutating func frame(start: Double, end: Double, livePeriod: Double) -> Frame {
        var out = Frame()
        var period = livePeriod
        if !grid.isEmpty {
            while cursor < grid.count, grid[cursor] < end {
                if grid[cursor] >= start {
                    out.isBeat = true
                    if barPosition[cursor] == 0 { out.isDownbeat = true }
                }
                lastBeat = grid[cursor]
                beatIndex = cursor
                cursor += 1
            }
            if beatIndex >= 0, cursor < grid.count { period = grid[cursor] - lastBeat }
            else if beatIndex >= 1 { period = grid[beatIndex] - grid[beatIndex - 1] }
            else if cursor + 1 < grid.count { period = grid[cursor + 1] - grid[cursor] }
            else { period = gridTempo > 0 ? 60 / gridTempo : 0 }
        } else {
            out.isBeat = pendingBeat
            pendingBeat = false
        }
        guard lastBeat >= 0, period > 0 else { return Frame() }
        out.tempo = Float(hasGrid && gridTempo > 0 ? gridTempo : 60 / period)
        // Past the end of the grid: stop pulsing a beat later.
        if !grid.isEmpty, cursor >= grid.count, start - lastBeat > 1.5 * period {
            return Frame(tempo: out.tempo)
        }
        let since = max(0, start - lastBeat)
        out.phase = out.isBeat ? 0 : Float(min(1, since / period))
        out.pulse = out.isBeat ? 1 : Float(exp(-since / max(1e-3, pulseDecay * period)))
        if beatsPerBar > 0, beatIndex >= 0, barPosition[beatIndex] >= 0 {
            out.barPhase = min(1, (Float(barPosition[beatIndex]) + out.phase) / Float(beatsPerBar))
        }
        return out
    }
}
