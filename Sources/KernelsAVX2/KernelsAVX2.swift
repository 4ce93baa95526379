import MarbleCore

/// Hot kernels compiled a second time for AVX2 (Package.swift builds this target with
/// `-target-cpu haswell` on x86-64 hosts). Each entry point only calls an `@inlinable` kernel of
/// MarbleCore, so the code is the same source and the same arithmetic, vectorised twice as wide.
/// Callers must check the CPU first (`YUVConverter.usesAVX2`): on an older CPU these would fault.
package enum KernelsAVX2 {
    /// Whether this module really was compiled for AVX2 (false on other architectures).
    package static var isCompiledForAVX2: Bool {
        #if arch(x86_64)
        return true
        #else
        return false
        #endif
    }

    /// `YUV420.convert(_:into:pairs:)` (in MarbleCore), AVX2 build.
    package static func convertYUV420(_ source: TextureView, into planes: YUV420.Planes, pairs: Range<Int>) {
        YUV420.convert(source, into: planes, pairs: pairs)
    }
}

extension KernelsAVX2 {
    /// `FilmGrade.run` (in MarbleCore), AVX2 build.
    package static func filmGrade(_ source: UnsafePointer<UInt32>, _ destination: UnsafeMutablePointer<UInt32>, count: Int,
                                 noiseA: UnsafePointer<Float>, noiseB: UnsafePointer<Float>, grade: FilmGrade.Grade) {
        FilmGrade.run(source, destination, count: count, noiseA: noiseA, noiseB: noiseB, grade: grade)
    }
}
