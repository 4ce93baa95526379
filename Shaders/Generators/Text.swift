import MarbleCore
import MarbleText

/// Text: a title, the song's tags or a clock, in any language and script, with outline, shadow and fades.
///
/// `text` is a template (see `TextTemplate`): `{title}`, `{artist}`, `{album}`, any tag by name,
/// `{elapsed}`, `{remaining}`, `{duration}`, `{name|fallback}`, `\n` for a new line; a missing tag
/// renders empty and a line whose fields are all empty disappears. Without a song (a live session)
/// tags are empty and `{remaining}`/`{duration}` too. Characters are drawn by the named font or, for
/// those it lacks, by the first Fontconfig fallback that has them (Latin, Cyrillic, CJK, Hangul, Arabic,
/// Devanagari, Thai in one line), emoji by the colour emoji font in their own colours (the `color`
/// parameter does not tint them; the outline and shadow go around them); lines are shaped with HarfBuzz (kerning, ligatures, Arabic joining) and ordered with the
/// Unicode bidi algorithm. Glyphs are anti-aliased by FreeType and pens snap to whole pixels (crisp).
///
/// Cost: the text is laid out, rasterised and coloured (fill over outline over blurred shadow) into a
/// sprite only when it changes (a clock field: once a second) or its size does; every other frame
/// only blends the sprite's rows. Audio: none by default; positions and opacity can be bound like
/// any number (binding `size` or the outline re-rasterises the text every frame, which costs time and
/// allocations). `font` is a Fontconfig name (`DejaVu Sans`, `Noto Serif:bold`) or a file path. Sizes are pixels at 1080p and scale with the frame height; `x`, `y` place the anchor
/// (`align`, `valign`) as fractions of the frame. `fade_in` fades in from the start, `fade_out` out
/// before the song's end (needs its length). A text wider than `max_width` wraps at spaces into at
/// most `max_lines` lines, shrinking (never under `min_size`) until it fits; a text still too long
/// ends in an ellipsis.
package final class Text: Shader, BlendedRowDrawing, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; the font stack, layout and masks are touched in
    // `prepare` only, and `render` only reads the sprite.
    package static let descriptor = ShaderDescriptor(
        name: "text", summary: "Text from a template with the song's tags and clock: any script, outline, shadow, fades.",
        kind: .generator, drawsOnCanvas: true,
        parameters: [
            ParameterDescriptor("text", "Template: {title} {artist} {album} {elapsed} {remaining} {duration}, any {tag}, {tag|fallback}, \\n.",
                                .text(default: "{title|Untitled}")),
            ParameterDescriptor("font", "Font: a Fontconfig name (\"DejaVu Sans:bold\") or a font file's path; default DejaVu Sans.", .text(default: "")),
            ParameterDescriptor("size", "Font size (em) in pixels at 1080p (scales with height).", .number(default: 64, range: 4...400)),
            ParameterDescriptor("color", "Text colour.", .color(default: .white)),
            ParameterDescriptor("x", "Horizontal anchor, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("y", "Vertical anchor, fraction of the height.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("align", "Which side of the text sits at x (and how lines align).",
                                .choice(default: "center", options: ["left", "center", "right"])),
            ParameterDescriptor("valign", "Which edge of the text block sits at y.",
                                .choice(default: "middle", options: ["top", "middle", "bottom"])),
            ParameterDescriptor("outline", "Outline width in pixels at 1080p (0: none).", .number(default: 2, range: 0...16)),
            ParameterDescriptor("outline_color", "Outline colour.", .color(default: Color(red: 0, green: 0, blue: 0, alpha: 0.85))),
            ParameterDescriptor("shadow", "Shadow offset (down and right) in pixels at 1080p.", .number(default: 3, range: 0...40)),
            ParameterDescriptor("shadow_blur", "Shadow softness in pixels at 1080p (0: hard).", .number(default: 6, range: 0...40)),
            ParameterDescriptor("shadow_color", "Shadow colour (alpha 0: no shadow).", .color(default: Color(red: 0, green: 0, blue: 0, alpha: 0.6))),
            ParameterDescriptor("line_spacing", "Line height as a multiple of the font's.", .number(default: 1, range: 0.5...3)),
            ParameterDescriptor("max_width", "Widest the text may be, fraction of the width; wider text wraps, then shrinks.",
                                .number(default: 0.9, range: 0.05...1)),
            ParameterDescriptor("max_lines", "Most lines a text too wide for max_width wraps into; past them it shrinks, then ends in an ellipsis.",
                                .integer(default: 2, range: 1...10)),
            ParameterDescriptor("min_size", "Smallest font size (pixels at 1080p) a text too wide shrinks to; past it, an ellipsis.",
                                .number(default: 28, range: 4...400)),
            ParameterDescriptor("fade_in", "Seconds to fade in from the start (0: none).", .number(default: 1, range: 0...60)),
            ParameterDescriptor("fade_out", "Seconds to fade out before the song's end (0: none).", .number(default: 1, range: 0...60)),
            ParameterDescriptor("opacity", "Opacity of the whole text.", .number(default: 1, range: 0...1)),
        ])

    private let template: TextTemplate
    private let layout: TextLayout
    private let mask = TextMask()
    private let alignment: TextAlignment
    private let alignX: Float, alignY: Float
    private let fill: UInt32, outlineColor: UInt32, shadowColor: UInt32
    // The text of the frame the sprite shows, and the text being filled for this frame.
    private var shown: [UInt32] = [], current: [UInt32] = []
    /// `shown` with the line breaks (and ellipsis) that fit it to `max_width`.
    private var wrapped: [UInt32] = []
    private var look = Look()
    // The sprite: premultiplied RGBA of the text with its outline and shadow; scratch masks beside it.
    private var capacity = 0
    private var sprite: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    private var outlineMask: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    private var shadowMask: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    private var scratch: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    private var columnSums: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    private var columnCapacity = 1
    private var spriteWidth = 0, spriteHeight = 0
    // Per frame.
    private var originX = 0, originY = 0
    private var mode = BlendMode.normal, opacity: UInt32 = 0

    /// What the sprite depends on besides the text (pixel sizes after scaling).
    private struct Look: Equatable {
        var pixelSize = 0, outline: Float = 0, blur = 0, offset = 0, lineSpacing: Float = 1, maxWidth = 0
        var maxLines = 2, minSize = 4
    }

    package init(parameters: ShaderParameters) throws {
        template = TextTemplate(parameters.text("text"))
        layout = TextLayout(fonts: try FontStack(font: parameters.text("font")))
        switch parameters.choice("align") {
        case "left": alignment = .left; alignX = 0
        case "right": alignment = .right; alignX = 1
        default: alignment = .center; alignX = 0.5
        }
        alignY = switch parameters.choice("valign") { case "top": 0; case "bottom": 1; default: 0.5 }
        fill = PremultipliedColor(parameters.color("color")).packed
        outlineColor = PremultipliedColor(parameters.color("outline_color")).packed
        shadowColor = PremultipliedColor(parameters.color("shadow_color")).packed
        shown.reserveCapacity(1024); current.reserveCapacity(1024)
    }

    deinit { sprite.deallocate(); outlineMask.deallocate(); shadowMask.deallocate(); scratch.deallocate(); columnSums.deallocate() }

    package func configure(width: Int, height: Int) {
        look = Look()   // sizes scale with the height: rebuild on the next frame
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let width = Float(uniforms.width), height = Float(uniforms.height), scale = height / 1080
        template.fill(&current, song: uniforms.song, time: uniforms.time)
        let wanted = Look(pixelSize: max(4, Int((parameters.number("size") * scale).rounded())),
                          outline: parameters.number("outline") * scale,
                          blur: Int((parameters.number("shadow_blur") * scale * 0.5).rounded()),
                          offset: Int((parameters.number("shadow") * scale).rounded()),
                          lineSpacing: parameters.number("line_spacing"),
                          maxWidth: Int(parameters.number("max_width") * width),
                          maxLines: parameters.integer("max_lines"),
                          minSize: max(4, Int((parameters.number("min_size") * scale).rounded())))
        if wanted != look || current != shown {
            look = wanted
            shown.removeAll(keepingCapacity: true)
            shown.append(contentsOf: current)
            rebuild()
        }
        let blockLeft = parameters.number("x") * width - mask.blockWidth * alignX
        let blockTop = parameters.number("y") * height - mask.blockHeight * alignY
        originX = Int(blockLeft.rounded()) - mask.blockX
        originY = Int(blockTop.rounded()) - mask.blockY
        mode = uniforms.blend
        opacity = byte(uniforms.opacity * parameters.number("opacity") * fade(uniforms, parameters))
    }

    /// 0…1: a smooth rise over `fade_in` from the start, a fall over `fade_out` before the song's end.
    private func fade(_ uniforms: FrameUniforms, _ parameters: ShaderParameters) -> Float {
        let t = Float(uniforms.time), fadeIn = parameters.number("fade_in"), fadeOut = parameters.number("fade_out")
        var v: Float = 1
        if fadeIn > 0 { v = min(v, t / fadeIn) }
        if fadeOut > 0, let duration = uniforms.song?.duration, duration > 0 { v = min(v, (Float(duration) - t) / fadeOut) }
        let c = clamp01(v)
        return c * c * (3 - 2 * c)
    }

    /// Lays out the text (fitted to `max_width`), draws its mask, and colours the sprite.
    private func rebuild() {
        if template.usesClock && layout.pixelSize != look.pixelSize { warmClockGlyphs() }
        fit()
        let outline = min(look.outline, Float(layout.pixelSize) * 0.25)
        let margin = Int(outline.rounded(.up)) + 1 + 2 * look.blur + look.offset
        mask.draw(layout, alignment: alignment, margin: margin, lineSpacing: look.lineSpacing)
        spriteWidth = mask.width; spriteHeight = mask.height
        let count = spriteWidth * spriteHeight
        guard count > 0 else { return }
        if count > capacity {
            sprite.deallocate(); outlineMask.deallocate(); shadowMask.deallocate(); scratch.deallocate()
            capacity = count * 3 / 2   // headroom: a clock's ink box wobbles by a few pixels
            sprite = .allocate(capacity: capacity); outlineMask = .allocate(capacity: capacity)
            shadowMask = .allocate(capacity: capacity); scratch = .allocate(capacity: capacity)
        }
        if spriteWidth > columnCapacity {
            columnSums.deallocate()
            columnCapacity = spriteWidth * 3 / 2
            columnSums = .allocate(capacity: columnCapacity)
        }
        let w = spriteWidth, h = spriteHeight
        MaskFilter.dilate(mask.pixels, into: outlineMask, width: w, height: h, radius: outline)
        shadowMask.update(from: outlineMask, count: count)
        MaskFilter.blur(shadowMask, scratch: scratch, sums: columnSums, width: w, height: h, radius: look.blur)
        TextSpriteLayers.compose(into: sprite, width: w, height: h, fill: fill, fillMask: mask.pixels, colours: mask.colours,
                                 outline: outline > 0.05 ? outlineColor : 0, outlineMask: outlineMask,
                                 shadow: shadowColor, shadowMask: shadowMask, offset: look.offset)
    }

    /// Lays the text out at its size if it fits `max_width`; else wrapped at spaces into at most
    /// `max_lines` lines, at the largest size down to `min_size` (in steps of a tenth) at which it all
    /// fits; else at `min_size`, its last line ending in an ellipsis. A short text never wraps, and a
    /// long one never shrinks into an unreadable line.
    private func fit() {
        let maxWidth = Float(look.maxWidth)
        guard TextWrap.width(shown[...], layout, look.pixelSize) > maxWidth else { return }
        var size = look.pixelSize
        while true {
            let whole = TextWrap.wrap(shown, layout: layout, pixelSize: size, maxWidth: maxWidth,
                                      maxLines: look.maxLines, into: &wrapped)
            if whole || size <= look.minSize { break }
            size = max(look.minSize, min(size - 1, size * 9 / 10))
        }
        wrapped.withUnsafeBufferPointer { layout.layout($0, pixelSize: size) }
    }

    /// Rasterises the digits and the colon at the new size, so that a clock field's later changes
    /// find their glyphs cached (nothing is allocated when the second ticks).
    private func warmClockGlyphs() {
        let digits: [UInt32] = [0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x2D, 0x2F]
        digits.withUnsafeBufferPointer { layout.layout($0, pixelSize: look.pixelSize) }
        mask.draw(layout, alignment: alignment, margin: 0)
    }

    package func coveredRows(height: Int) -> Range<Int> {
        guard opacity > 0, spriteWidth > 0 else { return 0..<0 }
        let top = max(0, min(height, originY)), bottom = max(top, min(height, originY + spriteHeight))
        return top..<bottom
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        drawRows(blending: mode, target, rows)
    }

    /// Blends the sprite's part of `rows` onto the canvas.
    @inline(__always)
    func drawRows<B: BlendFunction>(_: B.Type, _ target: TextureView, _ rows: Range<Int>) {
        guard opacity > 0, spriteWidth > 0 else { return }
        let band = rows.clamped(to: max(0, originY)..<max(max(0, originY), min(target.height, originY + spriteHeight)))
        let x0 = max(0, originX), x1 = min(target.width, originX + spriteWidth)
        guard !band.isEmpty, x0 < x1 else { return }
        let opacity = self.opacity
        for y in band {
            let src = sprite + (y - originY) * spriteWidth - originX, dst = target.row32(y)
            for x in x0..<x1 {
                let s = src[x]
                guard s != 0 else { continue }
                dst[x] = B.blend(Blend.scaled(s, opacity: opacity), onto: dst[x])
            }
        }
    }
}
