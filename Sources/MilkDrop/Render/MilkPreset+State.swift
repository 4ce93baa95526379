/// Going back: a preset's variables saved before a frame (to draw the same frame again) and a
/// restart from scratch (a seek backwards).
extension MilkPreset {
    /// Before a new frame: remembers the variables of both pools and the `rand` state.
    func saveState() {
        for i in snapshots.indices { snapshots[i].save() }
    }

    /// Before drawing the same frame again: the variables as ``saveState()`` left them, so the frame's
    /// equations run from the same start (`megabuf` contents are not rewound).
    func restoreState() {
        for s in snapshots { s.restore() }
    }

    /// As freshly loaded: every variable 0, `megabuf` and `gmegabuf` empty, `rand` restarted, the
    /// init equations to run again.
    func restart() {
        frameMemory.resetVariables(); vertexMemory.resetVariables()
        frameMemory.buffer.clear(); vertexMemory.buffer.clear(); globalBuffer.clear()
        frameMemory.reseed(seed); vertexMemory.reseed(seed &+ 1)
        initialised = false
        nonFiniteFrames = 0
        for w in waves { w.restart() }
        for s in shapes { s.restart() }
    }
}

/// A copy of a memory's variables and `rand` state, in storage allocated once (programs create no
/// variables after compiling, so the count is fixed).
struct MemorySnapshot {
    let memory: ExpressionMemory
    private var values: [Double]
    private var random: UInt64 = 0

    init(_ memory: ExpressionMemory) {
        self.memory = memory
        values = [Double](repeating: 0, count: memory.count)
    }

    mutating func save() {
        let source = memory.values, n = min(values.count, memory.count)
        values.withUnsafeMutableBufferPointer { v in
            for i in 0..<n { v[i] = source[i] }
        }
        random = memory.randomState.pointee
    }

    func restore() {
        let target = memory.values, n = min(values.count, memory.count)
        values.withUnsafeBufferPointer { v in
            for i in 0..<n { target[i] = v[i] }
        }
        memory.randomState.pointee = random
    }
}
