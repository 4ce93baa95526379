import Foundation
import KernelsAVX2
import MarbleCore
import MarbleDSP

/// RGBA8 → YUV 4:2:0 (BT.709, limited range) for the encoders: the kernel in MarbleCore's `YUV420`,
/// run from its AVX2 build when the CPU has AVX2, FMA3 and BMI1/2 (Haswell, Zen and later), else from
/// the portable SSE2 build. Both builds compute the same bytes.
package enum YUVConverter {
    /// The Y, U and V planes to write (see `YUV420.Planes`).
    package typealias Planes = YUV420.Planes

    /// Which build runs on this machine, decided once from FFmpeg's CPU detection (which also checks
    /// that the OS saves the wide registers). `MARBLE_PORTABLE_KERNELS=1` forces the SSE2 build.
    package static let usesAVX2: Bool = {
        if ProcessInfo.processInfo.environment["MARBLE_PORTABLE_KERNELS"] == "1" { return false }
        return KernelsAVX2.isCompiledForAVX2 && CPUFeatures.hasAVX2Set
    }()

    /// Converts the row pairs `pairs` (row pair k = rows 2k and 2k+1). Width and height must be even.
    /// Safe to call concurrently on disjoint ranges.
    package static func convert(_ source: TextureView, into planes: Planes, pairs: Range<Int>) {
        if usesAVX2 {
            KernelsAVX2.convertYUV420(source, into: planes, pairs: pairs)
        } else {
            YUV420.convert(source, into: planes, pairs: pairs)
        }
    }

    /// Row pair `pair` (rows 2·pair and 2·pair + 1, `width` pixels) for rows of one colour each, `top`
    /// and `bottom`: the bytes ``convert(_:into:pairs:)`` gives such rows, without reading any.
    package static func fillRows(_ top: UInt32, _ bottom: UInt32, into planes: Planes, pair: Int, width: Int) {
        let y0 = planes.y + (2 &* pair) &* planes.yStride
        YUV420.fillRows(top, bottom, y0, y0 + planes.yStride, planes.u + pair &* planes.uStride, planes.v + pair &* planes.vStride,
                        width: width)
    }

    /// The portable build, whatever the CPU (tests compare the two).
    static func convertPortable(_ source: TextureView, into planes: Planes, pairs: Range<Int>) {
        YUV420.convert(source, into: planes, pairs: pairs)
    }
}
