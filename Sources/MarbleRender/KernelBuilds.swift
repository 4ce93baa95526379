import Shaders

/// Which build of the hot kernels runs: the AVX2 build (module KernelsAVX2) where the CPU has AVX2,
/// FMA3, BMI1 and BMI2 and `MARBLE_PORTABLE_KERNELS` is not 1, otherwise the portable one. The two
/// give the same bytes; the choice is only speed.
package enum KernelBuilds {
    /// Switches the shaders' kernels (`WideKernels` in the Shaders module) to the build this CPU allows. The
    /// compositor calls it; so must anything that runs shaders by themselves (the benchmarks).
    package static func select() { WideKernels.allow(YUVConverter.usesAVX2) }
}
