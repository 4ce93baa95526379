import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who writes a temporary file, carried in its name (`.NAME.partial-TAG` beside an output,
/// `marble-input-TAG` in `$TMPDIR`), so that two writers never share a name and a later run can tell a
/// live writer's file from one left by a process that is gone — on a folder shared by many machines
/// and containers, where PIDs repeat (every pod's process is PID 1).
///
/// TAG is `HOST-BOOT-PIDNS-PID-START-RANDOM`:
/// - HOST: the host name when it is 1–32 letters, digits and dashes, else `x` and 16 hex digits of
///   its FNV-1a hash (so the tag stays short and has no dot);
/// - BOOT: the first 12 hex digits of the kernel's boot id (`/proc/sys/kernel/random/boot_id`);
/// - PIDNS: the inode of the PID namespace, hex (`/proc/self/ns/pid`): containers on one kernel share
///   its boot id but not their PIDs;
/// - PID, START: the process and its start time (clock ticks since boot, field 22 of
///   `/proc/self/stat`), so a PID that a later process reuses is not taken for the writer;
/// - RANDOM: 16 hex digits, fresh for every name: two writers that agree on everything else still
///   get two names.
///
/// HOST, BOOT and PIDNS say in whose PID space PID lives (its "machine"): a run judges only the files
/// of its own machine, and leaves every other one alone. At most 120 bytes with `.partial-`.
package struct PartialName: Equatable, Sendable {
    /// The process that writes the file.
    package struct Writer: Equatable, Sendable {
        /// The host name, or `x` + its hash (see ``PartialName``).
        package var host: String
        /// 12 hex digits of the boot id; all zeros when unknown.
        package var boot: String
        /// The PID namespace's inode in hex; "0" when unknown.
        package var namespace: String
        /// The process id, in that namespace.
        package var pid: Int32
        /// The process's start time, clock ticks since boot; 0 when unknown.
        package var start: UInt64

        /// A writer; see the properties.
        package init(host: String, boot: String, namespace: String, pid: Int32, start: UInt64) {
            self.host = host; self.boot = boot; self.namespace = namespace; self.pid = pid; self.start = start
        }

        /// Whether `other`'s PID lives in the same PID space as ours (same host, boot and namespace).
        package func sameMachine(as other: Writer) -> Bool {
            host == other.host && boot == other.boot && namespace == other.namespace
        }

        /// Whether this machine's identity is known (the boot id and the namespace could be read).
        package var isKnown: Bool { boot != Self.unknownBoot && namespace != "0" }

        static let unknownBoot = String(repeating: "0", count: 12)

        /// This process, as read from `/proc` once.
        package static var thisProcess: Writer { ThisProcess.writer }
    }

    /// Who writes it.
    package var writer: Writer
    /// 16 lowercase hex digits.
    package var random: String

    /// A name for `writer`, with `random` (16 lowercase hex digits).
    package init(writer: Writer, random: String) {
        self.writer = writer
        self.random = random
    }

    /// A fresh name for this process: a new random part each time.
    package static func forThisProcess() -> PartialName {
        PartialName(writer: ThisProcess.writer, random: hex(UInt64.random(in: .min ... .max), digits: 16))
    }

    /// The tag as it goes into a file name.
    package var tag: String {
        "\(writer.host)-\(writer.boot)-\(writer.namespace)-\(writer.pid)-\(writer.start)-\(random)"
    }

    /// Reads a tag back; nil unless it is exactly one that ``tag`` writes (so no other file is ever
    /// taken for ours). The host may hold dashes: the fields are read from the right.
    package init?(tag: Substring) {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 6 else { return nil }
        let n = parts.count
        let host = parts[..<(n - 5)].joined(separator: "-")
        guard Self.isHost(host), Self.isHex(parts[n - 5], 12...12), Self.isHex(parts[n - 4], 1...16),
              Self.isDecimal(parts[n - 3], 1...10), let pid = Int32(parts[n - 3]), pid > 0,
              Self.isDecimal(parts[n - 2], 1...20), let start = UInt64(parts[n - 2]),
              Self.isHex(parts[n - 1], 16...16) else { return nil }
        self.init(writer: Writer(host: host, boot: String(parts[n - 5]), namespace: String(parts[n - 4]), pid: pid, start: start),
                  random: String(parts[n - 1]))
    }

    /// What a PID names now, as far as this process can see.
    package enum ProcessState: Equatable, Sendable {
        /// No process has that PID.
        case gone
        /// A process has it; its start time when it could be read.
        case running(start: UInt64?)
    }

    /// Whether a file named for `name` was left by a writer that is gone: only on `us`'s machine (a PID
    /// elsewhere means nothing here), and only when its PID names no process or a process that started
    /// at another time (the PID was reused). A running process whose start time cannot be read is
    /// taken for the writer: when in doubt, a file is kept.
    package static func isLeftOver(_ name: PartialName, us: Writer, state: (Int32) -> ProcessState) -> Bool {
        guard us.isKnown, name.writer.sameMachine(as: us) else { return false }
        switch state(name.writer.pid) {
        case .gone: return true
        case .running(let start?): return start != name.writer.start
        case .running(nil): return false
        }
    }

    /// Deletes, in `folder`, the regular files whose name carries a tag (`tagOf` finds it, nil for any
    /// other name) left over by a writer of this machine that is gone (``isLeftOver(_:us:state:)``).
    /// Does nothing when this process cannot judge (its `/proc` is not its PID namespace's, as in
    /// `unshare --pid` without a new `/proc`, or its identity is unknown).
    package static func removeLeftOvers(in folder: String, tagOf: (String) -> Substring?) {
        guard ThisProcess.canJudge, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let us = ThisProcess.writer
        for file in names {
            guard let tag = tagOf(file), let name = PartialName(tag: tag),
                  isLeftOver(name, us: us, state: ThisProcess.state(of:)) else { continue }
            let path = folder + "/" + file
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            unlink(path)
        }
    }

    // MARK: The pieces of a tag

    /// The host part for a host name: itself when short and plain, else `x` + its FNV-1a hash.
    package static func hostPart(_ hostName: String) -> String {
        if isHost(hostName) { return hostName }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in hostName.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return "x" + hex(hash, digits: 16)
    }

    /// The boot part: the first 12 hex digits of a boot id (`0742d896-bb32-…`), all zeros if it has fewer.
    package static func bootPart(_ bootID: String) -> String {
        let digits = bootID.lowercased().filter { $0.isHexDigit }
        return digits.count >= 12 ? String(digits.prefix(12)) : Writer.unknownBoot
    }

    /// The namespace part: the inode of `pid:[4026531836]` in hex, "0" if the text is not that.
    package static func namespacePart(_ link: String) -> String {
        guard link.hasPrefix("pid:["), link.hasSuffix("]"), let inode = UInt64(link.dropFirst(5).dropLast()), inode > 0 else { return "0" }
        return String(inode, radix: 16)
    }

    /// The start time in a `/proc/PID/stat` line: field 22, counted after the command name's `)`
    /// (which may itself hold spaces and parentheses).
    package static func startTime(statLine: String) -> UInt64? {
        guard let close = statLine.lastIndex(of: ")") else { return nil }
        let fields = statLine[statLine.index(after: close)...].split(separator: " ")
        guard fields.count > 19 else { return nil }  // fields[0] is field 3 (the state)
        return UInt64(fields[19])
    }

    private static func isHost(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count) && text.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
    }

    private static func isAlphanumeric(_ c: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
    }

    private static func isHex(_ text: Substring, _ lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(text.utf8.count)
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    private static func isDecimal(_ text: Substring, _ lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(text.utf8.count) && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// This process as ``PartialName`` sees it, read once from `/proc`.
enum ThisProcess {
    static let writer: PartialName.Writer = {
        var name = [UInt8](repeating: 0, count: 256)
        let host = gethostname(&name, name.count - 1) == 0 ? String(decoding: name.prefix { $0 != 0 }, as: UTF8.self) : ""
        let boot = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? ""
        let namespace = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/pid")) ?? ""
        let stat = (try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8)) ?? ""
        return PartialName.Writer(host: PartialName.hostPart(host), boot: PartialName.bootPart(boot),
                                  namespace: PartialName.namespacePart(namespace), pid: getpid(),
                                  start: PartialName.startTime(statLine: stat) ?? 0)
    }()

    /// Whether this process can tell which of its machine's PIDs are gone: its identity is known and
    /// `/proc` shows its own PID namespace (`/proc/self` is its PID).
    static let canJudge: Bool = {
        writer.isKnown && writer.start != 0
            && (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self")) == String(getpid())
    }()

    /// What `pid` names now: `kill(pid, 0)` says whether it exists (a process of another user too), and
    /// `/proc/PID/stat` its start time.
    static func state(of pid: Int32) -> PartialName.ProcessState {
        if kill(pid, 0) == -1 && errno == ESRCH { return .gone }
        let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        return .running(start: stat.flatMap(PartialName.startTime(statLine:)))
    }
}
