// libFuzzer harness: UDP datagram bytes → `OSCPacket.decode` → each message mapped to a session event
// by `OSCCommands` (checked against a preset with a number, a colour, a choice and a flag), the path of
// `--osc`. Refusals are fine; crashes, hangs and a decoded message that does not survive encoding and
// decoding again are not.
import CLibFuzzer
import Foundation
import MarbleControl
import MarbleKit

/// The scene parameter changes are checked against, and the session's presets.
enum Session {
    static let scene = Preset(name: "fuzz", layers: [LayerSpec(shader: "gradient"), LayerSpec(shader: "bars")])
    static let presets = ["aura", "bars"]
}

func build(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let messages = try? OSCPacket.decode(bytes) else { return 0 }
    if messages.count > OSCPacket.maxMessages { fatalError("\(messages.count) messages past the bound") }
    for message in messages {
        _ = OSCCommands.event(for: message, presets: Session.presets, scene: Session.scene)
        // NaN is not equal to itself: such a message cannot be compared after the round trip.
        let comparable = !message.arguments.contains { if case .float(let v) = $0 { v.isNaN } else { false } }
        guard comparable else { continue }
        guard let again = try? OSCPacket.decode(message.encoded), again == [message] else {
            fatalError("\(message) did not survive encoding and decoding")
        }
    }
    return 0
}

// The link pulls in libFuzzer's own main, which wants this symbol; SwiftPM's main (this file) runs instead
// and hands the same function to libFuzzer's driver, which parses the command line (-max_total_time=…).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { build(data, size) }

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in build(data, size) }))
