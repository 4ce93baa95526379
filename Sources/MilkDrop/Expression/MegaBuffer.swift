/// One `megabuf`: ns-eel2's 8 Mi doubles (`MilkDropLimits.megabufEntries`), held in 128 blocks of 64 Ki
/// that are allocated, zero-filled, on the first write into them. Reading a block never written gives 0.
///
/// Every `ExpressionMemory` owns one for its `megabuf`; the `gmegabuf` is a `MegaBuffer` handed to
/// several memories (all the programs of a preset, or of several presets), so they share it. It also
/// carries ns-eel2's 100 global registers `reg00`…`reg99`, shared the same way.
///
/// Indices follow ns-eel2: the index is truncated after adding 0.0001 (so `2.99999` is 3); an index
/// outside 0..<8 Mi reads 0 and a write to it is dropped. Not thread-safe: one thread at a time.
package final class MegaBuffer {
    /// Entries of one lazily allocated block.
    package static let blockSize = 1 << 16
    /// Blocks of the whole buffer.
    package static let blockCount = MilkDropLimits.megabufEntries / blockSize

    /// `blockCount` block addresses, nil until the block is first written.
    let blocks: UnsafeMutablePointer<UnsafeMutablePointer<Double>?>
    /// The global registers `reg00`…`reg99`.
    let registers: UnsafeMutablePointer<Double>

    package init() {
        blocks = .allocate(capacity: Self.blockCount)
        blocks.initialize(repeating: nil, count: Self.blockCount)
        registers = .allocate(capacity: 100)
        registers.initialize(repeating: 0, count: 100)
    }

    deinit {
        for i in 0..<Self.blockCount { blocks[i]?.deallocate() }
        blocks.deallocate()
        registers.deallocate()
    }

    /// The entry at `index` (as ns-eel2 rounds it); 0 outside the buffer or in a block never written.
    package subscript(index: Double) -> Double {
        get { MegaBuffer.read(blocks, index) }
        set { MegaBuffer.write(blocks, index, newValue) }
    }

    /// Number of blocks allocated so far (a measure of the memory a preset took).
    package var allocatedBlocks: Int { (0..<Self.blockCount).reduce(0) { $0 + (blocks[$1] == nil ? 0 : 1) } }

    /// Sets every entry back to 0, keeping the blocks (no allocation).
    package func clear() {
        for i in 0..<Self.blockCount { blocks[i]?.update(repeating: 0, count: Self.blockSize) }
        registers.update(repeating: 0, count: 100)
    }

    /// ns-eel2's index rule: truncate `index + 0.0001`; -1 when outside the buffer (NaN included).
    @inline(__always)
    static func entry(_ index: Double) -> Int {
        let shifted = index + 0.0001
        guard shifted >= 0, shifted < Double(MilkDropLimits.megabufEntries) else { return -1 }
        return Int(shifted)
    }

    @inline(__always)
    static func read(_ blocks: UnsafeMutablePointer<UnsafeMutablePointer<Double>?>, _ index: Double) -> Double {
        let i = entry(index)
        guard i >= 0, let block = blocks[i >> 16] else { return 0 }
        return block[i & 0xFFFF]
    }

    /// Writes `value`; returns false (and writes nothing) outside the buffer.
    @inline(__always)
    @discardableResult
    static func write(_ blocks: UnsafeMutablePointer<UnsafeMutablePointer<Double>?>, _ index: Double, _ value: Double) -> Bool {
        let i = entry(index)
        guard i >= 0 else { return false }
        let block = blocks[i >> 16] ?? allocateBlock(blocks, i >> 16)
        block[i & 0xFFFF] = value
        return true
    }

    @inline(never)
    static func allocateBlock(_ blocks: UnsafeMutablePointer<UnsafeMutablePointer<Double>?>, _ b: Int) -> UnsafeMutablePointer<Double> {
        let block = UnsafeMutablePointer<Double>.allocate(capacity: blockSize)
        block.initialize(repeating: 0, count: blockSize)
        blocks[b] = block
        return block
    }
}
