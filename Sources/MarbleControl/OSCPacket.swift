/// Decodes an OSC 1.0 packet (one UDP datagram): a message, or a bundle (`#bundle`, a time tag, then
/// elements each preceded by its size) of messages and nested bundles. Bundles are applied at once:
/// their time tag is read and ignored, as most OSC receivers do.
///
/// The bytes come from the network, so every length and count is checked against the bytes left
/// before it is used, and the packet's size bounds everything: no read past the end, no allocation
/// larger than the datagram, at most ``maxMessages`` messages and ``maxDepth`` levels of bundles.
package enum OSCPacket {
    /// The largest datagram read (a UDP payload over IPv4 cannot be larger).
    package static let maxBytes = 65_507
    /// Messages kept from one packet; a bundle with more is refused whole.
    package static let maxMessages = 256
    /// Bundles inside bundles.
    package static let maxDepth = 8
    /// Arguments of one message.
    package static let maxArguments = 64

    /// Why a packet was refused: one short sentence.
    package struct Malformed: Error, Equatable, Sendable, CustomStringConvertible {
        /// What was wrong.
        package let reason: String
        /// The reason.
        package var description: String { reason }
    }

    /// The messages in `bytes`, in order (a bundle's in its order, depth first).
    /// - Throws: ``Malformed`` for anything that is not a well-formed OSC 1.0 packet within the bounds.
    package static func decode(_ bytes: [UInt8]) throws(Malformed) -> [OSCMessage] {
        guard bytes.count <= maxBytes else { throw Malformed(reason: "a packet of \(bytes.count) bytes is too large") }
        var messages: [OSCMessage] = []
        var reader = Reader(bytes: bytes[...])
        try element(&reader, depth: 0, into: &messages)
        return messages
    }

    private static let bundleTag: [UInt8] = Array("#bundle".utf8) + [0]

    private static func element(_ reader: inout Reader, depth: Int, into messages: inout [OSCMessage]) throws(Malformed) {
        if reader.rest.starts(with: bundleTag) {
            try bundle(&reader, depth: depth, into: &messages)
        } else {
            guard messages.count < maxMessages else { throw Malformed(reason: "more than \(maxMessages) messages in one packet") }
            messages.append(try message(&reader))
            guard reader.rest.isEmpty else { throw Malformed(reason: "\(reader.rest.count) bytes after the message's arguments") }
        }
    }

    private static func bundle(_ reader: inout Reader, depth: Int, into messages: inout [OSCMessage]) throws(Malformed) {
        guard depth < maxDepth else { throw Malformed(reason: "bundles nested more than \(maxDepth) deep") }
        _ = try reader.take(bundleTag.count)
        _ = try reader.take(8)   // the time tag: applied at once
        while !reader.rest.isEmpty {
            let size = Int(try reader.uint32())
            guard size > 0, size % 4 == 0, size <= reader.rest.count else {
                throw Malformed(reason: "a bundle element of \(size) bytes where \(reader.rest.count) remain")
            }
            var inner = Reader(bytes: try reader.take(size))
            try element(&inner, depth: depth + 1, into: &messages)
        }
    }

    private static func message(_ reader: inout Reader) throws(Malformed) -> OSCMessage {
        let address = try reader.string()
        guard address.hasPrefix("/") else { throw Malformed(reason: "an address that does not start with /") }
        // A message without type tags (old senders) has no arguments.
        guard !reader.rest.isEmpty else { return OSCMessage(address) }
        let tags = try reader.string()
        guard tags.hasPrefix(",") else { throw Malformed(reason: "type tags that do not start with ,") }
        guard tags.utf8.count - 1 <= maxArguments else { throw Malformed(reason: "more than \(maxArguments) arguments") }
        var arguments: [OSCMessage.Argument] = []
        for tag in tags.utf8.dropFirst() {
            arguments.append(try argument(tag, &reader))
        }
        return OSCMessage(address, arguments)
    }

    private static func argument(_ tag: UInt8, _ reader: inout Reader) throws(Malformed) -> OSCMessage.Argument {
        switch tag {
        case UInt8(ascii: "i"): return .int(Int64(Int32(bitPattern: try reader.uint32())))
        case UInt8(ascii: "h"): return .int(Int64(bitPattern: try reader.uint64()))
        case UInt8(ascii: "f"): return .float(Double(Float(bitPattern: try reader.uint32())))
        case UInt8(ascii: "d"): return .float(Double(bitPattern: try reader.uint64()))
        case UInt8(ascii: "s"), UInt8(ascii: "S"): return .string(try reader.string())
        case UInt8(ascii: "b"):
            let size = Int(try reader.uint32())
            guard size <= reader.rest.count else { throw Malformed(reason: "a blob of \(size) bytes where \(reader.rest.count) remain") }
            let blob = Array(try reader.take(size))
            _ = try reader.take((4 - size % 4) % 4)
            return .blob(blob)
        case UInt8(ascii: "T"): return .bool(true)
        case UInt8(ascii: "F"): return .bool(false)
        case UInt8(ascii: "N"), UInt8(ascii: "I"): return .none
        case UInt8(ascii: "t"): _ = try reader.uint64(); return .none   // a time tag argument
        case UInt8(ascii: "c"), UInt8(ascii: "r"), UInt8(ascii: "m"): return .int(Int64(try reader.uint32()))
        default: throw Malformed(reason: "an unknown type tag \(tag < 128 && tag >= 32 ? String(UnicodeScalar(tag)) : "byte \(tag)")")
        }
    }

    /// A cursor over the packet's bytes that refuses to read past the end.
    private struct Reader {
        var rest: ArraySlice<UInt8>

        init(bytes: ArraySlice<UInt8>) { rest = bytes }

        mutating func take(_ count: Int) throws(Malformed) -> ArraySlice<UInt8> {
            guard count >= 0, count <= rest.count else { throw Malformed(reason: "the packet ends in the middle of a value") }
            defer { rest = rest.dropFirst(count) }
            return rest.prefix(count)
        }

        mutating func uint32() throws(Malformed) -> UInt32 {
            try take(4).reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func uint64() throws(Malformed) -> UInt64 {
            try take(8).reduce(0) { $0 << 8 | UInt64($1) }
        }

        /// A string: UTF-8 up to a NUL, padded with NULs to a multiple of four bytes.
        mutating func string() throws(Malformed) -> String {
            guard let end = rest.firstIndex(of: 0) else { throw Malformed(reason: "a string without its terminating NUL") }
            let length = end - rest.startIndex
            let padded = (length / 4 + 1) * 4
            let bytes = try take(padded)
            guard bytes.dropFirst(length).allSatisfy({ $0 == 0 }) else { throw Malformed(reason: "a string padded with other bytes than NUL") }
            guard let text = String(validating: bytes.prefix(length), as: UTF8.self) else {
                throw Malformed(reason: "a string that is not UTF-8")
            }
            return text
        }
    }
}
