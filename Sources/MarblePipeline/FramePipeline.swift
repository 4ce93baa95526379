import Foundation
import MarbleCore

/// The one frame path of MarbleKit: a ``FrameSource`` → the ``FrameRenderer`` → one or more
/// ``FrameSink``s, on three threads joined by bounded queues of pooled ``FrameSlot``s.
///
/// 1. the source thread asks the source for the next due frame and fills a free slot with its
///    features and picture;
/// 2. the render thread draws it (fanning out over row bands on all cores);
/// 3. the calling thread hands it to every sink, each on a thread of its own (``SinkWorker``); the
///    slot returns to the pool when the last of them is done with it.
///
/// `render`, `play`, `live` and `bench` are configurations of it. The ``FramePolicy`` decides what a
/// full pool means: offline, the source waits (back-pressure, deterministic bytes); in real time, the
/// due frame is dropped and counted (and the source's own late frames are counted too).
package final class FramePipeline {
    let source: any FrameSource
    let renderer: FrameRenderer
    let sinks: [any FrameSink]
    let policy: FramePolicy
    /// What a sink's error does: ends the run, or closes that sink alone.
    let sinkFailures: SinkFailureRule
    private let poolSize: Int

    package init(source: any FrameSource, renderer: FrameRenderer, sinks: [any FrameSink], policy: FramePolicy,
                 sinkFailures: SinkFailureRule = .stopsRun, poolSize: Int = 4) {
        self.source = source
        self.renderer = renderer
        self.sinks = sinks
        self.policy = policy
        self.sinkFailures = sinkFailures
        self.poolSize = poolSize
    }

    /// Runs until the source ends, `cancel` is raised, or a stage fails. `progress` is called on the
    /// calling thread after a frame was consumed, at most every `progressInterval` seconds. Sinks are
    /// finished (or, after an error, aborted) on their own threads before it returns, except a sink
    /// that stopped returning, which is abandoned (see ``SinkWorker``). A sink's error is what
    /// ``sinkFailures`` says: the run's, or that sink's alone (``PipelineStatistics/failedOutputs``).
    package func run(cancel: CancellationFlag, progressInterval: Double = 0.2,
             progress: (PipelineStatistics) -> Void = { _ in }) throws(MarbleError) -> PipelineStatistics {
        let queues = try makeQueues()
        let (free, toRender, toSinks, waits) = (queues.free, queues.toRender, queues.toSinks, queues.waits)
        let failure = FirstError()
        let counters = PipelineCounters()
        let stopAll: @Sendable () -> Void = { free.close(); toRender.close(); toSinks.close() }
        let sourceDone = DispatchSemaphore(value: 0)
        let renderDone = DispatchSemaphore(value: 0)
        let stepper = SourceStepper(source: source, policy: policy, counters: counters, cancel: cancel)
        startThreads(stepper: stepper, queues: queues, failure: failure, stopAll: stopAll,
                     sourceDone: sourceDone, renderDone: renderDone)

        // The fan-out: each sink on its own thread. In real time a sink that is behind misses frames
        // (its own count) rather than holding up the others; a lone sink is waited for, so that the
        // source drops frames as before (``FramePolicy/realtime``), unless it stops returning.
        let workers = zip(sinks, queues.capacities).map { SinkWorker(sink: $0, capacity: $1) }
        let release: @Sendable (FrameSlot) -> Void = { slot in
            if slot.holders.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { free.push(slot) }
        }
        let rule = sinkFailures
        for worker in workers {
            worker.start(release: release, fail: { error in
                // The failed sink is already aborted on its thread; the run ends only when no sink is left.
                if rule == .stopsRun || workers.allSatisfy(\.hasFailed) {
                    failure.record(error)
                    stopAll()
                }
            })
        }

        var statistics = PipelineStatistics()
        let started = MonotonicClock.now()
        let offer: SinkWorker.Offer = !waits ? .dropWhenFull : policy == .offline ? .wait : .waitUnlessStalled
        deliver(toSinks, to: workers, offer: offer, release: release, counters: counters, started: started,
                statistics: &statistics, progressInterval: progressInterval, progress: progress)
        sourceDone.wait()
        renderDone.wait()
        // Each sink ends on its own thread: finished (what is queued first), or aborted after an error.
        let failed = failure.error
        for worker in workers { worker.end(failed == nil ? .finish(stopped: cancel.isCancelled) : .abort) }
        for worker in workers { worker.waitForEnd() }
        if let failed {
            abortFinished(workers)
            throw failed
        }
        try settle(workers, into: &statistics)
        finish(&statistics, counters: counters, workers: workers, stepper: stepper, started: started)
        return statistics
    }

    /// After every sink ended: the sinks that failed or stopped returning. Under ``SinkFailureRule/stopsRun``
    /// the first of them fails the run (the others' outputs removed); under ``SinkFailureRule/closesSink``
    /// they are listed in `statistics` and the run fails only when no sink is left.
    private func settle(_ workers: [SinkWorker], into statistics: inout PipelineStatistics) throws(MarbleError) {
        let lost = workers.compactMap { worker -> (label: String, error: MarbleError)? in
            if worker.isAbandoned {
                let seconds = String(format: "%g", worker.sink.stallLimit)
                return (worker.sink.label, MarbleError(.device, "\(worker.sink.label): not responding for \(seconds) s; abandoned"))
            }
            return worker.failure.map { (worker.sink.label, $0) }
        }
        guard let first = lost.first else { return }
        if sinkFailures == .stopsRun || lost.count == workers.count {
            abortFinished(workers)
            throw first.error
        }
        statistics.failedOutputs = lost.map { PipelineStatistics.FailedOutput(label: $0.label, message: $0.error.message) }
    }

    /// Removes what the sinks that ended wrote (a failed run leaves nothing behind); a sink that was
    /// abandoned is not called again.
    private func abortFinished(_ workers: [SinkWorker]) {
        for worker in workers where !worker.isAbandoned { worker.sink.abort() }
    }
}

extension FramePipeline {
    /// The pipeline's queues: free slots, slots to render, slots for the sinks; each sink's queue
    /// capacity, and whether the sinks are waited for (offline, or a lone sink).
    fileprivate struct Queues {
        let free: BoundedQueue<FrameSlot>, toRender: BoundedQueue<FrameSlot>, toSinks: BoundedQueue<FrameSlot>
        let capacities: [Int]
        let waits: Bool
    }

    /// The queues, the free one filled with slots: the pool's, and with several sinks slots for all
    /// of their queues besides.
    fileprivate func makeQueues() throws(MarbleError) -> Queues {
        let needs = sinks.reduce(FrameNeeds()) { $0.union($1.needs) }
        let waits = policy != .realtime || sinks.count == 1
        let capacities = sinks.map { waits ? poolSize : Self.realtimeQueue(for: $0) }
        let slots = sinks.count > 1 ? poolSize + capacities.reduce(0, +) : poolSize
        let free = BoundedQueue<FrameSlot>(capacity: slots)
        for _ in 0..<slots {
            free.push(try FrameSlot(width: renderer.width, height: renderer.height, features: source.makeFeatures(),
                                    hasPicture: source.hasPictures, needs: needs))
        }
        return Queues(free: free, toRender: BoundedQueue(capacity: poolSize), toSinks: BoundedQueue(capacity: poolSize),
                      capacities: capacities, waits: waits)
    }

    /// Starts the source thread (free slots → filled ones to render) and the render thread (→ the
    /// sinks' queue); each signals its semaphore when done, and on an error records it and stops all.
    fileprivate func startThreads(stepper: SourceStepper, queues: Queues, failure: FirstError, stopAll: @escaping @Sendable () -> Void,
                                  sourceDone: DispatchSemaphore, renderDone: DispatchSemaphore) {
        let renderer = self.renderer
        let (free, toRender, toSinks) = (queues.free, queues.toRender, queues.toSinks)
        Thread.detachNewThread {
            FrameTrace.nameThread("source")
            do throws(MarbleError) { try stepper.run(free: free, out: toRender) } catch { failure.record(error); stopAll() }
            toRender.close()
            sourceDone.signal()
        }
        Thread.detachNewThread {
            FrameTrace.nameThread("render")
            while true {
                let wait = FrameTrace.begin()
                guard let slot = toRender.pop() else { break }
                FrameTrace.end(.waitFrame, wait, frame: slot.index)
                let span = FrameTrace.begin()
                do throws(MarbleError) { try renderer.render(slot) } catch { failure.record(error); stopAll(); break }
                FrameTrace.end(.render, span, frame: slot.index)
                let push = FrameTrace.begin()
                guard toSinks.push(slot) else { break }
                FrameTrace.end(.waitToSinks, push, frame: slot.index)
            }
            toSinks.close()
            renderDone.signal()
        }
    }

    /// Hands each rendered slot to every sink worker (a slot a worker does not take is released for
    /// it) until the render thread closes `toSinks`, reporting `progress` at most every `progressInterval` seconds.
    fileprivate func deliver(_ toSinks: BoundedQueue<FrameSlot>, to workers: [SinkWorker], offer: SinkWorker.Offer,
                             release: (FrameSlot) -> Void, counters: PipelineCounters, started: UInt64,
                             statistics: inout PipelineStatistics, progressInterval: Double,
                             progress: (PipelineStatistics) -> Void) {
        var lastReport = started
        while let slot = toSinks.pop() {
            statistics.record(slot, previousIndex: statistics.lastIndex)
            slot.holders.store(workers.count, ordering: .releasing)
            let span = FrameTrace.begin()
            for worker in workers where !worker.offer(slot, offer) { release(slot) }
            FrameTrace.end(.deliver, span, frame: slot.index)
            let now = MonotonicClock.now()
            if Double(now &- lastReport) >= progressInterval * 1e9 {
                lastReport = now
                counters.copy(into: &statistics)
                statistics.collect(from: workers)
                statistics.wallSeconds = Double(now &- started) / 1e9
                progress(statistics)
            }
        }
    }

    /// The final figures: counters, the sinks' own, wall time since `started`, and each stage's busy time.
    fileprivate func finish(_ statistics: inout PipelineStatistics, counters: PipelineCounters, workers: [SinkWorker],
                            stepper: SourceStepper, started: UInt64) {
        counters.copy(into: &statistics)
        statistics.collect(from: workers)
        statistics.wallSeconds = Double(MonotonicClock.now() &- started) / 1e9
        statistics.sourceMilliseconds = stepper.busyMilliseconds
        statistics.renderMilliseconds = renderer.busyMilliseconds
        statistics.convertMilliseconds = renderer.convertMilliseconds
    }
}

extension FramePipeline {
    /// How many frames a sink's queue holds in real time beside other sinks before it misses one: a
    /// display 2 (it skips to the newest anyway); an encoder 4, so a burst of frames (the first ones,
    /// while its encoder starts) or a moment's contention costs a recording or a stream no frame, and a
    /// stalled one still misses frames after 4 rather than holding the pool.
    static func realtimeQueue(for sink: any FrameSink) -> Int { sink.showsLatestOnly ? 2 : 4 }
}

/// The source thread: asks for the next due frame, finds it a slot (or drops it), fills it.
///
/// Safety of @unchecked Sendable: used by the source thread only; `busyMilliseconds` is read after
/// that thread has signalled completion.
private final class SourceStepper: @unchecked Sendable {
    let source: any FrameSource
    let policy: FramePolicy
    let counters: PipelineCounters
    let cancel: CancellationFlag
    private(set) var busyMilliseconds = 0.0

    init(source: any FrameSource, policy: FramePolicy, counters: PipelineCounters, cancel: CancellationFlag) {
        self.source = source
        self.policy = policy
        self.counters = counters
        self.cancel = cancel
    }

    func run(free: BoundedQueue<FrameSlot>, out: BoundedQueue<FrameSlot>) throws(MarbleError) {
        while !cancel.isCancelled {
            var start = MonotonicClock.now()
            let decode = FrameTrace.begin()
            guard let due = try source.nextDueFrame(cancel: cancel) else { return }
            FrameTrace.end(.decode, decode, frame: due.index)
            counters.add(late: due.lateSkipped, idle: due.idleSkipped)
            let slot: FrameSlot?
            switch policy {
            case .offline, .realtimeBuffered:
                busyMilliseconds += MonotonicClock.milliseconds(since: start)
                let wait = FrameTrace.begin()
                guard let waited = free.pop() else { return }
                FrameTrace.end(.waitFreeSlot, wait, frame: due.index)
                slot = waited
                start = MonotonicClock.now()
            case .realtime:
                slot = due.isLast ? free.pop() : free.tryPop()
                if slot == nil {
                    if free.isClosed { return }
                    counters.add(late: 1, idle: 0)
                }
            }
            let span = FrameTrace.begin()
            try source.produce(due, into: slot)
            FrameTrace.end(.produce, span, frame: due.index)
            busyMilliseconds += MonotonicClock.milliseconds(since: start)
            let push = FrameTrace.begin()
            if let slot { guard out.push(slot) else { return } }
            FrameTrace.end(.waitToRender, push, frame: due.index)
        }
    }
}
