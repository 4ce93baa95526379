import MarbleCore

/// The named `Double` variables shared by one group of programs (e.g. a preset's per-frame code and its
/// init code), by slot, plus the group's `megabuf`, a link to the shared `gmegabuf`, and the state of its
/// `rand`.
///
/// Names are case-insensitive (ns-eel2 lower-cases them). Storage is one fixed block of
/// `ExpressionMemory.capacity` doubles allocated at init and never moved, so compiled programs keep raw
/// slot indices; interning a name past the capacity is the error "too many variables".
/// The names `reg00`…`reg99` are not stored here: as in ns-eel2 they are global registers, kept in the
/// `gmegabuf`'s `MegaBuffer` and so shared by every memory given the same global buffer.
package final class ExpressionMemory {
    /// Most variables one memory holds: far above real presets (MilkDrop 2 let a block add 64 variables of
    /// its own to the built-in ones; projectm-eval has no cap).
    package static let capacity = 4096

    /// This memory's `megabuf`.
    package let buffer: MegaBuffer
    /// The `gmegabuf` (and `reg00`…`reg99`) shared with other memories.
    package let globalBuffer: MegaBuffer

    let values: UnsafeMutablePointer<Double>
    /// The state of `rand` (xorshift64*), never 0.
    let randomState: UnsafeMutablePointer<UInt64>
    private var slots: [String: Int] = [:]
    private var names: [String] = []

    /// A memory whose `rand` sequence is fixed by `seed`; `globalBuffer` is the `gmegabuf` to share.
    package init(seed: UInt64 = 0, globalBuffer: MegaBuffer) {
        self.globalBuffer = globalBuffer
        buffer = MegaBuffer()
        values = .allocate(capacity: Self.capacity)
        values.initialize(repeating: 0, count: Self.capacity)
        randomState = .allocate(capacity: 1)
        randomState.initialize(to: 0)
        reseed(seed)
    }

    deinit {
        values.deallocate()
        randomState.deallocate()
    }

    /// The slot of `name` (case-insensitive), creating the variable at 0 the first time.
    package func slot(_ name: String) throws(ExpressionError) -> Int {
        let key = name.lowercased()
        if let s = slots[key] { return s }
        guard names.count < Self.capacity else {
            throw ExpressionError(offset: 0, message: "too many variables (more than \(Self.capacity))")
        }
        let s = names.count
        slots[key] = s
        names.append(key)
        return s
    }

    /// The slot of `name` if some program or caller interned it.
    package func existingSlot(_ name: String) -> Int? { slots[name.lowercased()] }

    /// The value in `slot`. One compare guards the fixed buffer in every build (a slot past the
    /// capacity traps instead of writing over the heap); debug builds also check the slot was interned.
    package subscript(slot: Int) -> Double {
        get {
            precondition(UInt(bitPattern: slot) < UInt(Self.capacity), "variable slot out of range")
            assert(slot < names.count, "variable slot never interned")
            return values[slot]
        }
        set {
            precondition(UInt(bitPattern: slot) < UInt(Self.capacity), "variable slot out of range")
            assert(slot < names.count, "variable slot never interned")
            values[slot] = newValue
        }
    }

    /// The value of variable `name`, 0 when it does not exist (does not intern it).
    package subscript(name: String) -> Double {
        existingSlot(name).map { values[$0] } ?? 0
    }

    /// The variables' names (lower-cased), in slot order: `variableNames[slot]`.
    package var variableNames: [String] { names }

    /// Number of variables interned so far.
    package var count: Int { names.count }

    /// Sets every variable back to 0 (the names and slots stay). `megabuf` is not touched.
    package func resetVariables() {
        values.update(repeating: 0, count: names.count)
    }

    /// Restarts the `rand` sequence as a fresh memory built with `seed` would have it.
    package func reseed(_ seed: UInt64) {
        // splitmix64 of the seed, so near seeds give unrelated sequences; xorshift needs a non-zero state.
        var mix = SplitMix64(seed: seed)
        let z = mix.next()
        randomState.pointee = z == 0 ? 0x2545_F491_4F6C_DD1D : z
    }
}
