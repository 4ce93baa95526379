import Foundation
import MarbleCore
import MarbleKit
import MarbleMedia
import MarblePipeline
import MarbleRender
import Synchronization

/// The MilkDrop presets the page browses: the `.milk` files under the MilkDrop folder, listed a page at
/// a time with a search, and a small picture of each.
///
/// A thumbnail is the preset drawn by the `milkdrop` layer itself at 160x90, for 45 frames at 30 fps
/// of a made-up sound (three tones and a beat, the same every time), the last frame as JPEG. Each is
/// remembered by path, modification time and size (the last ``maximumThumbnails``), so browsing back
/// is free and a changed file is drawn again.
package final class MilkDropShelf: Sendable {
    /// One page of the list.
    package struct Page: Sendable, Equatable, Codable {
        /// How many presets match the search.
        package var total: Int
        /// The index of the first one here.
        package var offset: Int
        /// Paths relative to the MilkDrop folder, sorted.
        package var presets: [String]
    }

    /// The MilkDrop folder (a real path), or nil when the studio has none.
    package let folder: String?
    /// The most presets one page holds.
    package static let maximumPage = 500
    /// The most presets listed from the folder (projectM's has 4,000-odd).
    package static let maximumPresets = 100_000
    /// Thumbnails remembered.
    package static let maximumThumbnails = 512
    /// The thumbnail's size and how long the preset runs before it is taken.
    package static let thumbnailWidth = 160, thumbnailHeight = 90, thumbnailFrames = 45
    static let fps = Rational(30)

    private let thumbnails = Mutex(ThumbnailCache())
    private let drawn = Atomic<Int>(0)

    /// How many thumbnails have been drawn (not taken from memory): for tests.
    var thumbnailsDrawn: Int { drawn.load(ordering: .relaxed) }

    /// Frames a thumbnail is drawn for (``thumbnailFrames`` unless a test asks for fewer).
    let frames: Int

    /// A shelf of the presets under `folder` (a real path, as ``StudioFolders/milkDrop`` holds it),
    /// whose thumbnails are the frame after `frames` frames (at most ``thumbnailFrames``).
    package init(folder: String?, frames: Int = MilkDropShelf.thumbnailFrames) {
        self.folder = folder
        self.frames = min(max(1, frames), Self.thumbnailFrames)
    }

    /// The presets whose path holds `search` (ignoring case), `limit` of them from `offset`.
    /// - Throws: `.badRequest` for an offset below 0, a limit outside 1…500 or a search over 256 bytes;
    ///   an empty page when the studio has no MilkDrop folder.
    package func list(search: String = "", offset: Int = 0, limit: Int = 100) throws(StudioFailure) -> Page {
        guard offset >= 0 else { throw StudioFailure(.badRequest, "offset: \(offset) is below 0") }
        guard (1...Self.maximumPage).contains(limit) else {
            throw StudioFailure(.badRequest, "limit: \(limit) is out of range 1…\(Self.maximumPage)")
        }
        guard search.utf8.count <= 256 else { throw StudioFailure(.badRequest, "search: longer than 256 bytes") }
        let all = try presets()
        let needle = search.lowercased()
        let matching = needle.isEmpty ? all : all.filter { $0.lowercased().contains(needle) }
        let start = min(offset, matching.count)
        return Page(total: matching.count, offset: offset, presets: Array(matching[start..<min(matching.count, start + limit)]))
    }

    /// Every `.milk` file under the folder (relative paths, sorted): searched recursively to 32
    /// levels, skipping hidden names and links to folders; a link to a file counts when its target is
    /// inside the folder.
    private func presets() throws(StudioFailure) -> [String] {
        // No folder: nothing to browse (the page hides its panel), not an error.
        guard let folder else { return [] }
        var found: [String] = []
        var budget = Self.maximumPresets * 4
        Self.collect(folder, under: "", root: folder, depth: 0, into: &found, budget: &budget)
        return found.sorted()
    }

    private static func collect(_ root: String, under relative: String, root top: String, depth: Int,
                                into found: inout [String], budget: inout Int) {
        let here = relative.isEmpty ? root : root + "/" + relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: here) else { return }
        for name in names {
            guard found.count < maximumPresets, budget > 0 else { return }
            budget -= 1
            guard !name.hasPrefix(".") else { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(here + "/" + name, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if depth < StudioFolders.maximumDepth {
                    collect(root, under: path, root: top, depth: depth + 1, into: &found, budget: &budget)
                }
            case S_IFREG:
                if isMilk(name) { found.append(path) }
            case S_IFLNK:
                guard isMilk(name), let target = StudioPath.real(here + "/" + name), StudioPath.isInside(target, top),
                      StudioPath.kind(of: target) == S_IFREG else { continue }
                found.append(path)
            default:
                continue
            }
        }
    }

    private static func isMilk(_ name: String) -> Bool { name.lowercased().hasSuffix(".milk") && name.count > 5 }

    // MARK: Thumbnails

    /// The JPEG thumbnail of the preset at `relative` (inside the MilkDrop folder).
    /// - Throws: as ``StudioFolders/resolve(relative:folder:)`` for the path (`.notFound` also without a
    ///   MilkDrop folder); `.badRequest` for a file that is not a `.milk` or a preset that does not load
    ///   (one line: the loader's reason).
    package func thumbnail(_ relative: String) throws(StudioFailure) -> [UInt8] {
        guard let folder else { throw StudioFailure(.notFound, "the studio has no MilkDrop folder (give --milkdrop DIR)") }
        let path = try StudioPath.resolve(relative, in: folder)
        var info = stat()
        let shown = StudioPath.shown(relative)
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw StudioFailure(.notFound, "\(shown): is not a file") }
        guard Self.isMilk(path) else { throw StudioFailure(.badRequest, "\(shown): is not a MilkDrop preset (.milk)") }
        let key = ThumbnailCache.Key(path: path, seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec,
                                     size: Int64(info.st_size))
        if let known = thumbnails.withLock({ $0.picture(for: key) }) { return known }
        drawn.add(1, ordering: .relaxed)
        let picture: [UInt8]
        do throws(MarbleError) {
            picture = try Self.draw(path, frames: frames)  // outside the lock: drawing takes a while
        } catch {
            let reason = error.message.split(separator: "\n").first.map(String.init) ?? error.message
            throw StudioFailure(.badRequest, "\(shown): \(reason.replacingOccurrences(of: path, with: shown))")
        }
        thumbnails.withLock { $0.insert(picture, for: key) }
        return picture
    }

    /// The thumbnail of the preset at `path`: ``frame(_:)`` as JPEG.
    static func draw(_ path: String, frames: Int = thumbnailFrames) throws(MarbleError) -> [UInt8] {
        let picture = try frame(path, frames: frames)
        // A view does not keep its texture alive: the texture must outlive the encoding.
        defer { withExtendedLifetime(picture) {} }
        return try JPEGEncoder(width: thumbnailWidth, height: thumbnailHeight, quality: 80).encode(picture.view)
    }

    /// The preset at `path` drawn by a `milkdrop` layer for ``thumbnailFrames`` frames of ``sound``: the last frame.
    static func frame(_ path: String, frames: Int = thumbnailFrames) throws(MarbleError) -> Texture {
        MilkTextureLoader.installed
        let width = thumbnailWidth, height = thumbnailHeight
        let compositor = try Compositor(preset: MilkDropScene(path: path).preset, width: width, height: height, threads: 1)
        let canvas = Texture(width: width, height: height)
        for (index, features) in sound.prefix(frames).enumerated() {
            compositor.render(FrameUniforms(time: fps.seconds(ofFrame: index), frameIndex: index, fps: fps,
                                            width: width, height: height, features: features), into: canvas)
        }
        return canvas
    }

    /// The features of the made-up sound, one per thumbnail frame, computed once by the real analysis:
    /// 110, 220 and 330 Hz tones whose loudness swells, and a kick (a falling 100→50 Hz sine) every
    /// half second from the start, so presets that wait for a beat see three.
    static let sound: [AudioFeatures] = {
        let rate = 44_100
        let count = rate * (thumbnailFrames + 15) / 30
        var samples = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let t = Double(i) / Double(rate)
            let swell = 0.5 + 0.5 * sin(2 * Double.pi * t / 1.5)
            let tones = 0.15 * (sin(2 * .pi * 110 * t) + 0.7 * sin(2 * .pi * 220 * t) + 0.5 * sin(2 * .pi * 330 * t))
            let sinceBeat = t.truncatingRemainder(dividingBy: 0.5)
            let kick = 0.8 * exp(-sinceBeat * 12) * sin(2 * .pi * (50 + 50 * exp(-sinceBeat * 25)) * sinceBeat)
            samples[i] = Float(max(-1, min(1, swell * tones + kick)))
        }
        guard let extractor = try? FeatureExtractor(sampleRate: rate, fps: fps), (try? extractor.request([.spectrum])) != nil else {
            return [AudioFeatures](repeating: AudioFeatures(), count: thumbnailFrames)
        }
        extractor.append(left: samples)
        extractor.finish()
        var features = extractor.makeFeatures()
        return (0..<thumbnailFrames).map { index in
            extractor.computeFeatures(forFrame: index, into: &features)
            return features
        }
    }()
}

/// The last thumbnails drawn, by file version; the oldest goes first when it is full.
struct ThumbnailCache: Sendable {
    struct Key: Hashable, Sendable {
        var path: String
        var seconds: Int, nanoseconds: Int, size: Int64
    }
    private var pictures: [Key: [UInt8]] = [:]
    private var order: [Key] = []

    func picture(for key: Key) -> [UInt8]? { pictures[key] }

    mutating func insert(_ picture: [UInt8], for key: Key) {
        guard pictures.updateValue(picture, forKey: key) == nil else { return }
        order.append(key)
        if order.count > MilkDropShelf.maximumThumbnails {
            pictures[order.removeFirst()] = nil
        }
    }
}
