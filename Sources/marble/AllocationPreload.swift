import Foundation
import MarbleBench
import MarbleKit

/// `marble bench` counts mallocs with the project's allocation counter, which only sees them when its library is
/// loaded before `main` (LD_PRELOAD). When it is not, the command re-executes itself once with the
/// library that SwiftPM builds next to the executable; a marker variable prevents a loop.
enum AllocationPreload {
    static func reexecIfNeeded() {
        let environment = ProcessInfo.processInfo.environment
        guard !AllocationCounter.isCounting, environment[AllocationCounter.reexecMarker] == nil,
              let library = AllocationCounter.preloadLibrary(besides: "/proc/self/exe") else { return }
        let preload = [library, environment["LD_PRELOAD"]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
        setenv("LD_PRELOAD", preload, 1)
        setenv(AllocationCounter.reexecMarker, "1", 1)
        let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
        execv("/proc/self/exe", arguments)
        // execv returned: it failed. Go on without allocation counts.
        if let original = environment["LD_PRELOAD"] { setenv("LD_PRELOAD", original, 1) } else { unsetenv("LD_PRELOAD") }
    }
}
