// libFuzzer harness: M3U playlist bytes → `Playlist.expand` (the bounded read, the text decoding, the
// parse), the path of `marble play LIST.m3u`. Errors are fine; crashes, hangs and an entry that is empty
// or holds a line end (LF, CR) are not.
import CLibFuzzer
import Foundation
import MarbleKit

/// One file the harness rewrites for every input (`expand` reads playlists from disk, bounds first).
enum Scratch {
    static let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-playlist-\(getpid()).m3u").path
}

func build(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard FileManager.default.createFile(atPath: Scratch.path, contents: bytes) else { return 0 }
    guard let songs = try? Playlist.expand([Scratch.path, "plain.mp3"]) else { return 0 }
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) }
    if songs.count > lines + 1 { fatalError("\(songs.count) songs from \(lines) lines") }
    if songs.last != "plain.mp3" { fatalError("the input after the playlist was lost") }
    for song in songs where song.isEmpty || song.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
        fatalError("an entry that is empty or spans lines: \(song.debugDescription)")
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
