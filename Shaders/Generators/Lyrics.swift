import MarbleCore
import MarbleText

/// Lyrics and captions: the line being sung, the next one dimmed below it, and for word-timed lyrics a
/// karaoke progress (the words sung so far in the highlight colour, the word being sung filling in
/// its reading direction as its time passes).
///
/// The words come from the song (``SongInfo/lyrics``): `--lyrics FILE.lrc`, `--captions FILE.srt|.vtt`
/// or the file's own `lyrics` tag; without them the layer draws nothing. A line shows from the first
/// frame whose time is at or past its start to the last one before its end, frame-exactly. Text goes
/// through the `text` layer's machinery (`MarbleText`): Fontconfig fallbacks, HarfBuzz shaping,
/// bidi ordering, so every script the `text` layer draws works here; caption cues with several rows
/// keep them. Sizes are pixels at 1080p and scale with the frame height; `x`, `y` place the centre
/// of the current line; the next line sits below it. A line wider than `max_width` (or taller than
/// the frame) shrinks to fit.
///
/// Cost: a line is laid out and coloured into a sprite only when it changes (or the size does);
/// every other frame blends the sprites' rows and, for a word-timed line, marks the lit columns.
package final class LyricsLayer: Shader, BlendedRowDrawing, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; the layout and sprites are written in `prepare`
    // only, and `render` only reads them.
    package static let descriptor = ShaderDescriptor(
        name: "lyrics", summary: "Synced lyrics or captions: the current line, the next one dimmed, karaoke word progress.",
        kind: .generator, drawsOnCanvas: true,
        parameters: [
            ParameterDescriptor("font", "Font: a Fontconfig name (\"DejaVu Sans:bold\") or a font file's path; default DejaVu Sans.", .text(default: "")),
            ParameterDescriptor("size", "Font size (em) of the current line in pixels at 1080p (scales with height).", .number(default: 60, range: 4...400)),
            ParameterDescriptor("color", "Colour of the text not yet sung (all of a line without word times).", .color(default: .white)),
            ParameterDescriptor("highlight", "Colour of the words sung so far (word-timed lyrics).",
                                .color(default: Color(red: 1, green: 0.82, blue: 0.25))),
            ParameterDescriptor("next_size", "Size of the next line, as a multiple of size.", .number(default: 0.75, range: 0.2...2)),
            ParameterDescriptor("next_opacity", "Opacity of the next line (0: not shown).", .number(default: 0.45, range: 0...1)),
            ParameterDescriptor("x", "Horizontal anchor of the current line, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("y", "Vertical centre of the current line, fraction of the height.", .number(default: 0.78, range: 0...1)),
            ParameterDescriptor("align", "Which side of the lines sits at x.", .choice(default: "center", options: ["left", "center", "right"])),
            ParameterDescriptor("outline", "Outline width in pixels at 1080p (0: none).", .number(default: 2.5, range: 0...16)),
            ParameterDescriptor("outline_color", "Outline colour.", .color(default: Color(red: 0, green: 0, blue: 0, alpha: 0.85))),
            ParameterDescriptor("shadow", "Shadow offset (down and right) in pixels at 1080p.", .number(default: 3, range: 0...40)),
            ParameterDescriptor("shadow_blur", "Shadow softness in pixels at 1080p (0: hard).", .number(default: 6, range: 0...40)),
            ParameterDescriptor("shadow_color", "Shadow colour (alpha 0: no shadow).", .color(default: Color(red: 0, green: 0, blue: 0, alpha: 0.6))),
            ParameterDescriptor("max_width", "Widest a line may be, fraction of the width; wider lines shrink.", .number(default: 0.9, range: 0.05...1)),
            ParameterDescriptor("opacity", "Opacity of the whole layer.", .number(default: 1, range: 0...1)),
        ])

    private let layout: TextLayout
    /// Where each number read per frame sits in the table (looked up once, not by name every frame).
    private let index = NumberIndex()
    private let current = LyricsSprite(), next = LyricsSprite()
    private let alignment: TextAlignment
    private let alignX: Float
    private let colors: (fill: UInt32, highlight: UInt32, outline: UInt32, shadow: UInt32)
    private let dimColors: (fill: UInt32, highlight: UInt32, outline: UInt32, shadow: UInt32)
    private var scalars: [UInt32] = []
    // What the sprites show: the song (held, so that a new song never reuses its identity), the
    // lines' indices, the looks they were made at.
    private var song: SongInfo?
    private var currentIndex: Int?, nextIndex: Int?
    private var currentLook = LyricsSprite.Look(), nextLook = LyricsSprite.Look()
    // Per frame.
    private var currentX = 0, currentY = 0, nextX = 0, nextY = 0
    private var mode = BlendMode.normal, opacity: UInt32 = 0, nextOpacity: UInt32 = 0

    package init(parameters: ShaderParameters) throws {
        layout = TextLayout(fonts: try FontStack(font: parameters.text("font")))
        switch parameters.choice("align") {
        case "left": alignment = .left; alignX = 0
        case "right": alignment = .right; alignX = 1
        default: alignment = .center; alignX = 0.5
        }
        colors = (PremultipliedColor(parameters.color("color")).packed, PremultipliedColor(parameters.color("highlight")).packed,
                  PremultipliedColor(parameters.color("outline_color")).packed, PremultipliedColor(parameters.color("shadow_color")).packed)
        dimColors = (colors.fill, colors.fill, colors.outline, colors.shadow)
        scalars.reserveCapacity(LyricsFormat.maximumLineBytes)
    }

    package func configure(width: Int, height: Int) {
        currentLook = LyricsSprite.Look(); nextLook = LyricsSprite.Look()   // sizes scale with the height: rebuild
    }

    /// The line shown now and the one after it: laid out again only when they (or their size) change.
    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        mode = uniforms.blend
        guard let info = uniforms.song, let lyrics = info.lyrics, !lyrics.lines.isEmpty else {
            current.clear(); next.clear(); opacity = 0; song = nil
            return
        }
        if song !== info { song = info; currentIndex = nil; nextIndex = nil; current.clear(); next.clear() }
        let t = uniforms.time, height = Float(uniforms.height), width = Float(uniforms.width), scale = height / 1080
        let shown = lyrics.lineIndex(at: t)
        let following = (lyrics.lastStarted(at: t).map { $0 + 1 } ?? 0)
        let upcoming = following < lyrics.lines.count ? following : nil
        let currentLookWanted = look(parameters, scale: scale, width: width, height: height, size: number(parameters, index.size))
        let nextLookWanted = look(parameters, scale: scale, width: width, height: height, size: number(parameters, index.size) * number(parameters, index.nextSize))
        if shown != currentIndex || currentLookWanted != currentLook {
            currentIndex = shown; currentLook = currentLookWanted
            build(current, shown.map { lyrics.lines[$0] }, currentLookWanted, colors)
        }
        if upcoming != nextIndex || nextLookWanted != nextLook {
            nextIndex = upcoming; nextLook = nextLookWanted
            build(next, upcoming.map { lyrics.lines[$0] }, nextLookWanted, dimColors)
        }
        if let shown { current.light(lyrics.lines[shown].words, at: t) }
        place(parameters, width: width, height: height, scale: scale)
        opacity = byte(uniforms.opacity * number(parameters, index.opacity))
        nextOpacity = byte(uniforms.opacity * number(parameters, index.opacity) * number(parameters, index.nextOpacity))
    }

    private func look(_ parameters: ShaderParameters, scale: Float, width: Float, height: Float, size: Float) -> LyricsSprite.Look {
        LyricsSprite.Look(pixelSize: max(4, Int((size * scale).rounded())), outline: number(parameters, index.outline) * scale,
                          blur: Int((number(parameters, index.shadowBlur) * scale * 0.5).rounded()),
                          offset: Int((number(parameters, index.shadow) * scale).rounded()),
                          maxWidth: Int(number(parameters, index.maxWidth) * width), maxHeight: Int(height))
    }

    private func build(_ sprite: LyricsSprite, _ line: Lyrics.Line?, _ look: LyricsSprite.Look,
                       _ colors: (fill: UInt32, highlight: UInt32, outline: UInt32, shadow: UInt32)) {
        guard let line else { sprite.clear(); return }
        scalars.removeAll(keepingCapacity: true)
        for s in line.text.unicodeScalars { scalars.append(s.value) }
        scalars.withUnsafeBufferPointer {
            sprite.build($0, words: colors.highlight == colors.fill ? [] : line.words, layout: layout, look: look,
                         alignment: alignment, colors: colors)
        }
    }

    /// The current line centred on (x, y); the next line a third of a line below it (below where a
    /// one-row current line would be when none shows, so it does not jump).
    private func place(_ parameters: ShaderParameters, width: Float, height: Float, scale: Float) {
        let anchorX = number(parameters, index.x) * width, centreY = number(parameters, index.y) * height
        let em = Float(currentLook.pixelSize)
        let currentHeight = current.width > 0 ? current.blockHeight : em * 1.2
        currentX = Int((anchorX - current.blockWidth * alignX).rounded()) - current.blockX
        currentY = Int((centreY - current.blockHeight / 2).rounded()) - current.blockY
        let nextTop = centreY + currentHeight / 2 + em * 0.3
        nextX = Int((anchorX - next.blockWidth * alignX).rounded()) - next.blockX
        nextY = Int(nextTop.rounded()) - next.blockY
    }

    /// The positions of the per-frame numbers in ``descriptor``'s table.
    private struct NumberIndex {
        let size = at("size"), nextSize = at("next_size"), opacity = at("opacity"), nextOpacity = at("next_opacity")
        let outline = at("outline"), shadowBlur = at("shadow_blur"), shadow = at("shadow"), maxWidth = at("max_width")
        let x = at("x"), y = at("y")
        private static func at(_ name: String) -> Int { LyricsLayer.descriptor.index(of: name)! }
    }

    @inline(__always)
    private func number(_ parameters: ShaderParameters, _ i: Int) -> Float { Float(parameters.numberValue(at: i)) }

    package func coveredRows(height: Int) -> Range<Int> {
        var top = height, bottom = 0
        if opacity > 0, current.width > 0 { top = min(top, currentY); bottom = max(bottom, currentY + current.height) }
        if nextOpacity > 0, next.width > 0 { top = min(top, nextY); bottom = max(bottom, nextY + next.height) }
        let t = max(0, min(height, top)), b = max(t, min(height, bottom))
        return t..<b
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        drawRows(blending: mode, target, rows)
    }

    /// Blends both sprites' parts of `rows` onto the canvas.
    @inline(__always)
    func drawRows<B: BlendFunction>(_: B.Type, _ target: TextureView, _ rows: Range<Int>) {
        if nextOpacity > 0 { draw(B.self, next, x: nextX, y: nextY, opacity: nextOpacity, target, rows) }
        if opacity > 0 { draw(B.self, current, x: currentX, y: currentY, opacity: opacity, target, rows) }
    }

    @inline(__always)
    private func draw<B: BlendFunction>(_: B.Type, _ sprite: LyricsSprite, x originX: Int, y originY: Int, opacity: UInt32,
                                        _ target: TextureView, _ rows: Range<Int>) {
        guard sprite.width > 0 else { return }
        let band = rows.clamped(to: max(0, originY)..<max(max(0, originY), min(target.height, originY + sprite.height)))
        let x0 = max(0, originX), x1 = min(target.width, originX + sprite.width)
        guard !band.isEmpty, x0 < x1 else { return }
        let karaoke = sprite.karaoke, columns = sprite.columns - originX
        for y in band {
            let offset = (y - originY) * sprite.width - originX
            let base = sprite.base + offset, lit = sprite.lit + offset, dst = target.row32(y)
            for x in x0..<x1 {
                let s = karaoke && columns[x] != 0 ? lit[x] : base[x]
                guard s != 0 else { continue }
                dst[x] = B.blend(Blend.scaled(s, opacity: opacity), onto: dst[x])
            }
        }
    }
}
