internal import CFFmpeg
import MarbleCore

/// A YUV 4:2:0 picture in an `AVFrame` the encoder accepts (BT.709, limited range), reused frame after
/// frame: one per pooled frame slot, filled by the render stage and sent by the encode stage.
///
/// Safety of @unchecked Sendable: a frame is owned by one stage at a time (it travels inside a
/// `FrameSlot` through the pipeline's queues).
package final class YUVFrame: @unchecked Sendable {
    let frame: Frame
    package let width: Int, height: Int

    package init(width: Int, height: Int) throws(MarbleError) {
        self.width = width
        self.height = height
        frame = try Frame()
        let f = frame.pointer
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.color_range = AVCOL_RANGE_MPEG
        f.pointee.colorspace = AVCOL_SPC_BT709
        f.pointee.color_primaries = AVCOL_PRI_BT709
        f.pointee.color_trc = AVCOL_TRC_BT709
        try ffCheck(av_frame_get_buffer(f, 64), .media, "out of memory allocating a video frame")
    }

    /// Makes sure nobody else (an encoder) still references the pixels before they are overwritten;
    /// copies only in that case (`av_frame_make_writable`).
    package func prepareForWriting() throws(MarbleError) {
        try ffCheck(av_frame_make_writable(frame.pointer), .media, "out of memory")
    }

    /// Overwrites these pixels with `other`'s (same size), e.g. to hold a picture after its slot went
    /// back to the pool (`av_frame_copy`, after ``prepareForWriting()``).
    package func copy(from other: YUVFrame) throws(MarbleError) {
        guard other.width == width, other.height == height else {
            throw MarbleError(.media, "cannot copy a \(other.width)x\(other.height) picture into a \(width)x\(height) one")
        }
        try prepareForWriting()
        try ffCheck(av_frame_copy(frame.pointer, other.frame.pointer), .media, "cannot copy a video frame")
    }

    package var planes: YUV420.Planes {
        let f = frame.pointer
        return YUV420.Planes(
            y: marble_frame_data(f, 0), yStride: Int(marble_frame_linesize(f, 0)),
            u: marble_frame_data(f, 1), uStride: Int(marble_frame_linesize(f, 1)),
            v: marble_frame_data(f, 2), vStride: Int(marble_frame_linesize(f, 2)))
    }
}
