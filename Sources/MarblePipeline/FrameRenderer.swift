import MarbleCore
import MarbleRender

/// The render stage: draws each slot's frame with the compositor, into the slot's YUV frame (fused
/// with the colour conversion, band by band) and/or its RGBA canvas, whichever the sinks need.
///
/// The scene is fixed (a file render) or follows a selection read once per frame (a live session's
/// preset keys): a new selection builds a new compositor at the same size, the only allocation, and
/// only on a change.
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
    /// Returns the preset to draw with now (a name or a path), or nil to keep the current scene.
    private let selection: (@Sendable () -> String?)?
    /// Returns the size to draw at now (a terminal-only session follows the window), or nil.
    private let sizing: (@Sendable () -> (width: Int, height: Int))?
    private var scene: Preset
    /// The song drawn (a file render's tags, length and cover), given to every frame's uniforms.
    private let song: SongInfo?
    private var selected: String?
    /// False once a selection replaced the first scene (its layer timings no longer add up).
    private var onFirstScene = true
    /// The RGBA picture of a frame bound only for the encoder when the scene needs one whole (a
    /// filter); banded scenes draw in the compositor's band scratch and never touch it.
    private var workingCanvas: Texture?
    private(set) var busyMilliseconds = 0.0
    package private(set) var convertMilliseconds = 0.0
    /// Per layer of the first scene (the fixed one for file renders), summed over frames.
    package private(set) var layerMilliseconds: [Double]
    package let layerNames: [String]
    /// The warnings of the scenes a selection replaced (the current one's are read at the end).
    private var replacedWarnings: [String] = []
    /// What the scenes drawn so far report (``Compositor/warnings``): read after the render thread has ended.
    package var warnings: [String] {
        var seen = Set<String>()
        return (replacedWarnings + compositor.warnings).filter { seen.insert($0).inserted }
    }

    /// - Parameters:
    ///   - scene: the scene drawn first (and always, without a selection).
    ///   - selection: for live sessions, the preset chosen now; read once per frame.
    ///   - sizing: for sessions drawn only as pictures, the size to draw at now; read once per frame.
    ///   - song: what is known about the song drawn (nil for a live session).
    ///   - transparent: draw on transparent black instead of opaque black (an output with alpha).
    package init(scene: Preset, width: Int, height: Int, fps: Rational, threads: Int, song: SongInfo? = nil,
         transparent: Bool = false,
         selection: (@Sendable () -> String?)? = nil, selected: String? = nil,
         sizing: (@Sendable () -> (width: Int, height: Int))? = nil) throws(MarbleError) {
        self.width = width
        self.height = height
        self.fps = fps
        self.threads = threads
        self.transparent = transparent
        self.selection = selection
        self.selected = selected
        self.sizing = sizing
        self.scene = scene
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
        if let selection, let wanted = selection(), wanted != selected {
            scene = try PresetLibrary.load(wanted)
            try scene.validate()
            replacedWarnings += compositor.warnings
            compositor = try Compositor(preset: scene, width: width, height: height, threads: threads, transparent: transparent)
            selected = wanted
            onFirstScene = false
        }
        if let sizing, slot.yuv == nil {
            let size = sizing()
            if size.width != width || size.height != height, size.width > 0, size.height > 0 {
                width = size.width
                height = size.height
                replacedWarnings += compositor.warnings
                compositor = try Compositor(preset: scene, width: width, height: height, threads: threads, transparent: transparent)
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
        slot.readyTime = MonotonicClock.now()
        busyMilliseconds += Double(slot.readyTime &- start) / 1e6
        if onFirstScene {
            for i in layerMilliseconds.indices { layerMilliseconds[i] += compositor.lastLayerTimes[i] }
        }
    }
}
