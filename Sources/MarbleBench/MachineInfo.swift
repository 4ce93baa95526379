import Foundation
import MarbleRender

/// The machine a run was measured on, for the report's header, and the process's peak memory.
package struct MachineInfo: Sendable, Equatable {
    package var cpu: String
    package var cores: Int
    package var os: String
    package var swiftBuild: String
    /// The 1-minute load average when the run started (other work on the machine skews timings).
    package var load: Double?

    package static func current() -> MachineInfo {
        MachineInfo(cpu: cpuModel(), cores: StripScheduler.availableCores, os: osName(), swiftBuild: BuildInfo.configuration,
                    load: loadAverage())
    }

    package init(cpu: String, cores: Int, os: String, swiftBuild: String, load: Double? = nil) {
        self.cpu = cpu; self.cores = cores; self.os = os; self.swiftBuild = swiftBuild; self.load = load
    }

    package var summary: String { "\(cpu), \(cores) cores, \(os), \(swiftBuild) build" }

    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown CPU" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown CPU"
    }

    static func osName() -> String {
        if let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
                return line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return ProcessInfo.processInfo.operatingSystemVersionString
    }

    /// Peak resident set size of this process so far, MB (getrusage's ru_maxrss, kB on Linux).
    package static func peakRSSMegabytes() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Double(usage.ru_maxrss) / 1024
    }
}

/// How this copy of MarbleKit was compiled: timings from a debug build are not comparable to release.
package enum BuildInfo {
    #if DEBUG
    package static let configuration = "debug"
    #else
    package static let configuration = "release"
    #endif
}
