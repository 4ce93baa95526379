import Foundation
import MarbleCore
import MarbleKit
import MarbleMedia
import MarblePipeline

/// The encoders alone on our own pictures, for `marble bench --compare-ffmpeg`: every frame of the
/// render is drawn first, into memory, then handed to the render's own encoding sink (x264, the AAC
/// sound thread, the muxer: `RenderJob.makeSink`) and only that is timed. It is what `marble render`
/// would take if drawing cost nothing, on the pictures it really encodes; x264's cost depends on the
/// picture, so this is the ceiling a render of this preset can reach, where black frames
/// (``FFmpegComparison/encoderOnlyArguments(size:song:output:)``) are the ceiling of any picture.
///
/// The frames are drawn once per size and kept for every round: `frames × width × height × 1.5` bytes
/// (1080p, 30 s at 60 fps: 5.6 GB). ``fits(size:frames:)`` says whether that fits in half of the
/// memory available; the comparison leaves the column empty when it does not.
final class OwnPicturesCeiling {
    private let options: RenderOptions
    private let slots: [FrameSlot]
    private let job: RenderJob
    private let stages: RenderStages

    /// Draws every frame of the render `options` describes (a render to MP4) into memory.
    init(options: RenderOptions) throws(MarbleError) {
        self.options = options
        job = try RenderJob(options: options)
        stages = try job.open()
        let source = stages.frameSource, cancel = CancellationFlag()
        var slots: [FrameSlot] = []
        while let due = try source.nextDueFrame(cancel: cancel) {
            let slot = try FrameSlot(width: options.width, height: options.height, features: source.makeFeatures(),
                                     hasPicture: source.hasPictures, needs: .yuv)
            try source.produce(due, into: slot)
            try stages.renderer.render(slot)
            slots.append(slot)
        }
        self.slots = slots
    }

    /// Whether `frames` YUV 4:2:0 frames of `size` fit in half of the memory available now
    /// (`MemAvailable` of /proc/meminfo).
    static func fits(size: BenchConfiguration.Size, frames: Int) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return false }
        return Double(frames) * Double(size.width * size.height) * 1.5 < kilobytes * 1024 / 2
    }

    /// One timed encoding of the drawn frames into `options.output`: the sink opened (x264 and the sound
    /// thread started), every frame handed over, the file finished.
    func encode() throws(MarbleError) -> FFmpegComparison.Timing {
        let cpu = FFmpegComparison.cpuSeconds(children: false)
        let start = MonotonicClock.now()
        guard let sink = try job.makeSink(for: stages).encoding else {
            throw MarbleError(.output, "\(options.output): the comparison's output must be a video file")
        }
        do throws(MarbleError) {
            for slot in slots { try sink.consume(slot) }
            try sink.finish(stopped: false)
        } catch {
            sink.abort()
            throw error
        }
        return FFmpegComparison.Timing(wall: MonotonicClock.milliseconds(since: start) / 1000,
                                       cpu: FFmpegComparison.cpuSeconds(children: false) - cpu)
    }
}
