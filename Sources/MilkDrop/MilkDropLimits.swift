/// Bounds that keep a hostile or broken `.milk` file from taking the machine: every size a preset
/// can ask for is checked against these before it is used.
package enum MilkDropLimits {
    /// Largest preset file read (the biggest in Debian's projectm-data is about 60 kB).
    package static let fileBytes = 1 << 20
    /// Most iterations one `loop(n, …)` or `while(…)` runs (ns-eel's own cap).
    package static let loopIterations = 1 << 20
    /// Entries in `megabuf` and in `gmegabuf` (ns-eel's 8 Mi doubles, allocated in blocks on first write).
    package static let megabufEntries = 1 << 23
    /// Custom waves and custom shapes a preset has (MilkDrop 2: four of each).
    package static let customWaves = 4, customShapes = 4
    /// Points of a custom wave (MilkDrop's 512).
    package static let wavePoints = 512
    /// Instances of one custom shape (MilkDrop 2's `num_inst` cap).
    package static let shapeInstances = 1024
    /// Sides of a custom shape (MilkDrop: 3 to 100).
    package static let shapeSides = 3...100

    /// Instructions a preset's code may run per frame, by kind (per vertex for per-vertex code); see
    /// ``MilkWork`` and docs/MILKDROP.md ("Work budget").
    ///
    /// PROVISIONAL: measured figures to come.
    package static let workBudget: MilkWorkAmounts = {
        var b = MilkWorkAmounts()
        b[.initial] = 1 << 25
        b[.perFrame] = 1 << 21
        b[.perVertex] = 1 << 13
        b[.wavePoint] = 1 << 24
        b[.shapeInstance] = 1 << 22
        return b
    }()
}
