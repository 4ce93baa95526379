// libFuzzer harness: media bytes → demux → decode → analysis, the path of `marble analyze` and the
// first steps of `marble render`. The bytes are written to a file in /dev/shm (MediaInput opens paths),
// then the whole-song analysis and the per-frame features run on it. Errors are fine; crashes are not.
import CLibFuzzer
import Foundation
import MarbleCore
import MarbleMedia
import MarbleAnalysis

enum Scratch {
    static let path: String = {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(folder)/marble-fuzz-media-\(getpid())"
    }()
}

func analyse(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = Scratch.path
    guard let data else { return 0 }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else { return 0 }
    defer { unlink(path) }
    if let input = try? MediaInput(path: path) { _ = input.hasVideo }
    guard let report = try? MediaAnalysis.report(path: path) else { return 0 }
    _ = try? MediaAnalysis.frames(path: path, fps: Rational(30), configuration: AnalysisConfiguration(), report: report)
    return 0
}

// The link pulls in libFuzzer's own main, which wants this symbol; SwiftPM's main (this file) runs instead
// and hands the same function to libFuzzer's driver, which parses the command line (-max_total_time=…).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { analyse(data, size) }

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in analyse(data, size) }))
