import Foundation

/// Splits per-frame work into strips of rows and runs them on a fixed set of threads.
///
/// Kernels are called with disjoint row ranges (the rule every `@unchecked Sendable` texture view in the
/// project relies on). With one thread the strips run inline on the caller. The strip count is a small
/// multiple of the thread count so that uneven rows (a bar here, empty space there) balance out.
public final class StripScheduler: Sendable {
    public let threads: Int
    private let strips: Int

    public init(threads: Int) {
        self.threads = max(1, threads)
        self.strips = self.threads == 1 ? 1 : self.threads * 4
    }

    /// The number of cores this process may use.
    public static var availableCores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Runs `body` over `0..<count` rows (or row pairs) in strips; returns when all are done.
    public func run(count: Int, _ body: (Range<Int>) -> Void) {
        let n = min(strips, max(1, count))
        if n == 1 || threads == 1 {
            body(0..<count)
            return
        }
        withoutActuallyEscaping(body) { body in
            let work = StripWork(body: body)
            DispatchQueue.concurrentPerform(iterations: n) { i in
                work.body((count * i / n)..<(count * (i + 1) / n))
            }
        }
    }
}

/// Carries the strip body into `concurrentPerform`. Safety of @unchecked Sendable: the body only writes
/// rows inside the range it is given, and the ranges of one `run` are disjoint.
private struct StripWork: @unchecked Sendable {
    let body: (Range<Int>) -> Void
}
