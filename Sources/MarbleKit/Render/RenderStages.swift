import MarbleAnalysis
import MarbleCore
import MarbleMedia
import MarblePipeline
import MarbleRender

/// A render opened (``RenderJob/open(cancel:progressInterval:progress:)``): the source and the renderer
/// of its pipeline, the frames it draws, and when each step before the first frame ended. `marble bench`
/// steps the same stages frame by frame on one thread to time them.
package final class RenderStages {
    /// The file decoded and analysed, frame by frame, with its pictures.
    let source: OfflineFileSource
    package let renderer: FrameRenderer
    /// The frames drawn (nil: all); a segment's earlier frames have been replayed already.
    package let frames: Range<Int>?
    /// The frames of the whole render, from the first pass's sample count.
    package let totalFrames: Int
    /// Warnings about the input's cover picture, for the summary.
    let coverWarnings: [String]
    /// Frames and seconds the input says it has (nil when it does not say), for progress lines.
    let expectedFrames: Int?, expectedSeconds: Double?
    /// Monotonic times (ns): the job started, the analysis ended, the replay ended.
    let started: UInt64, analysed: UInt64, replayed: UInt64

    init(source: OfflineFileSource, renderer: FrameRenderer, frames: Range<Int>?, totalFrames: Int,
         coverWarnings: [String], expectedFrames: Int?, expectedSeconds: Double?,
         started: UInt64, analysed: UInt64, replayed: UInt64) {
        self.source = source
        self.renderer = renderer
        self.frames = frames
        self.totalFrames = totalFrames
        self.coverWarnings = coverWarnings
        self.expectedFrames = expectedFrames
        self.expectedSeconds = expectedSeconds
        self.started = started
        self.analysed = analysed
        self.replayed = replayed
    }

    /// The pipeline's source, for a caller that steps it itself.
    package var frameSource: any FrameSource { source }

    /// The progress line of the rendering phase, after `s.frames` frames.
    func progress(rendered s: PipelineStatistics) -> RenderProgress {
        RenderProgress(phase: .rendering, frames: s.frames, expectedFrames: expectedFrames,
                       mediaSeconds: source.fps.seconds(ofFrame: s.frames), expectedSeconds: expectedSeconds,
                       wallSeconds: s.wallSeconds)
    }
}
