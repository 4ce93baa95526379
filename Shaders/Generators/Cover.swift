import MarbleCore

/// Cover: the song's embedded cover picture (``SongInfo/cover``) as a square, a rounded square or a
/// disc ("cover in a ring"), with a border and a soft drop shadow.
///
/// Audio: the picture grows by `pulse` × `features.beatPulse` on beats. `spin` turns it slowly (turns
/// per minute of media time, vinyl-like; best with `shape: circle`). A picture that is not square shows
/// its centred square. Quality: the picture is shrunk once with an area-averaging filter (when the
/// cover or the wanted size changes by more than a few per cent, in `prepare`, into a buffer allocated
/// on first sight of the cover), then sampled bilinearly per pixel; edges are coverage-weighted from a
/// signed distance, so they stay smooth at any size and angle. Without a cover (a live session, a file
/// without one) it draws a placeholder in the same shape: a violet-to-teal gradient with a note glyph
/// (`placeholder: false` draws nothing instead).
/// Parameters: `center_x`, `center_y` (fractions of the frame), `size` (fraction of the height),
/// `shape`, `corner` (radius, fraction of the size, for `rounded`), `border` (pixels at 1080p) and
/// `border_color`, `shadow` (0…1), `pulse`, `spin`, `placeholder`.
package final class Cover: Shader, BlendedRowDrawing, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the shrunk picture and the per-frame values.
    package static let descriptor = ShaderDescriptor(
        name: "cover", summary: "The song's embedded cover picture: square, rounded or a disc, with border and shadow.",
        kind: .generator, drawsOnCanvas: true,
        parameters: [
            ParameterDescriptor("center_x", "Horizontal position of the centre, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("center_y", "Vertical position of the centre, fraction of the height.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("size", "Side (or diameter) as a fraction of the frame height.", .number(default: 0.5, range: 0.05...1)),
            ParameterDescriptor("shape", "square, rounded (corner radius `corner`) or circle (a disc).",
                                .choice(default: "rounded", options: ["square", "rounded", "circle"])),
            ParameterDescriptor("corner", "Corner radius for rounded, fraction of the side.", .number(default: 0.06, range: 0...0.5)),
            ParameterDescriptor("border", "Border width in pixels at 1080p (scales with the height); 0: none.", .number(default: 0, range: 0...40)),
            ParameterDescriptor("border_color", "Border colour.", .color(default: .white)),
            ParameterDescriptor("shadow", "Strength of the soft drop shadow; 0: none.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("pulse", "Growth on a beat, fraction of the size.", .number(default: 0.04, range: 0...0.5)),
            ParameterDescriptor("spin", "Turns per minute (media time), like a record; 0: still.", .number(default: 0, range: -60...60)),
            ParameterDescriptor("placeholder", "Without a cover, draw a gradient with a note glyph (else nothing).", .flag(default: true)),
        ])

    private enum Shape { case square, rounded, circle }
    private let shape: Shape
    private let placeholder: Bool
    // What is drawn, as `side`×`side` pixels: the cover shrunk, or the placeholder painted, once
    // (allocated on first sight, for the largest size the layer may be drawn at).
    private var source: Texture?
    private var showsPlaceholder = false
    private var pixels: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    private var capacity = 1, side = 0
    private var frameHeight = 0
    // Per frame.
    private var hasFace = false
    private var cx: Float = 0, cy: Float = 0, half: Float = 1, radius: Float = 0
    private var cosA: Float = 1, sinA: Float = 0
    private var texelScale: Float = 1, texelOffset: Float = 0   // shape coordinates → texels of the face
    private var borderWidth: Float = 0, borderPixel: UInt32 = 0
    private var shadowAlpha: Float = 0, shadowBlur: Float = 1, shadowOffset: Float = 0
    private var reach: Float = 0
    private var firstRow = 0, endRow = 0, firstColumn = 0, endColumn = 0
    private var mode = BlendMode.normal, opacity: UInt32 = 255

    package init(parameters: ShaderParameters) throws {
        shape = switch parameters.choice("shape") { case "square": .square; case "circle": .circle; default: .rounded }
        placeholder = parameters.flag("placeholder")
    }

    deinit { pixels.deallocate() }

    package func configure(width: Int, height: Int) { frameHeight = height }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        mode = uniforms.blend
        opacity = byte(uniforms.opacity)
        let w = Float(uniforms.width), h = Float(uniforms.height)
        let beat = clamp01(uniforms.features.beatPulse)
        half = 0.5 * parameters.number("size") * h * (1 + parameters.number("pulse") * beat)
        cx = parameters.number("center_x") * w
        cy = parameters.number("center_y") * h
        radius = switch shape { case .square: 0; case .rounded: parameters.number("corner") * 2 * half; case .circle: half }
        let turns = wrapped(uniforms.time * Double(parameters.number("spin")) / 60, period: 1)
        cosA = fastCos(turns * 2 * .pi); sinA = fastSin(turns * 2 * .pi)
        borderWidth = parameters.number("border") * h / 1080
        borderPixel = PremultipliedColor(parameters.color("border_color")).packed
        shadowAlpha = parameters.number("shadow") * 0.6
        shadowBlur = max(1, half * 0.08)
        shadowOffset = half * 0.04
        if let cover = uniforms.song?.cover {
            shrink(cover, forHalf: half)
        } else if placeholder {
            paintPlaceholder(forHalf: half)
        }
        hasFace = uniforms.song?.cover != nil || placeholder
        if uniforms.song?.cover == nil { cosA = 1; sinA = 0 }   // a placeholder glyph does not spin
        texelScale = Float(side) / (2 * half)
        texelOffset = half * texelScale - 0.5
        // Rows and columns anything can touch: the shape (its bounding circle when turned) and the shadow.
        let turned = sinA != 0 && shape != .circle
        let extent = (turned ? half * 1.4143 : half) + 1
        reach = shadowAlpha > 0 ? shadowBlur + shadowOffset : 0
        firstRow = hasFace ? max(0, Int((cy - extent - reach).rounded(.down))) : 0
        endRow = hasFace ? min(uniforms.height, Int((cy + extent + reach).rounded(.up)) + 1) : 0
        firstColumn = max(0, Int((cx - extent - reach).rounded(.down)))
        endColumn = min(uniforms.width, Int((cx + extent + reach).rounded(.up)) + 1)
    }

    /// Whether the face drawn at `side` should be redone for `wanted`: only when the size drawn moves
    /// more than 15 % away from it (a bound `size`), not for a beat's pulse.
    private func resized(_ wanted: Int) -> Bool { Float(abs(wanted - side)) > 0.15 * Float(side) }

    /// Room for `largest`×`largest` pixels (allocates only when it grows: a new cover, a new frame size).
    private func reserve(_ largest: Int) {
        guard largest * largest > capacity else { return }
        pixels.deallocate()
        capacity = largest * largest
        pixels = .allocate(capacity: capacity)
    }

    /// The largest side the layer can be drawn at for this frame height (size 1, pulse 0.5).
    private var largestSide: Int { Int(Float(max(frameHeight, 1)) * 1.5) + 2 }

    /// Shrinks `cover` to about the drawn size, once: again only when another cover comes, or the size
    /// drawn moves more than 15 % away (see ``resized(_:)``). Allocates only for a new cover.
    private func shrink(_ cover: Texture, forHalf half: Float) {
        let crop = min(cover.width, cover.height)
        let wanted = min(crop, max(1, Int((2 * half).rounded(.up))))
        let isNew = source !== cover
        guard isNew || resized(wanted) else { return }
        if isNew {
            reserve(min(crop, max(wanted, largestSide)))
            source = cover
            showsPlaceholder = false
        }
        side = min(wanted, Int(Double(capacity).squareRoot()))
        AreaDownscale.squareCrop(of: cover.view, into: pixels, side: side)
    }

    /// Paints the placeholder at about the drawn size, once (again only as ``shrink(_:forHalf:)`` would).
    private func paintPlaceholder(forHalf half: Float) {
        let wanted = max(2, Int((2 * half).rounded(.up)))
        guard !showsPlaceholder || resized(wanted) else { return }
        reserve(max(wanted, largestSide))
        source = nil
        showsPlaceholder = true
        side = min(wanted, Int(Double(capacity).squareRoot()))
        NotePlaceholder.paint(into: pixels, side: side)
    }

    package func coveredRows(height: Int) -> Range<Int> { firstRow..<max(firstRow, min(height, endRow)) }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        drawRows(blending: mode, target, rows)
    }

    /// Signed distance (pixels) from the shape's edge, in the shape's own (rotated) coordinates.
    @inline(__always) private func distance(_ x: Float, _ y: Float) -> Float {
        if shape == .circle { return (x * x + y * y).squareRoot() - half }
        let qx = abs(x) - half + radius, qy = abs(y) - half + radius
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        return outside + min(max(qx, qy), 0) - radius
    }

    /// Row by row: the face's inside sampled plainly (``drawFace(_:_:row:dy:)``), its edge, border and
    /// shadow with the full per-pixel work (``drawEdges(_:_:row:dy:)``). The helpers are inlined: one
    /// loop nest, as if written in one piece.
    @inline(__always)
    func drawRows<B: BlendFunction>(_: B.Type, _ target: TextureView, _ rows: Range<Int>) {
        let band = rows.clamped(to: firstRow..<max(firstRow, endRow))
        guard !band.isEmpty, firstColumn < endColumn else { return }
        for y in band {
            let row = target.row32(y)
            let dy = Float(y) + 0.5 - cy
            guard let reached = columns(dy: dy) else { continue }
            let inner = innerColumns(dy: dy, within: reached)
            if inner.isEmpty {
                drawEdges(B.self, reached, row: row, dy: dy)
            } else {
                drawFace(B.self, inner, row: row, dy: dy)
                drawEdges(B.self, reached.lowerBound..<inner.lowerBound, row: row, dy: dy)
                drawEdges(B.self, inner.upperBound..<max(inner.upperBound, reached.upperBound), row: row, dy: dy)
            }
        }
    }

    /// The columns the layer can reach in the row `dy` below the centre: all of them for a square, only
    /// those of the disc and its shadow for a circle (nil: none).
    @inline(__always) private func columns(dy: Float) -> Range<Int>? {
        guard shape == .circle else { return firstColumn..<endColumn }
        let r = half + reach + 1.5, h2 = r * r - dy * dy
        guard h2 > 0 else { return nil }
        let halfSpan = h2.squareRoot()
        let from = max(firstColumn, Int(cx - halfSpan))
        return from..<max(from, min(endColumn, Int(cx + halfSpan) + 1))
    }

    /// The columns surely inside the face, away from its edge, border and corners: sampled without the
    /// distance and shadow work (all of them for a disc; for a square only when not turned). Empty when
    /// there are none.
    @inline(__always) private func innerColumns(dy: Float, within reached: Range<Int>) -> Range<Int> {
        guard shape == .circle || sinA == 0 else { return 0..<0 }
        // The shape shrunk by the margin: a rounded square of half side `inner`, corner radius `corner`
        // (a disc when the corner is the whole half side).
        let margin = borderWidth + 1.5
        let inner = half - margin, corner = max(0, radius - margin), core = inner - corner
        let ay = abs(dy)
        guard ay <= inner else { return 0..<0 }
        let over = max(0, ay - core)
        let halfSpan = core + max(0, corner * corner - over * over).squareRoot()
        let innerFrom = max(reached.lowerBound, Int((cx - halfSpan).rounded(.up)))
        let innerTo = max(innerFrom, min(reached.upperBound, Int((cx + halfSpan).rounded(.down)) - 1))
        return innerFrom < innerTo ? innerFrom..<innerTo : 0..<0
    }

    /// The face's inside along a row: texel coordinates step linearly (turned by the spin); opaque texels
    /// are stored, translucent ones blended (over the shadow, which then shows through).
    @inline(__always)
    private func drawFace<B: BlendFunction>(_: B.Type, _ columns: Range<Int>, row: UnsafeMutablePointer<UInt32>, dy: Float) {
        let dx = Float(columns.lowerBound) + 0.5 - cx
        var u = (cosA * dx + sinA * dy) * texelScale + texelOffset
        var v = (cosA * dy - sinA * dx) * texelScale + texelOffset
        let du = cosA * texelScale, dv = -sinA * texelScale
        let pixels = self.pixels, side = self.side, opacity = self.opacity
        let store = B.self == NormalBlend.self && opacity == 255
        let translucentShows = shadowAlpha > 0
        // Not turned: the row reads two fixed rows of texels with one vertical weight.
        let still = dv == 0
        let last = Float(side - 1), vc = min(max(v, 0), last)
        let y0 = Int(vc), y1 = min(Int(vc) + 1, side - 1), fy = weight256(vc - Float(y0))
        let upper = pixels + y0 * side, lower = pixels + y1 * side
        for x in columns {
            var face: UInt32
            if still {
                let uc = min(max(u, 0), last)
                let x0 = Int(uc), x1 = min(x0 + 1, side - 1), fx = weight256(uc - Float(x0))
                face = lerpPixel(lerpPixel(upper[x0], upper[x1], fx), lerpPixel(lower[x0], lower[x1], fx), fy)
            } else {
                face = Self.sample(pixels, side, u, v)
            }
            if face >> 24 == 255 && store {
                row[x] = face
            } else {
                // A translucent cover lets its shadow through: the full path then.
                if face >> 24 != 255 && translucentShows {
                    let px = Float(x) + 0.5 - cx
                    face = pixel(cosA * px + sinA * dy, cosA * dy - sinA * px)
                }
                row[x] = B.blend(Blend.scaled(face, opacity: opacity), onto: row[x])
            }
            u += du; v += dv
        }
    }

    /// The edge, border and shadow along a row: the full per-pixel work.
    @inline(__always)
    private func drawEdges<B: BlendFunction>(_: B.Type, _ columns: Range<Int>, row: UnsafeMutablePointer<UInt32>, dy: Float) {
        for x in columns {
            let dx = Float(x) + 0.5 - cx
            let pixel = pixel(cosA * dx + sinA * dy, cosA * dy - sinA * dx)
            guard pixel != 0 else { continue }
            row[x] = B.blend(Blend.scaled(pixel, opacity: opacity), onto: row[x])
        }
    }

    /// The layer's pixel at shape coordinates (`x`, `y`): the face with its antialiased edge and border,
    /// over the soft shadow; 0 outside both.
    @inline(__always) private func pixel(_ x: Float, _ y: Float) -> UInt32 {
        let d = distance(x, y)
        guard d < 0.5 + reach else { return 0 }
        var pixel: UInt32 = 0
        if d < 0.5 {
            var face = sample(x, y)
            if borderWidth > 0 { face = lerpPixel(borderPixel, face, weight256(0.5 - d - borderWidth)) }
            pixel = scalePixel(face, weight256(0.5 - d))
        }
        // The shadow shows only where the face does not cover it.
        if shadowAlpha > 0 && pixel >> 24 != 255 {
            let s = 1 - smoothstep(-shadowBlur, shadowBlur, distance(x - sinA * shadowOffset, y - cosA * shadowOffset))
            pixel = NormalBlend.blend(pixel, onto: UInt32(byte(shadowAlpha * s)) << 24)
        }
        return pixel
    }

    /// The shrunk picture at shape coordinates (`x`, `y`), bilinear, clamped at its edges.
    @inline(__always) private func sample(_ x: Float, _ y: Float) -> UInt32 {
        Self.sample(pixels, side, x * texelScale + texelOffset, y * texelScale + texelOffset)
    }

    /// Bilinear sample of the `side`×`side` pixels at texel coordinates (`u`, `v`), clamped at the edges.
    @inline(__always)
    private static func sample(_ pixels: UnsafeMutablePointer<UInt32>, _ side: Int, _ u: Float, _ v: Float) -> UInt32 {
        let last = Float(side - 1)
        let u = min(max(u, 0), last), v = min(max(v, 0), last)
        let x0 = Int(u), y0 = Int(v)
        let x1 = min(x0 + 1, side - 1), y1 = min(y0 + 1, side - 1)
        let fx = weight256(u - Float(x0)), fy = weight256(v - Float(y0))
        let top = lerpPixel(pixels[y0 * side + x0], pixels[y0 * side + x1], fx)
        let bottom = lerpPixel(pixels[y1 * side + x0], pixels[y1 * side + x1], fx)
        return lerpPixel(top, bottom, fy)
    }
}
