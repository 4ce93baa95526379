import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A timeline of one run, per thread and per frame, for a developer to open in a trace viewer
/// (`marble render --trace FILE`: Chrome's trace format, read by Perfetto and `chrome://tracing`).
///
/// Each thread that does a stage's work records spans (a ``FrameTrace/Span`` kind, the frame, the
/// wall interval and the thread's CPU time over it) into a lane of its own, found through a
/// thread-local key, so threads never share a lock while recording. When no trace is on, ``begin()``
/// is one relaxed atomic load and ``end(_:_:frame:)`` returns at once: the instrumented frame path
/// costs nothing in a normal run. Lanes grow in chunks of 16,384 spans (one allocation per chunk,
/// never per span) up to ``FrameTrace/spanLimit`` spans in all; later spans are counted, not kept.
package enum FrameTrace {
    /// What a span was spent on.
    package enum Span: UInt8, CaseIterable, Sendable {
        case analysis, replay, open
        case decode, produce, waitFreeSlot, waitToRender
        case waitFrame, render, waitToSinks
        case deliver
        case waitSinkFrame, encode
        case strips
        case sound, soundWait
        case finish

        /// The span's name in the trace.
        package var name: String {
            switch self {
            case .analysis: "analysis (first pass)"
            case .replay: "replay"
            case .open: "open"
            case .decode: "decode (the frame's sound)"
            case .produce: "features + picture"
            case .waitFreeSlot: "wait: free slot"
            case .waitToRender: "wait: render queue full"
            case .waitFrame: "wait: frame to draw"
            case .render: "draw + YUV"
            case .waitToSinks: "wait: sink queue full"
            case .deliver: "hand to sinks"
            case .waitSinkFrame: "wait: frame to encode"
            case .encode: "encode (x264/VP9) + mux"
            case .strips: "strips"
            case .sound: "sound: decode + encode + mux"
            case .soundWait: "sound: wait for video"
            case .finish: "finish (flush encoders, close)"
            }
        }

        /// Waits are what a developer looks for first: spans where a thread had nothing to do.
        package var isWait: Bool {
            switch self {
            case .waitFreeSlot, .waitToRender, .waitFrame, .waitToSinks, .waitSinkFrame, .soundWait: true
            default: false
            }
        }
    }

    /// Spans kept in all lanes together (32 bytes each: 128 MB at most, an hour of 60 fps takes about
    /// 2.6 million); later ones are counted in each lane's `dropped`.
    package static let spanLimit = 4 << 20

    private static let recording = Atomic<Bool>(false)
    private static let store = TraceStore()

    /// Starts a trace (the lanes of an earlier one are discarded). Threads record from now on, up to
    /// `spanLimit` spans in all (rounded up to whole chunks of 16,384).
    package static func start(spanLimit: Int = FrameTrace.spanLimit) {
        store.reset(spanLimit: spanLimit)
        recording.store(true, ordering: .releasing)
    }

    /// Stops recording and returns what was recorded. Call once the run's threads are done with their
    /// frames (helper threads that outlive the run only sleep by then).
    package static func stop() -> Recording {
        recording.store(false, ordering: .releasing)
        return store.take()
    }

    /// Whether a trace is recording.
    package static var isOn: Bool { recording.load(ordering: .relaxed) }

    /// The start of a span: now, or 0 when no trace is on.
    @inline(__always)
    package static func begin() -> Stamp {
        guard recording.load(ordering: .relaxed) else { return Stamp(wall: 0, cpu: 0) }
        return Stamp(wall: MonotonicClock.now(), cpu: threadCPU())
    }

    /// Ends a span begun at `since` on this thread (nothing when it was begun with no trace on).
    @inline(__always)
    package static func end(_ kind: Span, _ since: Stamp, frame: Int = -1) {
        guard since.wall != 0, recording.load(ordering: .relaxed) else { return }
        store.lane().append(TraceEvent(start: since.wall, end: MonotonicClock.now(), cpu: threadCPU() &- since.cpu,
                                       frame: Int32(truncatingIfNeeded: frame), kind: kind.rawValue))
    }

    /// Names this thread: its lane in a trace takes the name, and the system's thread name (what
    /// `top -H` and `perf` show) its first 15 bytes, the most Linux keeps (a longer one would be
    /// refused, and the thread would go on with the name it inherited from its creator).
    package static func nameThread(_ name: String) {
        Thread.current.threadDictionary[laneNameKey] = name
        Thread.current.name = String(decoding: name.utf8.prefix(15), as: UTF8.self)
    }

    static let laneNameKey = "marble.trace.lane"

    /// A span's start: the wall clock and the thread's CPU clock.
    package struct Stamp: Sendable {
        let wall: UInt64
        let cpu: UInt64
    }

    /// The calling thread's CPU time in nanoseconds.
    @inline(__always)
    static func threadCPU() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }
}

/// One recorded span.
struct TraceEvent {
    var start: UInt64
    var end: UInt64
    var cpu: UInt64
    var frame: Int32
    var kind: UInt8
}

/// A thread's spans, appended by that thread alone; handed over when recording stops.
///
/// Safety of @unchecked Sendable: `append` and `name` are used only by the lane's thread while
/// recording; ``TraceStore/take()`` moves the spans out after ``FrameTrace/stop()``, once the
/// recording threads are done with their frames (the run's threads have been joined by then).
final class TraceLane: @unchecked Sendable {
    static let chunk = 16_384
    let generation: Int
    var name: String
    private var chunks: [UnsafeMutablePointer<TraceEvent>] = []
    private var count = 0
    private var dropped = 0
    private let budget: TraceBudget

    init(generation: Int, name: String, budget: TraceBudget) {
        self.generation = generation
        self.name = name
        self.budget = budget
    }

    deinit { for c in chunks { c.deallocate() } }

    func append(_ event: TraceEvent) {
        let slot = count % Self.chunk
        if slot == 0 && count / Self.chunk == chunks.count {
            guard budget.take(Self.chunk) else {
                dropped += 1
                return
            }
            chunks.append(.allocate(capacity: Self.chunk))
        }
        chunks[count / Self.chunk][slot] = event
        count += 1
    }

    /// The spans recorded, in order (the lane is empty afterwards), and how many were not kept.
    func drain() -> (events: [TraceEvent], dropped: Int) {
        var events: [TraceEvent] = []
        events.reserveCapacity(count)
        for i in 0..<count { events.append(chunks[i / Self.chunk][i % Self.chunk]) }
        for c in chunks { c.deallocate() }
        chunks = []
        defer { count = 0; dropped = 0 }
        return (events, dropped)
    }
}

/// Spans left to keep in the current trace, shared by its lanes.
final class TraceBudget: Sendable {
    private let left: Atomic<Int>
    init(_ spans: Int) { left = Atomic(max(0, spans)) }
    func take(_ n: Int) -> Bool { left.wrappingSubtract(n, ordering: .relaxed).oldValue > 0 }
}

/// The lanes of the current trace, one per thread through a pthread key that holds a reference to the
/// thread's lane (released by the key's destructor when the thread ends, or replaced by a later
/// trace's lane).
///
/// Safety of @unchecked Sendable: `lanes` and `budget` are read and written under `lock`; `key` is
/// written once, in `init`.
final class TraceStore: @unchecked Sendable {
    private let lock = NSLock()
    private var lanes: [TraceLane] = []
    private var budget = TraceBudget(0)
    private var key = pthread_key_t()
    private let generation = Atomic<Int>(0)

    init() {
        pthread_key_create(&key) { raw in if let raw { Unmanaged<TraceLane>.fromOpaque(raw).release() } }
    }

    func reset(spanLimit: Int) {
        lock.lock()
        lanes = []
        budget = TraceBudget(spanLimit)
        generation.add(1, ordering: .releasing)
        lock.unlock()
    }

    /// This thread's lane in the current trace, made on its first span.
    func lane() -> TraceLane {
        let now = generation.load(ordering: .acquiring)
        if let raw = pthread_getspecific(key) {
            let lane = Unmanaged<TraceLane>.fromOpaque(raw)
            if lane.takeUnretainedValue().generation == now { return lane.takeUnretainedValue() }
            lane.release()
        }
        lock.lock()
        defer { lock.unlock() }
        let lane = TraceLane(generation: now, name: Self.threadName() ?? "thread \(lanes.count + 1)", budget: budget)
        lanes.append(lane)
        pthread_setspecific(key, Unmanaged.passRetained(lane).toOpaque())
        return lane
    }

    /// The calling thread's name, if it was given one (``FrameTrace/nameThread(_:)``).
    private static func threadName() -> String? {
        if let name = Thread.current.threadDictionary[FrameTrace.laneNameKey] as? String { return name }
        guard let name = Thread.current.name, !name.isEmpty else { return nil }
        return name
    }

    func take() -> FrameTrace.Recording {
        lock.lock()
        defer { lock.unlock() }
        let taken = lanes.map { lane in
            let (events, dropped) = lane.drain()
            return FrameTrace.Recording.Lane(name: lane.name, events: events, dropped: dropped)
        }
        lanes = []
        generation.add(1, ordering: .releasing)
        return FrameTrace.Recording(lanes: taken)
    }
}
