import Synchronization

/// Whether kernels may call their AVX2 builds (module KernelsAVX2). Off until the renderer, which
/// knows the CPU (MarbleRender asks FFmpeg's CPU detection), switches it on; off, every kernel runs
/// its portable build. Both builds give the same bytes.
package enum WideKernels {
    private static let flag = Atomic<Bool>(false)

    /// Read by kernels per row run: a relaxed load, no ordering needed (either build is correct).
    @inline(__always) static var enabled: Bool { flag.load(ordering: .relaxed) }

    /// Allows (or forbids) the AVX2 builds. Call only when the CPU has AVX2, FMA3, BMI1 and BMI2.
    package static func allow(_ allowed: Bool) { flag.store(allowed, ordering: .relaxed) }
}
