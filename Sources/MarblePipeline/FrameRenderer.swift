import MarbleCore
import MarbleRender

/// The render stage: draws each slot's frame with the compositor, into the slot's YUV frame (fused
/// with the colour conversion, band by band) and/or its RGBA canvas, whichever the sinks need.
///
/// The scene is fixed (a file render) or follows a ``SceneChoice`` read once per frame (a live
/// session's preset keys, its preset file saved, OSC): a new preset, a saved file or a changed
/// parameter that is not a number builds a new compositor at the same size, the only allocation, and
/// only on a change; a number changes in place, keeping the layers' state. A choice that does not load
/// keeps the last good scene. A flash lifts the finished picture towards white for a few frames.
///
/// Safety of @unchecked Sendable: used by the render thread only; `init` runs before that thread
/// starts and the counters are read after it has ended.
package final class FrameRenderer: @unchecked Sendable {
    /// The drawing size: fixed, or following ``sizing`` (pictures only; a YUV frame keeps its size).
    private(set) var width: Int, height: Int
    let fps: Rational
    let threads: Int
    /// Frames start from transparent black (see ``Compositor``): for outputs that keep alpha.
    let transparent: Bool
    private(set) var compositor: Compositor
    /// Returns what to draw now (a live session's choice), read once per frame; nil for a fixed scene.
    private let choose: (@Sendable () -> SceneChoice)?
    /// The choice drawn now, and the parameter changes applied to the compositor, in their order.
    private var chosen: SceneChoice?
    /// The choice the last frame drew (for `marble bench --control`).
    package var lastChoice: SceneChoice? { chosen }
    private var applied: [ParameterChange] = []
    /// The scene as loaded, before parameter changes.
    private var base: Preset
    /// The media time the last flash was asked at, while it shows.
    private var flashStart: Double?
    /// Returns the size to draw at now (a terminal-only session follows the window), or nil.
    private let sizing: (@Sendable () -> (width: Int, height: Int))?
    /// The song drawn (a file render's tags, length and cover), given to every frame's uniforms.
    private let song: SongInfo?
    /// False once a choice replaced the first scene (its layer timings no longer add up).
    private var onFirstScene = true
    /// The RGBA picture of a frame bound only for the encoder when the scene needs one whole (a
    /// filter); banded scenes draw in the compositor's band scratch and never touch it.
    private var workingCanvas: Texture?
    private(set) var busyMilliseconds = 0.0
    package private(set) var convertMilliseconds = 0.0
    /// Per layer of the first scene (the fixed one for file renders), summed over frames.
    package private(set) var layerMilliseconds: [Double]
    package let layerNames: [String]
    /// Compositors built by ``show(_:)`` (numbers changed in place build none).
    package private(set) var sceneRebuilds = 0
    /// The warnings of the scenes a choice replaced (the current one's are read at the end).
    private var replacedWarnings: [String] = []
    /// What the scenes drawn so far report (``Compositor/warnings``): read after the render thread has ended.
    package var warnings: [String] {
        var seen = Set<String>()
        return (replacedWarnings + compositor.warnings).filter { seen.insert($0).inserted }
    }

    /// - Parameters:
    ///   - scene: the scene drawn first (and always, without a selection).
    ///   - choose: for live sessions, what to draw now; read once per frame.
    ///   - sizing: for sessions drawn only as pictures, the size to draw at now; read once per frame.
    ///   - song: what is known about the song drawn (nil for a live session).
    ///   - transparent: draw on transparent black instead of opaque black (an output with alpha).
    package init(scene: Preset, width: Int, height: Int, fps: Rational, threads: Int, song: SongInfo? = nil,
         transparent: Bool = false,
         choose: (@Sendable () -> SceneChoice)? = nil, chosen: SceneChoice? = nil,
         sizing: (@Sendable () -> (width: Int, height: Int))? = nil) throws(MarbleError) {
        self.width = width
        self.height = height
        self.fps = fps
        self.threads = threads
        self.transparent = transparent
        self.choose = choose
        self.chosen = chosen
        self.sizing = sizing
        base = scene
        self.song = song
        MilkTextureLoader.installed
        compositor = try Compositor(preset: scene, width: width, height: height, threads: threads, transparent: transparent)
        layerNames = compositor.layerNames
        layerMilliseconds = [Double](repeating: 0, count: layerNames.count)
    }

    /// Advances the scene through frame `index` without drawing it (see ``Compositor/advance(_:)``).
    /// Call it before the pipeline runs (it touches the compositor, which is the render thread's then).
    package func advance(features: AudioFeatures, index: Int) {
        compositor.advance(FrameUniforms(time: fps.seconds(ofFrame: index), frameIndex: index, fps: fps,
                                         width: width, height: height, features: features, song: song))
    }

    /// Draws `slot`'s frame. Allocates nothing unless the selected preset or the size changed.
    package func render(_ slot: FrameSlot) throws(MarbleError) {
        if let choose { follow(choose(), at: slot.time) }
        if let sizing, slot.yuv == nil {
            let size = sizing()
            if size.width != width || size.height != height, size.width > 0, size.height > 0 {
                width = size.width
                height = size.height
                replacedWarnings += compositor.warnings
                compositor = try Compositor(preset: drawn, width: width, height: height, threads: threads,
                                            transparent: transparent)
                onFirstScene = false
            }
            if let canvas = slot.canvas, canvas.width != width || canvas.height != height {
                slot.canvas = Texture(width: width, height: height)
            }
        }
        let uniforms = FrameUniforms(time: slot.time, frameIndex: slot.index, fps: fps, width: width,
                                     height: height, features: slot.features, input: slot.pictureView, song: song)
        let start = MonotonicClock.now()
        if let yuv = slot.yuv {
            try yuv.prepareForWriting()
            let canvas: Texture?
            if let own = slot.canvas {
                canvas = own
            } else if compositor.isBanded {
                canvas = nil
            } else {
                if workingCanvas == nil { workingCanvas = Texture(width: width, height: height) }
                canvas = workingCanvas
            }
            // Colour conversion happens in the same pass, band by band while the rows are in cache.
            compositor.render(uniforms, into: canvas, convertingInto: yuv.planes)
            convertMilliseconds += compositor.lastConvertTime
        } else if let canvas = slot.canvas {
            compositor.render(uniforms, into: canvas)
        }
        if let flashStart { flash(since: flashStart, slot) }
        slot.readyTime = MonotonicClock.now()
        busyMilliseconds += Double(slot.readyTime &- start) / 1e6
        if onFirstScene {
            for i in layerMilliseconds.indices { layerMilliseconds[i] += compositor.lastLayerTimes[i] }
        }
    }

    /// Draws `scene` from the next frame on (a studio page's edits): when only numbers changed they are
    /// set in place and every layer keeps its state; anything else builds a new compositor at the same
    /// size (the only allocation). For a fixed-scene renderer (no `choose`).
    /// - Throws: `.preset` when `scene` does not validate or build; the current scene stays.
    package func show(_ scene: Preset) throws(MarbleError) {
        precondition(choose == nil, "FrameRenderer.show: this renderer follows a session's choice")
        let current = drawn
        guard scene != current else { return }
        try scene.validate()
        if let changes = current.numberChanges(to: scene), changes.allSatisfy({ compositor.setNumberInPlace($0) }) {
            base = scene
            applied = []
            return
        }
        let next = try Compositor(preset: scene, width: width, height: height, threads: threads, transparent: transparent)
        replacedWarnings += compositor.warnings
        compositor = next
        base = scene
        applied = []
        onFirstScene = false
        sceneRebuilds += 1
    }

    /// The scene drawn now: the base with the parameter changes applied.
    private var drawn: Preset { (try? base.applying(applied)) ?? base }

    /// Follows `choice`: a new preset or a saved file loads (the last good scene stays if it does not),
    /// changed numbers are set in place, other changes rebuild the compositor; cues start.
    private func follow(_ choice: SceneChoice, at time: Double) {
        defer { chosen = choice }
        if let preset = choice.preset, preset != chosen?.preset || choice.fileRevision != chosen?.fileRevision {
            guard let loaded = try? PresetLibrary.load(preset), (try? loaded.validate()) != nil else { return }
            base = loaded
            applied = choice.parameters
            rebuild()
        } else if choice.parameterRevision != chosen?.parameterRevision {
            var inPlace = true
            for (i, change) in choice.parameters.enumerated() where i >= applied.count || applied[i] != change {
                if !compositor.setNumberInPlace(change) { inPlace = false; break }
            }
            let before = applied
            applied = choice.parameters
            if !inPlace, (try? base.applying(applied)) != nil { rebuild() } else if !inPlace { applied = before }
        }
        if choice.skips != chosen?.skips, chosen != nil { compositor.skipToNext() }
        if choice.flashes != chosen?.flashes, chosen != nil { flashStart = time }
    }

    /// A new compositor for ``drawn`` at the current size; on failure the current one stays.
    private func rebuild() {
        guard let next = try? Compositor(preset: drawn, width: width, height: height, threads: threads,
                                         transparent: transparent) else { return }
        replacedWarnings += compositor.warnings
        compositor = next
        onFirstScene = false
    }

    /// Lifts the slot's picture (and its YUV frame) towards white, fading from the flash's start.
    private func flash(since start: Double, _ slot: FrameSlot) {
        let strength = Flash.strength(elapsed: slot.time - start)
        guard strength > 0 else {
            if slot.time - start >= Flash.lastsSeconds { flashStart = nil }
            return
        }
        if let canvas = slot.canvas { Flash.apply(strength, to: canvas.view) }
        if let yuv = slot.yuv { Flash.apply(strength, to: yuv.planes, width: width, height: height) }
    }
}
