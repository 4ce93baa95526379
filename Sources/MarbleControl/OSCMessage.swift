/// One Open Sound Control message: an address (`/marble/preset`) and its arguments, as OSC 1.0 sends
/// them over UDP. Decoded from untrusted datagrams by ``OSCPacket``, which never trusts a length it
/// reads before checking it against the bytes that are really there.
package struct OSCMessage: Equatable, Sendable {
    /// One argument, by its type tag.
    package enum Argument: Equatable, Sendable {
        /// `i` (int32) and `h` (int64).
        case int(Int64)
        /// `f` (float32) and `d` (float64).
        case float(Double)
        /// `s` and `S` (symbol): UTF-8 text.
        case string(String)
        /// `b`: bytes (kept for completeness; no Marble message takes one).
        case blob([UInt8])
        /// `T` and `F`.
        case bool(Bool)
        /// `N` (nil) and `I` (impulse, "bang"): no value.
        case none

        /// The argument as a number, when it is one (an int, a float or a bool).
        package var number: Double? {
            switch self {
            case .int(let v): Double(v)
            case .float(let v): v
            case .bool(let v): v ? 1 : 0
            default: nil
            }
        }

        /// The argument as text, when it is a string.
        package var text: String? {
            if case .string(let s) = self { s } else { nil }
        }
    }

    /// The address pattern, starting with `/`.
    package var address: String
    /// The arguments, in order.
    package var arguments: [Argument]

    /// A message to `address` with `arguments`.
    package init(_ address: String, _ arguments: [Argument] = []) {
        self.address = address
        self.arguments = arguments
    }
}

extension OSCMessage {
    /// The message as OSC 1.0 bytes (what a sender puts in a datagram): the padded address, the type
    /// tags, then each argument big-endian and padded to four bytes. Used by tests and `marble`'s own
    /// senders; the decoder is ``OSCPacket/decode(_:)``.
    package var encoded: [UInt8] {
        var bytes: [UInt8] = []
        OSCMessage.appendString(address, to: &bytes)
        var tags = ","
        var payload: [UInt8] = []
        for argument in arguments {
            switch argument {
            case .int(let v):
                if let small = Int32(exactly: v) {
                    tags += "i"; OSCMessage.appendBigEndian(UInt32(bitPattern: small), to: &payload)
                } else {
                    tags += "h"; OSCMessage.appendBigEndian(UInt64(bitPattern: v), to: &payload)
                }
            case .float(let v):
                if let single = Float(exactly: v) {
                    tags += "f"; OSCMessage.appendBigEndian(single.bitPattern, to: &payload)
                } else {
                    tags += "d"; OSCMessage.appendBigEndian(v.bitPattern, to: &payload)
                }
            case .string(let s): tags += "s"; OSCMessage.appendString(s, to: &payload)
            case .blob(let b):
                tags += "b"
                OSCMessage.appendBigEndian(UInt32(b.count), to: &payload)
                payload += b
                payload += [UInt8](repeating: 0, count: (4 - b.count % 4) % 4)
            case .bool(let v): tags += v ? "T" : "F"
            case .none: tags += "N"
            }
        }
        OSCMessage.appendString(tags, to: &bytes)
        return bytes + payload
    }

    private static func appendString(_ s: String, to bytes: inout [UInt8]) {
        bytes += Array(s.utf8)
        bytes += [UInt8](repeating: 0, count: 4 - s.utf8.count % 4)
    }

    private static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }
}
