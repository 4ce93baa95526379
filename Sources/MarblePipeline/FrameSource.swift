import MarbleCore

/// Where the pipeline's frames come from: something that knows when each frame is due and what the
/// sound (and picture) of that frame is.
///
/// Frame stepping is the same for every source: `nextDueFrame` says which frame is next (an offline
/// file: the next index, at once; a file played in real time or a capture device: the newest frame
/// whose time has come, blocking until then), then `produce` fills the frame's features and picture.
/// Both run on the pipeline's source thread only.
package protocol FrameSource: AnyObject {
    /// Whether frames carry a media picture of their own (a video or a background), so that slots get
    /// a texture for it.
    var hasPictures: Bool { get }

    /// A features value sized for this source's analysis (one per slot, made once).
    func makeFeatures() -> AudioFeatures

    /// Blocks until the next frame is due and returns it, or nil when the source has ended (the end of
    /// the media, a duration reached, or `cancel`). A real-time source that fell behind returns the
    /// newest due frame and counts the ones it passed over in ``DueFrame/lateSkipped``; it still
    /// analyses them, so smoothing and beat tracking never see a gap.
    func nextDueFrame(cancel: CancellationFlag) throws(MarbleError) -> DueFrame?

    /// Computes frame `index` (the one `nextDueFrame` just returned) into `slot`: index, time,
    /// features, picture. With no slot (the pipeline had none free: the frame is dropped) it only
    /// advances the analysis.
    func produce(_ frame: DueFrame, into slot: FrameSlot?) throws(MarbleError)

    /// Warnings gathered while reading (damaged packets), for the summary.
    var warnings: [String] { get }
}

/// The frame a source says is due.
package struct DueFrame: Sendable, Equatable {
    package var index: Int
    /// Frames passed over because they were already late (real time only).
    package var lateSkipped = 0
    /// Frames passed over on purpose while the input is idle (silence: the picture is refreshed at a
    /// lower rate; sinks that need every frame repeat the last one).
    package var idleSkipped = 0
    /// The last frame of a run of fixed length (`--duration`): drawn even in real time, waiting for a
    /// slot if need be, so that a recording ends on its last frame.
    package var isLast = false

    package init(index: Int, lateSkipped: Int = 0, idleSkipped: Int = 0, isLast: Bool = false) {
        self.index = index; self.lateSkipped = lateSkipped; self.idleSkipped = idleSkipped; self.isLast = isLast
    }
}

/// Whether a frame that cannot be rendered in time waits or is dropped.
public enum FramePolicy: Sendable, Equatable {
    /// Every frame, in order; a fast stage waits for a slow one (back-pressure). The output is a pure
    /// function of the input: the same command writes the same bytes.
    case offline
    /// Frames follow a clock (the sound card's or the capture's); when the renderer or a sink is
    /// behind, the frame is dropped and counted instead of delaying the ones after it.
    case realtime
    /// Real time with nobody watching (a recording alone): a full pool makes the source wait, as
    /// offline, and a real-time source drops frames only once it has fallen further behind its clock
    /// than it allows (`CaptureFrameSource`'s lag allowance; the capture keeps the sound meanwhile),
    /// so a moment of load costs the recording no frame.
    case realtimeBuffered
}
