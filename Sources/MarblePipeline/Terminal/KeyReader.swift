/// A key the player understands.
package enum Key: Equatable, Sendable {
    /// A printable key, as typed (`q`, `n`, `+`, space).
    case character(Character)
    /// The arrow keys.
    case left, right, up, down
    /// Ctrl-C (arrives as byte 3 in raw mode).
    case interrupt
    /// Esc on its own.
    case escape
}

/// Parses terminal input bytes into keys, including the arrow keys' escape sequences in both cursor
/// modes (`ESC [ C` and `ESC O C`). Other CSI sequences (function keys, mouse) are consumed and
/// ignored. A sequence split across reads is completed by the next ``feed(_:_:)``; an Esc with
/// nothing after it becomes ``Key/escape`` on the next feed (pass an empty buffer when a read timed out).
package struct KeyReader: Sendable {
    /// Bytes of an unfinished escape sequence (at most a few).
    private var pending: [UInt8] = []

    /// A reader with nothing pending.
    package init() { pending.reserveCapacity(16) }

    /// Feeds bytes read from the terminal; calls `emit` for each complete key, in order.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Key) -> Void) {
        if bytes.isEmpty {
            if pending.count == 1 && pending[0] == 0x1B { emit(.escape) }
            pending.removeAll(keepingCapacity: true)
            return
        }
        for b in bytes { step(b, emit) }
    }

    private mutating func step(_ b: UInt8, _ emit: (Key) -> Void) {
        if pending.isEmpty {
            switch b {
            case 0x1B: pending.append(b)
            case 0x03: emit(.interrupt)
            case 0x20...0x7E: emit(.character(Character(Unicode.Scalar(b))))
            default: break  // other control bytes and UTF-8 are not keys the player uses
            }
            return
        }
        pending.append(b)
        if pending.count == 2 {
            if b == 0x5B || b == 0x4F { return }  // CSI or SS3 introducer: wait for more
            pending.removeAll(keepingCapacity: true)  // Alt+key: ignore both
            if b == 0x1B { pending.append(b) }
            return
        }
        guard (0x40...0x7E).contains(b) else {
            if pending.count > 16 { pending.removeAll(keepingCapacity: true) }  // runaway: drop
            return
        }
        let simple = pending.count == 3
        pending.removeAll(keepingCapacity: true)
        guard simple else { return }
        switch b {
        case 0x41: emit(.up)
        case 0x42: emit(.down)
        case 0x43: emit(.right)
        case 0x44: emit(.left)
        default: break
        }
    }
}
