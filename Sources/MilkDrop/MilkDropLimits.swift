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

    /// Instructions a preset's code may run per frame, by kind of code (per vertex for per-pixel code:
    /// each vertex gets the same allowance, so a frame never depends on how vertices are shared out);
    /// see ``MilkWork`` for how work is counted and docs/MILKDROP.md ("The work budget").
    ///
    /// Set from the most work any real preset did in one frame (`marble effects --milkdrop DIR
    /// --milkdrop-shaders off`, 60 frames at 128x72, with no budget), over Debian's projectm-data
    /// (4,189 files) and Cream of the Crop (9,795), each budget 7.7× to 15.5× the larger peak:
    ///
    /// | kind | Debian peak | CotC peak | budget | margin |
    /// |---|---:|---:|---:|---:|
    /// | init (once) | 2,600,062 | 9,532,992 | 2^27 = 134,217,728 | 14.1× |
    /// | per-frame | 106,754 | 1,433,605 | 2^24 = 16,777,216 | 11.7× |
    /// | per vertex | 671 | 1,060 | 2^14 = 16,384 | 15.5× |
    /// | per wave point (all waves) | 1,852,320 | 1,852,320 | 2^24 = 16,777,216 | 9.1× |
    /// | per shape instance (all shapes) | 270,431 | 687,872 | 2^23 = 8,388,608 | 12.2× |
    ///
    /// At about 1–2 ns an instruction, a frame's code is bounded by about 72 M instructions at the
    /// default 48×36 mesh (30 M of them per-pixel), 0.1–0.15 s in the worst case, and the first frame's
    /// init code by 0.2 s more; a hostile preset spends that once, then the survey and playlists drop it.
    package static let workBudget: MilkWorkAmounts = {
        var b = MilkWorkAmounts()
        b[.initial] = 1 << 27
        b[.perFrame] = 1 << 24
        b[.perVertex] = 1 << 14
        b[.wavePoint] = 1 << 24
        b[.shapeInstance] = 1 << 23
        return b
    }()

    /// Core nanoseconds one pixel of a preset's HLSL shaders may cost, warp and composite together
    /// (``ShaderCost/perPixel(_:)``: every operation a pixel can execute, loops at their bound, at its
    /// measured cost). Checked when the preset loads, before anything runs: the work is a property of
    /// the compiled programs, so a render stays the same everywhere. A preset over it is refused
    /// (``MilkPresetError/Reason/overBudget``), skipped by playlists and counted by the survey.
    ///
    /// Set from the costliest shaders of real presets (`marble effects --milkdrop DIR --frames 1`, the
    /// report's "shaders, ns a pixel"): Debian's projectm-data 355 (Ocular Anima), Cream of the Crop
    /// 12,901 (Surface Turbulence IIe5, two loops at their 1,024-trip bound); the budget, 2^15 = 32,768,
    /// is 2.5× the larger. What it bounds: a frame's shaders at the smallest automatic buffer (102,400
    /// pixels) cost at most 3.4 s of core time, where the compiler's own bound (65,535 operations a
    /// pixel, every one a 3-D read) allowed 60 s.
    package static let shaderNanosecondsPerPixel: Float = 32_768
}
