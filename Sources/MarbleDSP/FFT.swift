internal import CFFmpeg
import MarbleCore

/// A forward real-to-complex FFT of a fixed power-of-two size, over libavutil's `av_tx`.
///
/// Wraps `av_tx_init(…, AV_TX_FLOAT_RDFT, inv: 0, …)`, calls the returned `av_tx_fn`, and frees the
/// context with `av_tx_uninit`. Input and output live in `av_malloc` memory (SIMD-aligned, which
/// av_tx requires unless `AV_TX_UNALIGNED` is passed). Write `size` samples to ``input`` and call
/// ``transform()``; ``output`` then holds `size / 2 + 1` interleaved complex bins (re, im).
/// FFmpeg 5.1 never writes the imaginary part of the Nyquist bin, so it is zeroed once here.
///
/// Not thread-safe: one instance per thread.
package final class RealFFT {
    /// Transform length in samples (a power of two).
    package let size: Int
    /// `size / 2 + 1`.
    package let binCount: Int
    /// `size` real input samples. Not modified by ``transform()``.
    package let input: UnsafeMutablePointer<Float>
    /// `binCount` complex outputs, interleaved (2 · binCount floats).
    package let output: UnsafeMutablePointer<Float>

    private var context: OpaquePointer?
    private let function: av_tx_fn

    /// Creates a forward RDFT of `size` points. Throws when `size` is not a power of two ≥ 16
    /// or av_tx cannot be initialised.
    package init(size: Int) throws(MarbleError) {
        guard size >= 16, size & (size - 1) == 0, size <= 1 << 20 else {
            throw MarbleError(.option, "FFT size \(size) must be a power of two between 16 and 1048576")
        }
        self.size = size
        self.binCount = size / 2 + 1
        var ctx: OpaquePointer?
        var fn: av_tx_fn?
        var scale: Float = 1
        let rc = av_tx_init(&ctx, &fn, AV_TX_FLOAT_RDFT, 0, Int32(size), &scale, 0)
        guard rc >= 0, let ctx, let fn else {
            throw MarbleError(.media, "av_tx_init(AV_TX_FLOAT_RDFT, \(size)) failed (error \(rc))")
        }
        guard let inRaw = av_malloc(size * MemoryLayout<Float>.stride),
              let outRaw = av_malloc((size + 2) * MemoryLayout<Float>.stride) else {
            var c: OpaquePointer? = ctx
            av_tx_uninit(&c)
            throw MarbleError(.media, "av_malloc failed for an FFT of \(size) points")
        }
        context = ctx
        function = fn
        input = inRaw.bindMemory(to: Float.self, capacity: size)
        output = outRaw.bindMemory(to: Float.self, capacity: size + 2)
        input.initialize(repeating: 0, count: size)
        output.initialize(repeating: 0, count: size + 2)
    }

    deinit {
        av_tx_uninit(&context)
        av_free(input)
        av_free(output)
    }

    /// Runs the transform: ``input`` → ``output``. Never allocates.
    @inline(__always)
    package func transform() {
        function(context, output, input, MemoryLayout<Float>.stride)
    }

    /// Writes `scale` · |X[k]|² for every bin into `power` (`binCount` values).
    @inline(__always)
    package func powerSpectrum(into power: UnsafeMutablePointer<Float>, scale: Float = 1) {
        let out = output
        for k in 0..<binCount {
            let re = out[2 &* k], im = out[2 &* k &+ 1]
            power[k] = (re * re + im * im) * scale
        }
    }
}
