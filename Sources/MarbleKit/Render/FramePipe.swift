import Foundation
import Synchronization

/// One frame in flight: its features, its media picture, and its result: the YUV frame for the encoder,
/// or the RGBA canvas for a PNG. Slots are made once and circulate between the stages, so steady-state
/// frames allocate nothing.
///
/// Safety of @unchecked Sendable: a slot is owned by exactly one stage at a time; it changes hands only
/// through a ``BoundedQueue``, whose lock orders the writes of one stage before the reads of the next.
final class FrameSlot: @unchecked Sendable {
    var index = 0
    var time = 0.0
    var features: AudioFeatures
    let picture: Texture?
    var pictureView: TextureView?
    /// The rendered picture, when the job writes a PNG (nil when it encodes: the render stage converts
    /// to YUV in its own working memory, so the RGBA picture never travels between stages).
    let canvas: Texture?
    /// The frame in the encoder's format (nil when the job writes a PNG).
    let yuv: YUVFrame?

    init(width: Int, height: Int, features: AudioFeatures, hasPicture: Bool, encoded: Bool) throws(MarbleError) {
        self.features = features
        yuv = encoded ? try YUVFrame(width: width, height: height) : nil
        picture = hasPicture ? Texture(width: width, height: height) : nil
        canvas = encoded ? nil : Texture(width: width, height: height)
    }
}

/// A fixed-capacity blocking FIFO between pipeline stages (back-pressure: a fast stage waits for a
/// slow one, so memory stays flat). Closing wakes every waiter; `pop` then drains what is left.
///
/// Safety of @unchecked Sendable: every stored property is read and written only with `condition` held.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element?]
    private var head = 0
    private var count = 0
    private var closed = false

    init(capacity: Int) { items = [Element?](repeating: nil, count: max(1, capacity)) }

    /// Appends, waiting while full. Returns false (dropping the element) once the queue is closed.
    @discardableResult
    func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count == items.count && !closed { condition.wait() }
        guard !closed else { return false }
        items[(head + count) % items.count] = element
        count += 1
        condition.broadcast()
        return true
    }

    /// Removes the oldest element, waiting while empty; nil once closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed { condition.wait() }
        guard count > 0 else { return nil }
        let e = items[head]
        items[head] = nil
        head = (head + 1) % items.count
        count -= 1
        condition.broadcast()
        return e
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

/// A flag any thread may raise to stop a job (Ctrl-C); stages poll it between frames.
public final class CancellationFlag: Sendable {
    private let state = Mutex(false)
    public init() {}
    public func cancel() { state.withLock { $0 = true } }
    public var isCancelled: Bool { state.withLock { $0 } }
}

/// The first error any stage hit; later ones are dropped.
final class FirstError: Sendable {
    private let state = Mutex<MarbleError?>(nil)
    func record(_ e: MarbleError) { state.withLock { if $0 == nil { $0 = e } } }
    var error: MarbleError? { state.withLock { $0 } }
}
