import MarbleCore
import Synchronization

/// The image files MilkDrop presets read as textures (`sampler_worms`, `sampler_fw_clouds2`,
/// `sampler_rand03_smalltiled`), found and loaded as MilkDrop finds them.
///
/// A name is looked up with each extension MilkDrop accepts, in its order (jpg, dds, png, tga, bmp,
/// dib), first in the texture folders (the user's, in the order given, then a system folder that
/// exists: projectM's), then beside the preset: `worms.jpg` beside the preset wins over `worms.png` in
/// a texture folder, as in MilkDrop. Names and extensions match whatever their case (the presets were
/// written on Windows). Folder listings are read once and kept (``rescan()`` forgets them).
///
/// `randNN` (NN 00…15), optionally `randNN_prefix`, picks one of the images in the texture folders
/// (not beside the preset, as in MilkDrop) whose name starts with the prefix, whatever its case: the
/// pick is a function of a seed and the slot, so a render is repeatable.
///
/// Loaded textures are kept by path and shared (up to ``cacheTexels`` texels in all; past that the
/// cache starts again). Safe to use from several threads.
package final class DiskTextures: Sendable {
    /// The extensions MilkDrop tries, in its order.
    package static let extensions = ["jpg", "dds", "png", "tga", "bmp", "dib"]
    /// Folders searched after the user's when they exist (Debian's projectm-data 3.1 has none; projectM 4
    /// installs its textures here).
    package static let systemFolders = ["/usr/share/projectM/textures", "/usr/local/share/projectM/textures"]
    /// Texels kept loaded at most (four 2048 × 2048 images).
    package static let cacheTexels = 4 << 22

    package let textureFolders: [String]
    private let loader: any ShaderImageLoader
    private let state = Mutex(State())

    private struct State {
        var listings: [String: [String]] = [:]
        var loaded: [String: OwnedTexture] = [:]
        var loadedTexels = 0
    }

    /// Looks in `folders` (the CLI's `--milkdrop-textures`), then in the system folders that exist,
    /// decoding with `loader`.
    package init(folders: [String], loader: any ShaderImageLoader, systemFolders: [String] = DiskTextures.systemFolders) {
        var all = folders
        for folder in systemFolders where !all.contains(folder) {
            if case .success(let s) = PresetFileSystem.status(folder), s.kind == .directory { all.append(folder) }
        }
        textureFolders = all
        self.loader = loader
    }

    /// Forgets the folder listings (files were added or removed).
    package func rescan() { state.withLock { $0.listings = [:] } }

    /// The file for texture `name` (without extension), or nil when no folder has it.
    package func path(forTexture name: String, presetFolder: String?) -> String? {
        let folders = textureFolders + (presetFolder.map { [$0] } ?? [])
        for ext in DiskTextures.extensions {
            let wanted = "\(name).\(ext)".lowercased()
            for folder in folders {
                if let file = listing(folder).first(where: { $0.lowercased() == wanted }) {
                    return join(folder, file)
                }
            }
        }
        return nil
    }

    /// The image `randNN_prefix` picks (slot `slot`, `prefix` possibly empty): a file of the texture
    /// folders with one of MilkDrop's extensions whose name starts with `prefix` (any case), chosen by
    /// `seed` and `slot` among them in name order; nil when there is none.
    package func randomPath(slot: Int, prefix: String, seed: UInt64) -> String? {
        var candidates: [(name: String, path: String)] = []
        let wanted = prefix.lowercased()
        for folder in textureFolders {
            for file in listing(folder) {
                let lower = file.lowercased()
                guard let dot = lower.lastIndex(of: "."), DiskTextures.extensions.contains(String(lower[lower.index(after: dot)...])),
                      lower.hasPrefix(wanted) else { continue }
                candidates.append((lower, join(folder, file)))
            }
        }
        guard !candidates.isEmpty else { return nil }
        candidates.sort { $0.name != $1.name ? $0.name < $1.name : $0.path < $1.path }
        var random = SplitMix64(seed: seed ^ (0x9E37_79B9_7F4A_7C15 &* UInt64(slot + 1)))
        return candidates[Int(random.next() % UInt64(candidates.count))].path
    }

    /// The texture in the file at `path`, decoded once and shared; its size is checked before its
    /// pixels are allocated.
    package func texture(at path: String) throws(ShaderTextureError) -> OwnedTexture {
        if let cached = state.withLock({ $0.loaded[path] }) { return cached }
        let size: (width: Int, height: Int)
        do { size = try loader.size(ofImageAt: path) } catch {
            throw ShaderTextureError(path: path, message: "not a readable image: \(error)")
        }
        try ShaderTextureLimits.check(width: size.width, height: size.height, path: path)
        let image = Texture(width: size.width, height: size.height)
        do { try loader.decode(imageAt: path, into: image) } catch {
            throw ShaderTextureError(path: path, message: "cannot decode: \(error)")
        }
        let texture = OwnedTexture(copying: image)
        state.withLock { s in
            if s.loadedTexels + size.width * size.height > DiskTextures.cacheTexels { s.loaded = [:]; s.loadedTexels = 0 }
            s.loaded[path] = texture
            s.loadedTexels += size.width * size.height
        }
        return texture
    }

    /// The names in `folder` (read once), or none when it cannot be listed.
    private func listing(_ folder: String) -> [String] {
        if let known = state.withLock({ $0.listings[folder] }) { return known }
        let names: [String]
        switch PresetFileSystem.names(in: folder) {
        case .success(let found): names = found.sorted()
        case .failure: names = []
        }
        state.withLock { $0.listings[folder] = names }
        return names
    }

    private func join(_ folder: String, _ file: String) -> String {
        folder.hasSuffix("/") ? folder + file : folder + "/" + file
    }
}
