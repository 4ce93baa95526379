import Foundation
import Synchronization
import MarbleCore
import MarbleMedia

/// One frame in flight: its features, its media picture, and its results: the YUV frame for encoding
/// sinks and/or the RGBA canvas for sinks that show or store pixels (PNG, terminal). Slots are made once
/// and circulate between the stages, so steady-state frames allocate nothing.
///
/// Safety of @unchecked Sendable: a slot is owned by one stage at a time; it changes hands only
/// through a ``BoundedQueue``, whose lock orders the writes of one stage before the reads of the next.
/// The sinks share it, reading only, and the last to finish gives it back (``holders``).
package final class FrameSlot: @unchecked Sendable {
    /// The frame's index on the output's frame grid (frame n is at n / fps seconds). In real time,
    /// consecutive slots may skip indices (frames dropped because they would have been late).
    package var index = 0
    package var time = 0.0
    package var features: AudioFeatures
    package let picture: Texture?
    package var pictureView: TextureView?
    /// Monotonic time (ns) at which the newest sample this frame analyses became available to the
    /// source (capture sessions; 0 for files), and at which the render stage finished it: their
    /// difference is the pipeline's share of the capture-to-picture latency.
    package var sourceTime: UInt64 = 0
    package var readyTime: UInt64 = 0
    /// The rendered picture, when a sink needs RGBA (nil when only encoders consume the frame: the
    /// render stage then converts to YUV in its own working memory). The render stage replaces it when
    /// the drawing size follows a resized terminal.
    package internal(set) var canvas: Texture?
    /// The frame in the encoder's format, when a sink encodes.
    let yuv: YUVFrame?
    /// Sinks still reading the slot; the last one gives it back to the pool.
    let holders = Atomic<Int>(0)

    package init(width: Int, height: Int, features: AudioFeatures, hasPicture: Bool, needs: FrameNeeds) throws(MarbleError) {
        self.features = features
        yuv = needs.contains(.yuv) ? try YUVFrame(width: width, height: height) : nil
        picture = hasPicture ? Texture(width: width, height: height) : nil
        canvas = needs.contains(.rgba) ? Texture(width: width, height: height) : nil
    }
}

/// What a sink reads of each frame.
package struct FrameNeeds: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// YUV 4:2:0 (BT.709, limited range), for encoders.
    package static let yuv = FrameNeeds(rawValue: 1)
    /// Premultiplied RGBA, for pictures (PNG, terminal, window).
    package static let rgba = FrameNeeds(rawValue: 2)
}

/// A flag any thread may raise to stop a job (Ctrl-C); stages poll it between frames.
public final class CancellationFlag: Sendable {
    private let state = Mutex(false)
    /// A flag that is not raised.
    public init() {}
    /// Raises the flag, from any thread (a signal handler's queue, a UI); it stays raised.
    public func cancel() { state.withLock { $0 = true } }
    /// Whether ``cancel()`` was called; safe from any thread.
    public var isCancelled: Bool { state.withLock { $0 } }
}

/// The first error any stage hit; later ones are dropped.
final class FirstError: Sendable {
    private let state = Mutex<MarbleError?>(nil)
    func record(_ e: MarbleError) { state.withLock { if $0 == nil { $0 = e } } }
    var error: MarbleError? { state.withLock { $0 } }
}
