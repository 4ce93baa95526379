import Foundation
import MarbleCore
import Testing
import TestSupport
@testable import MarbleStudio

@Suite("Studio uploads")
struct StudioUploadTests {
    /// The test's own folder, removed after it.
    private let scratch: StudioScratch

    init() throws { scratch = try StudioScratch() }

    private func setUp() throws -> StudioFolders {
        try scratch.folder("first")
        try scratch.folder("second")
        let folders = try StudioFolders(songs: [scratch.path + "/first", scratch.path + "/second"], milkDrop: nil,
                                        output: scratch.path + "/out")
        return folders
    }

    private func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func refusal(_ body: () throws(StudioFailure) -> Void) -> StudioFailure? {
        do { try body(); return nil } catch { return error }
    }

    @Test("an upload in pieces lands in the first folder under its name and answers with the song")
    func uploads() throws {
        let folders = try setUp()
        let song = try bytes(StudioSongsTests.taggedSong())
        let upload = try StudioUpload(folders, name: "new song.mp3", limit: 1 << 20)
        for start in stride(from: 0, to: song.count, by: 1000) {
            try upload.append(Array(song[start..<min(song.count, start + 1000)]))
        }
        #expect(upload.received == song.count)
        let answer = try upload.finish()
        #expect(answer == StudioSong(path: "new song.mp3", folder: 0, title: "Second Song", artist: "Some Body",
                                     duration: answer.duration, cover: false))
        #expect(try bytes(scratch.path + "/first/new song.mp3") == song)
        #expect(try scratch.entries("first") == ["new song.mp3"])  // no temporary file left
        #expect(folders.songs().map(\.path) == ["new song.mp3"])
    }

    @Test("an upload from an asynchronous body")
    func uploadsFromAStream() async throws {
        let folders = try setUp()
        let song = try bytes(TestMedia.tone("wav"))
        let body = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array(song.prefix(100)))
            continuation.yield(Array(song.dropFirst(100)))
            continuation.finish()
        }
        let answer = try await folders.upload(name: "streamed.wav", limit: song.count, body: body)
        #expect(answer.path == "streamed.wav")
        #expect(try scratch.entries("first") == ["streamed.wav"])
    }

    @Test("names with a folder, hidden names, other extensions and over-long names are refused before anything is written")
    func names() throws {
        let folders = try setUp()
        let cases: [(String, String)] = [
            ("", "name: the file name is empty"),
            ("../up.mp3", "name: give a plain file name, without a folder or control characters"),
            ("a/b.mp3", "name: give a plain file name, without a folder or control characters"),
            ("tab\t.mp3", "name: give a plain file name, without a folder or control characters"),
            (".hidden.mp3", "name: .hidden.mp3 is a hidden name; give one that does not start with '.'"),
            ("notes.txt", "name: notes.txt does not end in one of aac flac m4a mkv mov mp3 mp4 ogg opus wav webm"),
            ("mp3", "name: mp3 does not end in one of aac flac m4a mkv mov mp3 mp4 ogg opus wav webm"),
            (String(repeating: "x", count: 252) + ".mp3", "name: the file name is 256 bytes, more than the 255 a file system allows"),
        ]
        for (name, message) in cases {
            #expect(refusal { () throws(StudioFailure) in _ = try StudioUpload(folders, name: name, limit: 100) }
                    == StudioFailure(.badRequest, message), "\(name)")
        }
        #expect(try scratch.entries("first").isEmpty)
    }

    @Test("an existing name is never replaced: refused at the start, and at the end when it appeared meanwhile")
    func neverReplaces() throws {
        let folders = try setUp()
        try scratch.file("first/taken.wav", "mine")
        #expect(refusal { () throws(StudioFailure) in _ = try StudioUpload(folders, name: "taken.wav", limit: 1 << 20) }
                == StudioFailure(.conflict, "taken.wav: a file of that name exists already"))
        let song = try bytes(TestMedia.tone("wav"))
        let upload = try StudioUpload(folders, name: "late.wav", limit: 1 << 20)
        try upload.append(song)
        try scratch.file("first/late.wav", "theirs")
        #expect(refusal { () throws(StudioFailure) in _ = try upload.finish() }
                == StudioFailure(.conflict, "late.wav: a file of that name exists already"))
        #expect(String(decoding: try bytes(scratch.path + "/first/late.wav"), as: UTF8.self) == "theirs")
        #expect(try scratch.entries("first") == ["late.wav", "taken.wav"])
    }

    @Test("past the limit the upload is refused and nothing is kept")
    func tooLarge() throws {
        let folders = try setUp()
        let upload = try StudioUpload(folders, name: "big.wav", limit: 3 << 20)
        try upload.append([UInt8](repeating: 1, count: 2 << 20))
        #expect(refusal { () throws(StudioFailure) in try upload.append([UInt8](repeating: 1, count: (1 << 20) + 1)) }
                == StudioFailure(.tooLarge, "big.wav: larger than the 3 MB an upload may be"))
        #expect(try scratch.entries("first").isEmpty)
        #expect(refusal { () throws(StudioFailure) in _ = try upload.finish() }?.kind == .internalError)
    }

    @Test("a file FFmpeg cannot decode is removed")
    func undecodable() throws {
        let folders = try setUp()
        let upload = try StudioUpload(folders, name: "fake.mp3", limit: 1 << 20)
        try upload.append(Array("this is text, not sound".utf8))
        let refused = try #require(refusal { () throws(StudioFailure) in _ = try upload.finish() })
        #expect(refused.kind == .badRequest)
        #expect(refused.message.hasPrefix("fake.mp3: not a song FFmpeg can play ("))
        #expect(!refused.message.contains(scratch.path))  // the temporary file's name is not shown
        #expect(try scratch.entries("first").isEmpty)
        // A video without sound opens but has nothing to decode.
        let silent = try TestMedia.make("studio-silent.mp4", ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=0.5", "-c:v", "mpeg4"])
        let video = try StudioUpload(folders, name: "silent.mp4", limit: 1 << 20)
        try video.append(bytes(silent))
        #expect(refusal { () throws(StudioFailure) in _ = try video.finish() }
                == StudioFailure(.badRequest, "silent.mp4: not a song FFmpeg can play (has no audio stream)"))
        #expect(try scratch.entries("first").isEmpty)
    }

    @Test("an upload first deletes the temporary files a dead studio of this machine left; live ones stay")
    func clearsLeftOvers() throws {
        let folders = try setUp()
        var dead: pid_t = 999_999
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        var writer = PartialName.Writer.thisProcess
        writer.pid = dead
        let left = ".upload-" + PartialName(writer: writer, random: "00000000000000ff").tag + ".mp3"
        let live = ".upload-" + PartialName.forThisProcess().tag + ".wav"
        try scratch.file("first/" + left, "half")
        try scratch.file("first/" + live, "in progress")
        #expect(StudioUpload.tag(ofTemporary: left) != nil)
        #expect(StudioUpload.tag(ofTemporary: ".upload-.mp3") == nil)
        #expect(StudioUpload.tag(ofTemporary: "song.mp3") == nil)
        let upload = try StudioUpload(folders, name: "next.wav", limit: 1 << 20)
        #expect(try scratch.entries("first").filter { $0 != live }.count == 1)  // this upload's own
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/first/" + left))
        try upload.append(bytes(TestMedia.tone("wav")))
        _ = try upload.finish()
        #expect(try scratch.entries("first") == [live, "next.wav"].sorted())
    }

    @Test("an upload dropped unfinished leaves nothing behind")
    func dropped() throws {
        let folders = try setUp()
        do {
            let upload = try StudioUpload(folders, name: "half.wav", limit: 1 << 20)
            try upload.append([1, 2, 3])
            #expect(try scratch.entries("first").count == 1)  // the hidden temporary file
            #expect(try scratch.entries("first")[0].hasPrefix(".upload-"))
        }
        #expect(try scratch.entries("first").isEmpty)
    }
}
