/// Going back: a preset's variables saved before a frame (to draw the same frame again) and a
/// restart from scratch (a seek backwards).
extension MilkPreset {
    /// Before a new frame: remembers the variables of both pools and the `rand` state.
    func saveState() {
        frameSnapshot.save(frameMemory)
        vertexSnapshot.save(vertexMemory)
    }

    /// Before drawing the same frame again: the variables as ``saveState()`` left them, so the frame's
    /// equations run from the same start (`megabuf` contents are not rewound).
    func restoreState() {
        frameSnapshot.restore(frameMemory)
        vertexSnapshot.restore(vertexMemory)
    }

    /// As freshly loaded: every variable 0, `megabuf` and `gmegabuf` empty, `rand` restarted, the
    /// init equations to run again.
    func restart() {
        frameMemory.resetVariables(); vertexMemory.resetVariables()
        frameMemory.buffer.clear(); vertexMemory.buffer.clear(); globalBuffer.clear()
        frameMemory.reseed(seed); vertexMemory.reseed(seed &+ 1)
        initialised = false
        nonFiniteFrames = 0
    }
}

/// A copy of a memory's variables and `rand` state, in storage allocated once.
struct MemorySnapshot {
    private var values = [Double](repeating: 0, count: ExpressionMemory.capacity)
    private var count = 0
    private var random: UInt64 = 0

    mutating func save(_ memory: ExpressionMemory) {
        count = memory.count
        let source = memory.values
        values.withUnsafeMutableBufferPointer { v in
            for i in 0..<count { v[i] = source[i] }
        }
        random = memory.randomState.pointee
    }

    func restore(_ memory: ExpressionMemory) {
        let target = memory.values
        values.withUnsafeBufferPointer { v in
            for i in 0..<min(count, memory.count) { target[i] = v[i] }
        }
        memory.randomState.pointee = random
    }
}
