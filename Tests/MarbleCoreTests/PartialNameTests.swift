import Foundation
import MarbleCore
import Testing

/// Temporary names say who writes them (host, boot, PID namespace, PID, start time, a random part), and
/// only a file of this machine whose writer is gone is ever deleted.
@Suite("PartialName: who writes a temporary file, and when it is left over")
struct PartialNameTests {
    let node = PartialName.Writer(host: "node-7", boot: "0742d896bb32", namespace: "effffffc", pid: 1, start: 2_136_189)

    @Test("a tag is HOST-BOOT-PIDNS-PID-START-RANDOM and reads back to the same fields (a host with dashes too)")
    func roundTrip() throws {
        let name = PartialName(writer: node, random: "0123456789abcdef")
        #expect(name.tag == "node-7-0742d896bb32-effffffc-1-2136189-0123456789abcdef")
        #expect(PartialName(tag: Substring(name.tag)) == name)
        let plain = PartialName(tag: "vm-000000000001-1-4194304-18446744073709551615-ffffffffffffffff")
        #expect(plain?.writer == PartialName.Writer(host: "vm", boot: "000000000001", namespace: "1", pid: 4_194_304, start: .max))
    }

    @Test("anything but a tag as written is not one: legacy PIDs, missing or malformed fields", arguments: [
        "12345",                                                              // the old `.NAME.partial-PID`
        "0742d896bb32-effffffc-1-2136189-0123456789abcdef",                   // no host
        "node-0742d896bb32-effffffc-1-2136189-0123456789abcde",               // random part of 15 digits
        "node-0742d896bb32-effffffc-1-2136189-0123456789ABCDEF",              // upper-case hex
        "node-0742d896bb3-effffffc-1-2136189-0123456789abcdef",               // boot of 11 digits
        "node-0742d896bb32-effffffc-0-2136189-0123456789abcdef",              // PID 0
        "node-0742d896bb32-effffffc-1--0123456789abcdef",                     // no start time
        "node-0742d896bb32--1-2136189-0123456789abcdef",                      // no namespace
        "no.de-0742d896bb32-effffffc-1-2136189-0123456789abcdef",             // a dot in the host
        "\(String(repeating: "h", count: 33))-0742d896bb32-effffffc-1-2136189-0123456789abcdef",  // host of 33
        "node-0742d896bb32-effffffc-99999999999-2136189-0123456789abcdef",    // PID beyond 32 bits
    ])
    func notTags(tag: String) {
        #expect(PartialName(tag: Substring(tag)) == nil)
    }

    @Test("host, boot, namespace and start time parts from what /proc and gethostname say")
    func parts() {
        #expect(PartialName.hostPart("vm") == "vm")
        #expect(PartialName.hostPart("build-07") == "build-07")
        // FNV-1a 64 of the bytes, worked out apart from the code.
        #expect(PartialName.hostPart("build-07.farm.example.org") == "xf9ced85d381b58a7")
        #expect(PartialName.hostPart(String(repeating: "n", count: 300)).utf8.count == 17)
        #expect(PartialName.bootPart("0742d896-bb32-441e-96c0-a4f2799b0bbd\n") == "0742d896bb32")
        #expect(PartialName.bootPart("") == "000000000000")
        #expect(PartialName.namespacePart("pid:[4026531836]") == "effffffc")
        #expect(PartialName.namespacePart("net:[4026531840]") == "0")
        // The command name may hold spaces and parentheses; field 22 is the 20th after its last `)`.
        let fields = (3...52).map { $0 == 22 ? "2136189" : "\($0)" }
        #expect(PartialName.startTime(statLine: "31124 (a) b (c) " + fields.joined(separator: " ")) == 2_136_189)
        #expect(PartialName.startTime(statLine: "31124 (sh) S 1 2") == nil)
    }

    @Test("this process's writer is what /proc says: boot id, PID namespace, PID and start time")
    func thisProcess() throws {
        let writer = PartialName.Writer.thisProcess
        let boot = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
        #expect(writer.boot == String(boot.replacingOccurrences(of: "-", with: "").prefix(12)))
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/pid")
        let inode = UInt64(link.dropFirst("pid:[".count).dropLast())!
        #expect(writer.namespace == String(inode, radix: 16))
        #expect(writer.pid == getpid())
        let stat = try String(contentsOfFile: "/proc/self/stat", encoding: .utf8)
        let afterName = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        #expect(writer.start == UInt64(afterName[19]))
    }

    @Test("two names of one process, or of two PID 1s of one host, never agree; a temporary name stays within 255 bytes")
    func unique() {
        let a = PartialName.forThisProcess(), b = PartialName.forThisProcess()
        #expect(a.writer == b.writer && a.random != b.random)
        #expect(OutputFile.temporaryPath(for: "/x/out.mp4") != OutputFile.temporaryPath(for: "/x/out.mp4"))
        // Two containers: same host and boot, both PID 1, started at the same tick: the namespace and
        // the random part still tell them apart.
        var other = node
        other.namespace = "effffffd"
        #expect(PartialName(writer: node, random: "0000000000000001").tag != PartialName(writer: other, random: "0000000000000001").tag)
        #expect(PartialName(writer: node, random: "0000000000000001").tag != PartialName(writer: node, random: "0000000000000002").tag)
        // The longest tag there is, after the longest file name there is.
        let longest = PartialName(writer: .init(host: String(repeating: "h", count: 32), boot: "0742d896bb32", namespace: "ffffffffffffffff",
                                                pid: .max, start: .max), random: "0123456789abcdef")
        let file = URL(fileURLWithPath: OutputFile.temporaryPath(for: "/x/" + String(repeating: "é", count: 127), name: longest)).lastPathComponent
        #expect(file.utf8.count <= 255)
        #expect(file.hasSuffix(".partial-" + longest.tag) && file.hasPrefix(".éé"))
    }

    @Test("left over: only this machine's, and only when the PID is gone or now names a process started at another time")
    func leftOver() {
        func verdict(_ writer: PartialName.Writer, _ state: PartialName.ProcessState, us: PartialName.Writer? = nil) -> Bool {
            PartialName.isLeftOver(PartialName(writer: writer, random: "0123456789abcdef"), us: us ?? node) { _ in state }
        }
        var written = node
        written.pid = 4242
        written.start = 100
        #expect(verdict(written, .gone))
        #expect(verdict(written, .running(start: 101)))          // the PID was reused
        #expect(!verdict(written, .running(start: 100)))         // the writer runs
        #expect(!verdict(written, .running(start: nil)))         // cannot tell: kept
        var elsewhere = written
        elsewhere.boot = "ffffffffffff"                          // another machine, or this one before a reboot
        #expect(!verdict(elsewhere, .gone))
        elsewhere = written
        elsewhere.namespace = "effffffd"                         // another container
        #expect(!verdict(elsewhere, .gone))
        elsewhere = written
        elsewhere.host = "node-8"
        #expect(!verdict(elsewhere, .gone))
        var unknown = node
        unknown.boot = "000000000000"                            // we cannot tell who we are
        #expect(!verdict(written, .gone, us: unknown))
    }

    @Test("a later run deletes its machine's left-over partials of any output in the folder, and nothing else")
    func removeLeftOvers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marble-partialname-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var dead: pid_t = 999_999
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        let us = PartialName.Writer.thisProcess
        func name(_ output: String, _ change: (inout PartialName.Writer) -> Void) -> String {
            var writer = us
            change(&writer)
            return "." + output + ".partial-" + PartialName(writer: writer, random: "0123456789abcdef").tag
        }
        let gone = name("a.mp4") { $0.pid = dead }
        let reused = name("b.mp4") { $0.start += 1 }                 // our PID, another start time
        let alive = name("c.mp4") { _ in }
        let otherBoot = name("d.mp4") { $0.pid = dead; $0.boot = "ffffffffffff" }
        let otherNamespace = name("e.mp4") { $0.pid = dead; $0.namespace = "1" }
        let legacy = ".f.mp4.partial-\(dead)"
        let notHidden = String(gone.dropFirst())
        for file in [gone, reused, alive, otherBoot, otherNamespace, legacy, notHidden] {
            try Data(repeating: 7, count: 100).write(to: folder.appendingPathComponent(file))
        }
        let folderNamed = name("g.mp4") { $0.pid = dead }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(folderNamed), withIntermediateDirectories: false)
        OutputFile.removeStaleTemporaries(for: folder.appendingPathComponent("new.mp4").path)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(left == [alive, otherBoot, otherNamespace, legacy, notHidden, folderNamed])
    }
}
