import MarbleCore

/// A list of presets played one after another, as projectM plays a folder: each shown for a while,
/// then replaced by a hard cut on a strong beat or, when none comes, a soft blend of a few seconds.
///
/// Timing: after `switchSeconds` with the current preset, the playlist waits up to two seconds for a
/// beat (`isBeat` with `bass` at least ``Options/cutBass``) and cuts on it; without one it starts a
/// blend of `blendSeconds`, during which both presets run and their pictures are mixed. A very
/// strong beat (`bass` at least ``Options/earlyCutBass``) may cut once half the time has passed.
/// Everything is decided from the frame's time and sound, so a render is the same every time.
/// Presets that fail to load are skipped and listed in ``skipped``; so is a preset whose code runs out
/// of its work budget (``MilkDropLimits/workBudget``): the next frame cuts to the next preset, and the
/// list never plays it again. The path ``DefaultPreset/name`` stands for the built-in preset.
package final class MilkPlaylist {
    package struct Options: Sendable {
        /// Seconds per preset (0: never switch).
        package var switchSeconds = 30.0
        /// Length of a soft blend in seconds (0: always cut).
        package var blendSeconds = 2.5
        /// Cut on strong beats instead of blending when one comes at the switch time.
        package var hardCuts = true
        /// Play in a shuffled order (repeatable: from `seed`), else in file order.
        package var shuffle = false
        /// Seeds the order and each preset's `rand`.
        package var seed: UInt64 = 0
        /// The warp mesh's cells.
        package var meshColumns = 48, meshRows = 36
        /// Run the presets' HLSL shaders (else MilkDrop 1.x's fixed warp and composite for every preset).
        package var shaders = true
        /// Folders searched for the shaders' disk textures (then each preset's own folder).
        package var textureFolders: [String] = []
        /// Decodes disk textures (nil: every disk texture gets the stand-in).
        package var imageLoader: (any ShaderImageLoader)?
        /// `bass` a beat needs to cut at the switch time, and to cut early.
        package var cutBass: Float = 1.3, earlyCutBass: Float = 2.4
        package init() {}
    }

    /// How the picture is made at the moment: one preset, or two mixed.
    package enum Transition: Equatable, Sendable {
        case none
        /// The incoming preset's weight, 0…1.
        case blending(Float)
    }

    package let options: Options
    /// The files in playing order.
    package let paths: [String]
    /// The preset on screen (the outgoing one during a blend).
    package private(set) var active: MilkRenderer
    /// The preset blending in, during a blend.
    package private(set) var incoming: MilkRenderer?
    package private(set) var transition = Transition.none
    /// Files that failed to load or ran out of their work budget, with the reason, in the order they
    /// were met.
    package private(set) var skipped: [(path: String, reason: String)] = []
    /// Switches so far, and how many of them were cuts.
    package private(set) var switches = 0, cuts = 0

    private var position: Int
    private var shownSince = 0.0, blendStart = 0.0
    private var width = 0, height = 0, scale: Float = 1, compositeAtScale = false
    private var loads = 0
    /// Set by ``skipToNext()``: the next ``update(time:isBeat:bass:)`` cuts to the next preset.
    private var skipRequested = false
    /// Files whose code ran out of its work budget: never loaded again.
    private var overBudget: Set<String> = []
    /// Where the presets' shaders find their disk textures (shared: a texture loads once).
    private let textures: DiskTextures?

    /// A playlist of `paths` (at least one); throws the first file's error when no file loads.
    package init(paths: [String], options: Options = Options()) throws(MilkPresetError) {
        guard !paths.isEmpty else { throw MilkPresetError(path: "", message: "no presets to play", reason: .noPresetContent) }
        self.options = options
        if options.shuffle {
            var order = paths
            var g = SplitMix64(seed: options.seed ^ 0x5348_5546)
            for i in stride(from: order.count - 1, to: 0, by: -1) {
                order.swapAt(i, Int(g.next() % UInt64(i + 1)))
            }
            self.paths = order
        } else {
            self.paths = paths
        }
        let textures = options.shaders ? options.imageLoader.map { DiskTextures(folders: options.textureFolders, loader: $0) } : nil
        self.textures = textures
        var firstError: MilkPresetError?
        var skippedNow: [(String, String)] = []
        for (i, path) in self.paths.enumerated() {
            do {
                active = try Self.renderer(path, index: i, options: options, textures: textures)
                position = i
                loads = 1
                skipped = skippedNow.map { (path: $0.0, reason: $0.1) }
                return
            } catch {
                firstError = firstError ?? error
                skippedNow.append((path, error.description))
            }
        }
        throw firstError ?? MilkPresetError(path: paths[0], message: "no preset loads", reason: .noPresetContent)
    }

    /// Sizes the presets' buffers (see ``MilkRenderer/configure(width:height:scale:compositeAtScale:)``).
    package func configure(width: Int, height: Int, scale: Float, compositeAtScale: Bool = false) {
        self.width = width; self.height = height; self.scale = scale; self.compositeAtScale = compositeAtScale
        active.configure(width: width, height: height, scale: scale, compositeAtScale: compositeAtScale)
        incoming?.configure(width: width, height: height, scale: scale, compositeAtScale: compositeAtScale)
    }

    /// Decides this frame's switch: call once per frame before preparing the presets.
    package func update(time: Double, isBeat: Bool, bass: Float) {
        skipOverBudget(time: time)
        if skipRequested {
            skipRequested = false
            if paths.count > 1, let next = loadNext() {
                active = next; incoming = nil; transition = .none
                shownSince = time; switches += 1; cuts += 1
                return
            }
        }
        if case .blending = transition, let next = incoming {
            let t = options.blendSeconds > 0 ? (time - blendStart) / options.blendSeconds : 1
            if t >= 1 || time < blendStart {
                active = next; incoming = nil; transition = .none
            } else {
                transition = .blending(Float(max(0, t)))
            }
            return
        }
        if time < shownSince { shownSince = time }   // a restart
        guard options.switchSeconds > 0, paths.count > 1 else { return }
        let shown = time - shownSince
        let due = shown >= options.switchSeconds
        let beat = isBeat && bass >= options.cutBass
        if options.hardCuts && ((due && beat) || (isBeat && bass >= options.earlyCutBass && shown >= options.switchSeconds / 2)) {
            guard let next = loadNext() else { return }
            active = next; shownSince = time; switches += 1; cuts += 1
        } else if due && (!options.hardCuts || shown >= options.switchSeconds + 2 || options.blendSeconds == 0) {
            guard let next = loadNext() else { return }
            switches += 1; shownSince = time
            if options.blendSeconds > 0 {
                incoming = next; blendStart = time; transition = .blending(0)
            } else {
                active = next; cuts += 1
            }
        }
    }

    /// Asks for a cut to the next preset at the next frame (a performer's "next"), whatever the
    /// switching rules say; a blend in progress ends with it. Nothing happens with a single preset.
    package func skipToNext() { skipRequested = true }

    /// Drops a preset whose code ran out of its work budget on the last frame: a blend in with it is
    /// called off; the one on screen is cut to the next preset that loads (kept when none does).
    private func skipOverBudget(time: Double) {
        if let next = incoming, let error = next.preset.overrunError {
            markOverBudget(error)
            incoming = nil; transition = .none
        }
        // Once per preset: when no other one loads, it stays on screen (each frame still bounded).
        guard let error = active.preset.overrunError, markOverBudget(error), paths.count > 1 else { return }
        guard let next = loadNext() else { return }
        active = next; shownSince = time; switches += 1; cuts += 1
    }

    /// The files skipped so far, each once with why (file and line), for a run's summary: at most
    /// `limit` named, then their count. A lone preset that ran out of its work budget stays on screen
    /// (there is nothing else to play), its code stopped on each frame it overran.
    package func warnings(limit: Int = 5) -> [String] {
        var out = skipped.prefix(limit).map { entry in
            entry.path == active.preset.file.path && overBudget.contains(entry.path)
                ? "\(entry.reason); its code was stopped on \(active.preset.overBudgetFrames) frame\(active.preset.overBudgetFrames == 1 ? "" : "s")"
                : "\(entry.reason); skipped"
        }
        if skipped.count > limit {
            out.append("\(skipped.count - limit) more presets skipped (`marble effects --milkdrop FOLDER` lists every one with why)")
        }
        return out
    }

    /// Lists `error`'s file as over budget; false when it already was.
    @discardableResult
    private func markOverBudget(_ error: MilkPresetError) -> Bool {
        guard overBudget.insert(error.path).inserted else { return false }
        skipped.append((path: error.path, reason: error.description))
        return true
    }

    /// The file at `path`, or the built-in preset for ``DefaultPreset/name``.
    private static func load(_ path: String) throws(MilkPresetError) -> MilkPresetFile {
        path == DefaultPreset.name ? try DefaultPreset.file() : try MilkPresetParser.parse(contentsOf: path)
    }

    /// How far into the current preset's time the frame is (MilkDrop's `progress`, 0…1).
    package func progress(at time: Double) -> Double {
        options.switchSeconds > 0 && paths.count > 1 ? max(0, min(1, (time - shownSince) / options.switchSeconds)) : 0
    }

    /// The preset at `path`, number `index` of the list, ready to draw (not sized yet).
    private static func renderer(_ path: String, index: Int, options: Options, textures: DiskTextures?) throws(MilkPresetError) -> MilkRenderer {
        let seed = options.seed &+ UInt64(index)
        let preset = try MilkPreset(file: try load(path), seed: seed, shaders: options.shaders)
        return MilkRenderer(preset: preset, meshColumns: options.meshColumns, meshRows: options.meshRows, seed: seed, textures: textures)
    }

    /// The next file in the list that loads, sized like the others; nil when none does.
    private func loadNext() -> MilkRenderer? {
        for _ in 0..<paths.count {
            position = (position + 1) % paths.count
            let path = paths[position]
            if overBudget.contains(path) { continue }
            do {
                let renderer = try Self.renderer(path, index: position, options: options, textures: textures)
                renderer.configure(width: width, height: height, scale: scale, compositeAtScale: compositeAtScale)
                loads += 1
                return renderer
            } catch {
                if !skipped.contains(where: { $0.path == path }) { skipped.append((path: path, reason: error.description)) }
            }
        }
        return nil
    }
}
