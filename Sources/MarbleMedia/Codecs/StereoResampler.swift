internal import CFFmpeg
import MarbleCore

/// Planar float stereo (or mono, duplicated) from one sample rate to another, with libswresample:
/// songs of a playlist at 44.1 and 48 kHz become one stream at one rate.
///
/// Output buffers are allocated once and grow only when a block is larger than any before it.
package final class StereoResampler {
    let inputRate: Int
    let outputRate: Int
    private var swr: OpaquePointer?
    private var left: UnsafeMutablePointer<Float>
    private var right: UnsafeMutablePointer<Float>
    private var capacity = 0
    /// The channel pointers handed to libswresample, allocated once (no array built per block).
    private let inputs = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 2)
    private let outputs = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 2)

    package init(from inputRate: Int, to outputRate: Int) throws(MarbleError) {
        self.inputRate = inputRate
        self.outputRate = outputRate
        var outLayout = AVChannelLayout(), inLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, 2)
        av_channel_layout_default(&inLayout, 2)
        defer { av_channel_layout_uninit(&outLayout); av_channel_layout_uninit(&inLayout) }
        let made = swr_alloc_set_opts2(&swr, &outLayout, AV_SAMPLE_FMT_FLTP, Int32(outputRate), &inLayout,
                                       AV_SAMPLE_FMT_FLTP, Int32(inputRate), 0, nil) >= 0 && swr_init(swr) >= 0
        capacity = 8192
        left = .allocate(capacity: capacity)
        right = .allocate(capacity: capacity)
        guard made else {
            swr_free(&swr)
            throw MarbleError(.media, "cannot convert sound from \(inputRate) Hz to \(outputRate) Hz")
        }
    }

    deinit {
        swr_free(&swr)
        left.deallocate()
        right.deallocate()
        inputs.deallocate()
        outputs.deallocate()
    }

    /// Converts one block (`right` nil: mono) and hands the result to `body` (possibly empty: the
    /// resampler keeps a few samples of history).
    package func convert(left inLeft: UnsafeBufferPointer<Float>, right inRight: UnsafeBufferPointer<Float>?,
                 _ body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>) -> Void) {
        let count = inLeft.count
        let needed = Int(swr_get_out_samples(swr, Int32(count)))
        if needed > capacity {
            left.deallocate()
            right.deallocate()
            capacity = needed
            left = .allocate(capacity: capacity)
            right = .allocate(capacity: capacity)
        }
        inputs[0] = UnsafeRawPointer(inLeft.baseAddress).map { $0.assumingMemoryBound(to: UInt8.self) }
        inputs[1] = UnsafeRawPointer((inRight ?? inLeft).baseAddress).map { $0.assumingMemoryBound(to: UInt8.self) }
        outputs[0] = UnsafeMutableRawPointer(left).assumingMemoryBound(to: UInt8.self)
        outputs[1] = UnsafeMutableRawPointer(right).assumingMemoryBound(to: UInt8.self)
        let made = swr_convert(swr, outputs, Int32(capacity), inputs, Int32(count))
        guard made > 0 else { return }
        body(UnsafeBufferPointer(start: left, count: Int(made)), UnsafeBufferPointer(start: right, count: Int(made)))
    }
}
