import MarbleKit

/// marble's version: the one place it is written. Scripts/make-deb.sh reads the `number` line below.
enum MarbleVersion {
    static let number = "0.3.0"

    /// `marble --version`: marble's version, then the C libraries it runs with, one per line.
    static func report() -> String {
        let libraries = LibraryVersions.current()
        let width = libraries.map(\.name.count).max() ?? 0
        let lines = libraries.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.version }
        return (["marble \(number)", "running with:"] + lines).joined(separator: "\n")
    }
}
