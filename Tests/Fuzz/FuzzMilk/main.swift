// libFuzzer harness: `.milk` bytes → MilkPresetParser → MilkPreset (equations compiled, blocks too long
// for the work budget refused; shaders compiled and their cost checked) → two frames on a small mesh,
// shaders off: the path of `marble render --milkdrop FILE` and `effects --milkdrop`. Errors are fine; crashes, hangs (the work
// budget bounds every frame, so libFuzzer's -timeout is one) and work past the budget are not.
import CLibFuzzer
import Foundation
import MilkDrop

/// The work budget with the heavy kinds scaled down (init code ÷ 64, per-frame, per-point and
/// per-instance code ÷ 16; per-vertex code as it is, 2^14 × the harness's 63 vertices): the same
/// counting and stopping, with a worst case that fits libFuzzer's 10 s per input in this debug,
/// AddressSanitizer build on a busy machine. The real budget's worst case (about 0.2 s of init code in
/// a release build) took longer than that here.
enum Budget {
    static let scaled: MilkWorkAmounts = {
        var budget = MilkDropLimits.workBudget
        for kind in MilkCodeKind.allCases where kind != .perVertex {
            budget[kind] = budget[kind] / (kind == .initial ? 64 : 16)
        }
        return budget
    }()
}

func build(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let file = try? MilkPresetParser.parse(bytes, path: "fuzz.milk") else { return 0 }
    if file.hasShaders { _ = try? MilkPreset(file: file, shaders: true) }   // compiled, their cost checked
    guard let preset = try? MilkPreset(file: file, shaders: false, workBudget: Budget.scaled) else { return 0 }
    let renderer = MilkRenderer(preset: preset, meshColumns: 8, meshRows: 6)
    renderer.configure(width: 32, height: 18, scale: 1)
    let audio = MilkAudio()
    for n in 0..<2 {
        var inputs = MilkPreset.Inputs()
        inputs.frame = Double(n); inputs.time = Double(n) / 30
        renderer.prepare(inputs, audio: audio, strips: nil)
    }
    for kind in MilkCodeKind.allCases where preset.peakWork[kind] > Budget.scaled[kind] {
        fatalError("\(kind) code ran \(preset.peakWork[kind]) instructions in a frame, past its budget")
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
