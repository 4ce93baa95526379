import Foundation
import MarbleAnalysis
import MarbleCore
import MarblePipeline

/// A file played in real time as a frame source (`marble play`): frames follow the session's
/// ``RealTimePacer`` (the audio clock's) at the target rate, and each shows the features of the sound being heard at that moment, read from
/// the ``AudioClock`` (the sound card is the master clock, corrected by its latency).
///
/// Frame stepping: wait for the next tick (a tick more than a period late is dropped and counted);
/// move the samples the audio thread decoded into the causal analyser (a new one after a seek);
/// analyse the newest frame heard. While paused the picture holds (the same features again). The
/// source also reports the transport to the ``SessionComponent``: the position a few times a second
/// and the end of the media (the store decides whether the session ends there: `keepOpen`).
///
/// Safety of @unchecked Sendable: used by the pipeline's source thread only; `ended` is read after
/// that thread has finished.
final class PlaybackFrameSource: FrameSource, @unchecked Sendable {
    let pump: AudioPump
    let player: SessionComponent
    let controls: PlayerControls
    let fps: Rational
    private let sampleRate: Int
    private var extractor: FeatureExtractor
    /// How the sound is measured (the starting preset's analysis section): kept for a new track's extractor.
    private let configuration: AnalysisConfiguration
    /// The features of the newest frame analysed (held while paused).
    private var features: AudioFeatures
    private var generation = -1
    private var baseSample = 0
    private var appended = 0
    private var lastFrame = -1
    /// The frame clock, from the first call of `nextDueFrame`.
    private var ticks: FrameTicks?
    private var lastReport: UInt64 = 0

    /// The optional features the presets read (the spectrum, pitches); every extractor is asked for them.
    private let needs: OptionalFeatures

    init(pump: AudioPump, player: SessionComponent, sampleRate: Int, fps: Rational,
         configuration: AnalysisConfiguration = AnalysisConfiguration(), needs: OptionalFeatures = []) throws(MarbleError) {
        self.pump = pump
        self.player = player
        controls = PlayerControls(player: player, clock: pump.clock)
        self.sampleRate = sampleRate
        self.fps = fps
        self.configuration = configuration
        self.needs = needs
        extractor = try FeatureExtractor(sampleRate: sampleRate, fps: fps, configuration: configuration)
        try extractor.request(needs)
        features = extractor.makeFeatures()
    }

    var hasPictures: Bool { false }
    var warnings: [String] { [] }
    func makeFeatures() -> AudioFeatures { extractor.makeFeatures() }

    func nextDueFrame(cancel: CancellationFlag) throws(MarbleError) -> DueFrame? {
        let pacer = pump.clock.pacer
        var ticks = self.ticks ?? FrameTicks(fps: fps, start: pacer.now)
        defer { self.ticks = ticks }
        while !cancel.isCancelled {
            if let e = pump.error { throw e }
            let now = pacer.now
            if now &+ 1 < ticks.nextDue {
                pacer.wait(until: ticks.nextDue, slice: 0.05)
                continue
            }
            let (tick, late) = ticks.advance(now: now)

            let reading = pump.clock.reading
            if controls.isCurrent(reading) {
                if reading.ended && player.snapshot.status == .playing {
                    player.send(.mediaEnded)  // a fact: the store decides (the next song, the end, keep open)
                    if player.snapshot.outcome != nil { return nil }
                } else if now &- lastReport >= 250_000_000 {
                    player.send(.transport(.positionAdvanced(to: pump.clock.position(of: reading))))  // a few times a second
                    lastReport = now
                }
            }
            return DueFrame(index: tick, lateSkipped: late)
        }
        return nil
    }

    func produce(_ due: DueFrame, into slot: FrameSlot?) throws(MarbleError) {
        try takeSamples()
        let state = player.snapshot
        let current = controls.isCurrent(pump.clock.reading)
        analyse(at: current ? pump.clock.position(of: pump.clock.reading) : state.position, sensitivity: state.sensitivity)
        guard let slot else { return }
        slot.index = due.index
        slot.features.copy(from: features)
        slot.time = features.time
    }

    /// Moves the samples the audio thread decoded into the analyser; after a seek, starts a new one.
    private func takeSamples() throws(MarbleError) {
        var resetError: MarbleError?
        pump.handoff.drain(generation: &generation, reset: { base in
            baseSample = base
            appended = 0
            lastFrame = -1
            do throws(MarbleError) {
                extractor = try FeatureExtractor(sampleRate: sampleRate, fps: fps, configuration: configuration)
                try extractor.request(needs)
            } catch { resetError = error }
        }, append: { left, right in
            extractor.append(left: left, right: right)
            appended += left.count
        })
        if let e = resetError { throw e }
    }

    /// Analyses the frame heard at `position` seconds (or the newest one whose audio has been decoded,
    /// if that is earlier), with `sensitivity` applied. Keeps the last features if that frame is done.
    private func analyse(at position: Double, sensitivity: Float) {
        let relative = position - Double(baseSample) / Double(sampleRate)
        var frame = fps.frame(at: max(0, relative))
        while frame >= 0 && extractor.samplesNeeded(forFrame: frame) > appended { frame -= 1 }
        guard frame > lastFrame else { return }
        extractor.computeFeatures(forFrame: frame, into: &features)
        features.time += Double(baseSample) / Double(sampleRate)
        features.applySensitivity(sensitivity)
        lastFrame = frame
    }
}
