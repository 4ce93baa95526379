/// Work that can be split into strips of rows: `run(strip:worker:)` is called on disjoint ranges, from
/// several threads at once. `worker` (0 for the calling thread, 1…threads−1 for the helpers) says which
/// thread runs the strip, so a task can keep per-thread scratch memory. Per-frame passes are long-lived
/// task objects whose fields change between frames.
package protocol StripTask: AnyObject {
    /// Does the work for rows `strip` on thread number `worker`; must touch only those rows of shared outputs.
    func run(strip: Range<Int>, worker: Int)
}

/// Runs a ``StripTask`` over rows on several threads and returns when every strip is done.
///
/// The renderer hands its runner to shaders in ``FrameUniforms/strips`` so that a kernel with passes
/// that depend on each other (MilkDrop's warp, then the shapes drawn over it) can spread each pass
/// across the cores from `prepare`, where the runner is otherwise idle. Never call it from inside a strip.
package protocol StripRunner: AnyObject, Sendable {
    /// Threads strips run on, the caller's included (at least 1).
    var threads: Int { get }
    /// Runs `task` over `0..<count` rows in strips; returns when all are done. Allocates nothing.
    func run(count: Int, _ task: any StripTask)
}
