internal import CFFmpeg

/// What this CPU can run, from FFmpeg's CPU detection (which also checks that the operating system
/// saves the wide registers): the kernels pick their build from it.
package enum CPUFeatures {
    /// AVX2, FMA3, BMI1 and BMI2: the instruction sets the KernelsAVX2 module is compiled for.
    package static let hasAVX2Set: Bool = {
        let needed = AV_CPU_FLAG_AVX2 | AV_CPU_FLAG_FMA3 | AV_CPU_FLAG_BMI1 | AV_CPU_FLAG_BMI2
        return av_get_cpu_flags() & needed == needed
    }()
}
