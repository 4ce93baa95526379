/// The `.milk` files under a directory (or one file given directly), found once, in a fixed order.
///
/// The walk follows symbolic links but enters each directory once (by device and inode), so a link
/// loop ends and a folder linked twice is listed once; a file reached twice through links is listed
/// once. Names are compared byte by byte (UTF-8), so the order is the same on every machine. Entries whose
/// name ends in `.milk` (any letter case) are listed even when they cannot be read (a dangling link, a
/// pipe): parsing them then fails with the reason. Directories that cannot be opened are ``problems``.
package struct MilkPresetCatalog: Sendable {
    /// The directory or file the catalog was made from.
    package let root: String
    /// The preset files, sorted: `root/sub/name.milk` for a directory, `[root]` for a file.
    package let paths: [String]
    /// Directories (or the root itself) that could not be read: why, one each.
    package let problems: [MilkPresetError]

    /// Lists the presets at `path`: a directory (searched recursively) or a single file of any name.
    package init(path: String) {
        root = path
        var walk = Walk()
        switch PresetFileSystem.status(path) {
        case .failure(let e):
            walk.problems.append(MilkPresetError(path: path, message: "cannot read: \(e.message)", reason: .unreadable))
        case .success(let s) where s.kind == .directory:
            walk.directories.insert(s.identity)
            let base = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
            walk.visit(base)
        case .success:
            walk.paths.append(path)
        }
        paths = walk.paths
        problems = walk.problems
    }

    /// True for names MilkDrop loads: ending in `.milk`, in any letter case.
    package static func isPresetName(_ name: String) -> Bool {
        name.utf8.count > 5 && name.lowercased().hasSuffix(".milk")
    }

    /// Parses every listed file, in order, and counts the outcomes.
    package func scan() -> MilkPresetScanReport {
        var entries: [MilkPresetScanReport.Entry] = []
        entries.reserveCapacity(paths.count)
        for path in paths {
            do {
                let file = try MilkPresetParser.parse(contentsOf: path)
                entries.append(.init(path: path, outcome: .parsed(.init(file))))
            } catch {
                entries.append(.init(path: path, outcome: .failed(error)))
            }
        }
        return MilkPresetScanReport(root: root, entries: entries, problems: problems)
    }

    /// The recursive listing.
    private struct Walk {
        var paths: [String] = []
        var problems: [MilkPresetError] = []
        var directories: Set<PresetFileSystem.FileIdentity> = []
        var files: Set<PresetFileSystem.FileIdentity> = []

        mutating func visit(_ directory: String) {
            let names: [String]
            switch PresetFileSystem.names(in: directory) {
            case .failure(let e):
                problems.append(MilkPresetError(path: directory, message: "cannot list: \(e.message)", reason: .unreadable))
                return
            case .success(let n):
                names = n.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            }
            for name in names {
                let path = directory == "/" ? "/" + name : directory + "/" + name
                switch PresetFileSystem.status(path) {
                case .success(let s) where s.kind == .directory:
                    if directories.insert(s.identity).inserted { visit(path) }
                case .success(let s) where s.kind == .regular:
                    if MilkPresetCatalog.isPresetName(name), files.insert(s.identity).inserted { paths.append(path) }
                default:
                    // A dangling link, a pipe, a device, something that vanished: listed when named
                    // like a preset, so that the scan reports why it cannot be read.
                    if MilkPresetCatalog.isPresetName(name) { paths.append(path) }
                }
            }
        }
    }
}

/// What a scan of a ``MilkPresetCatalog`` found: one entry per file, and the counts a report prints.
package struct MilkPresetScanReport: Sendable {
    /// What the renderer needs to know of a parsed preset without keeping its text.
    package struct Summary: Sendable, Equatable {
        package var version: Int?
        /// It has a `warp_N` / `comp_N` HLSL shader (a CPU renderer runs the preset without them).
        package var hasWarpShader: Bool, hasCompositeShader: Bool
        /// Lines ignored or overridden (see ``MilkPresetFile/notes``).
        package var noteCount: Int
        package var hasShaders: Bool { hasWarpShader || hasCompositeShader }

        package init(_ file: MilkPresetFile) {
            version = file.version
            hasWarpShader = file.warpShader != nil
            hasCompositeShader = file.compositeShader != nil
            noteCount = file.notes.count
        }
    }

    package enum Outcome: Sendable {
        case parsed(Summary)
        case failed(MilkPresetError)
    }

    package struct Entry: Sendable {
        package var path: String
        package var outcome: Outcome
    }

    package let root: String
    /// In catalog order.
    package let entries: [Entry]
    /// Directories that could not be listed.
    package let problems: [MilkPresetError]

    package var fileCount: Int { entries.count }
    package var parsedCount: Int { entries.count { if case .parsed = $0.outcome { true } else { false } } }
    /// Parsed presets with a warp or composite shader.
    package var withShadersCount: Int { entries.count { if case .parsed(let s) = $0.outcome { s.hasShaders } else { false } } }
    /// The failures, grouped by reason (reasons in ``MilkPresetError/Reason`` order, files in catalog order).
    package var failuresByReason: [(reason: MilkPresetError.Reason, errors: [MilkPresetError])] {
        var groups: [MilkPresetError.Reason: [MilkPresetError]] = [:]
        for entry in entries { if case .failed(let e) = entry.outcome { groups[e.reason, default: []].append(e) } }
        return groups.keys.sorted().map { (reason: $0, errors: groups[$0]!) }
    }
}

extension MilkPresetScanReport: CustomStringConvertible {
    /// The report `marble effects --milkdrop DIR` prints: counts first, then each failure under its reason.
    package var description: String {
        let failed = fileCount - parsedCount
        var text = "\(root): \(fileCount) .milk file\(fileCount == 1 ? "" : "s"), \(parsedCount) parsed "
            + "(\(withShadersCount) with HLSL warp/composite shaders), \(failed) failed\n"
        for group in failuresByReason {
            text += "  \(group.reason.rawValue): \(group.errors.count)\n"
            for error in group.errors { text += "    \(error)\n" }
        }
        if !problems.isEmpty {
            text += "  folders not read: \(problems.count)\n"
            for problem in problems { text += "    \(problem)\n" }
        }
        return text
    }
}
