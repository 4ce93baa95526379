import Testing
@testable import MarbleControl

@Suite("OSC packets: decoded from bytes as OSC 1.0 sends them, refused when they are not")
struct OSCPacketTests {
    /// "/a/b" padded to 8, ",if" padded to 4, int 7, float 1.5 (0x3FC00000).
    static let intAndFloat: [UInt8] = [0x2F, 0x61, 0x2F, 0x62, 0, 0, 0, 0,
                                       0x2C, 0x69, 0x66, 0,
                                       0, 0, 0, 7,
                                       0x3F, 0xC0, 0, 0]

    @Test("a message with an int and a float, written out byte by byte")
    func handWritten() throws {
        let messages = try OSCPacket.decode(Self.intAndFloat)
        #expect(messages == [OSCMessage("/a/b", [.int(7), .float(1.5)])])
    }

    @Test("a string whose length is a multiple of 4 takes four NULs of padding")
    func stringPadding() throws {
        // "/abc" is 4 bytes: 4 NULs follow; ",s" then 2 NULs; "tunl" then 4 NULs.
        let bytes: [UInt8] = Array("/abc".utf8) + [0, 0, 0, 0] + Array(",s".utf8) + [0, 0] + Array("tunl".utf8) + [0, 0, 0, 0]
        #expect(try OSCPacket.decode(bytes) == [OSCMessage("/abc", [.string("tunl")])])
    }

    @Test("every argument type survives encoding and decoding", arguments: [
        OSCMessage.Argument.int(-3), .int(Int64(Int32.max) + 1), .float(0.25), .float(1e300), .string(""),
        .string("héllo"), .blob([1, 2, 3]), .blob([]), .bool(true), .bool(false), .none,
    ])
    func roundTrip(argument: OSCMessage.Argument) throws {
        let message = OSCMessage("/marble/param", [.int(1), argument])
        #expect(message.encoded.count % 4 == 0)
        #expect(try OSCPacket.decode(message.encoded) == [message])
    }

    @Test("a bundle's messages come out in order, nested bundles depth first")
    func bundles() throws {
        let inner = Self.bundle([OSCMessage("/b").encoded, OSCMessage("/c", [.int(2)]).encoded])
        let outer = Self.bundle([OSCMessage("/a").encoded, inner, OSCMessage("/d").encoded])
        #expect(try OSCPacket.decode(outer).map(\.address) == ["/a", "/b", "/c", "/d"])
    }

    @Test("a message without type tags (old senders) has no arguments")
    func noTypeTags() throws {
        #expect(try OSCPacket.decode(Array("/marble/flash".utf8) + [0, 0, 0]) == [OSCMessage("/marble/flash")])
    }

    @Test("malformed packets are refused with a reason, never read past their end", arguments: [
        ([UInt8](), "NUL"),
        (Array("/abc".utf8), "NUL"),                                          // no terminating NUL
        (Array("abc".utf8) + [0], "start with /"),                            // no leading /
        (Array(OSCPacketTests.intAndFloat.dropLast(2)), "ends in the middle"), // float cut short
        (Array("/a".utf8) + [0, 0] + Array(",x".utf8) + [0, 0], "unknown type tag x"),
        (Array("/a".utf8) + [0, 1], "padded"),                                 // padding that is not NUL
        (Array("/a".utf8) + [0, 0] + Array(",b".utf8) + [0, 0] + [0x7F, 0xFF, 0xFF, 0xFF], "blob of"),
        (Array("/a".utf8) + [0, 0] + Array("x".utf8) + [0, 0, 0], "type tags"),
        (Array("/a".utf8) + [0, 0] + Array(",".utf8) + [0, 0, 0] + [1, 2, 3, 4], "after the message"),
        (Array("/".utf8) + [0xFF, 0, 0], "UTF-8"),
    ] as [([UInt8], String)])
    func malformed(bytes: [UInt8], reason: String) {
        #expect { try OSCPacket.decode(bytes) } throws: { error in
            (error as? OSCPacket.Malformed)?.reason.contains(reason) == true
        }
    }

    @Test("a bundle element whose size runs past the packet is refused")
    func bundleElementTooLong() {
        var bytes = Array("#bundle".utf8) + [0] + [UInt8](repeating: 0, count: 8)
        bytes += [0, 0, 1, 0] + OSCMessage("/a").encoded   // claims 256 bytes, has 8
        #expect(throws: OSCPacket.Malformed.self) { try OSCPacket.decode(bytes) }
    }

    @Test("bundles nested past the bound, and more messages than the bound, are refused")
    func bounds() {
        var nested = OSCMessage("/a").encoded
        for _ in 0...OSCPacket.maxDepth { nested = Self.bundle([nested]) }
        #expect { try OSCPacket.decode(nested) } throws: { ($0 as? OSCPacket.Malformed)?.reason.contains("nested") == true }
        let many = Self.bundle([[UInt8]](repeating: OSCMessage("/a").encoded, count: OSCPacket.maxMessages + 1))
        #expect { try OSCPacket.decode(many) } throws: { ($0 as? OSCPacket.Malformed)?.reason.contains("messages") == true }
        let tooMany = OSCMessage("/a", [OSCMessage.Argument](repeating: .none, count: OSCPacket.maxArguments + 1))
        #expect { try OSCPacket.decode(tooMany.encoded) } throws: { ($0 as? OSCPacket.Malformed)?.reason.contains("arguments") == true }
    }

    /// A bundle of `elements` (each an encoded packet) with a zero time tag.
    static func bundle(_ elements: [[UInt8]]) -> [UInt8] {
        var bytes = Array("#bundle".utf8) + [0] + [UInt8](repeating: 0, count: 8)
        for e in elements {
            let n = UInt32(e.count)
            bytes += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + e
        }
        return bytes
    }
}
