import MarbleCore
import MarbleText

/// The numbers and tick marks along a measuring view's axis (the meters' dBFS and LUFS scales, the
/// spectrogram's frequency legend), as FFmpeg's ebur128 and showspectrum print them.
///
/// A layer lays its scale out when its geometry changes (`begin`, then `label` and `tick` at the
/// positions its own mapping gives), never per frame: each label is rasterised then with MarbleText
/// (Fontconfig's default sans, pens on whole pixels) into a small premultiplied sprite, white ink over
/// a dark halo one pixel or more wide (readable on a bright spectrogram and on a dark canvas alike),
/// and ticks are solid rectangles of whole pixels. Per frame, `draw` blends the sprites that cross a
/// row onto it, allocating nothing. Text smaller than ``minimumSize`` pixels is hidden, not drawn
/// blurry; a label the frame's edge would cut, or one that would touch a label placed before it, is
/// left out, so the caller offers its labels in order of importance.
final class AxisLabels {
    /// The smallest text drawn, pixels per em (as the piano's note names).
    static let minimumSize = 7

    /// The text size for a frame `height` pixels tall that is `atFullHD` pixels at 1080 rows (0 below
    /// ``minimumSize``: no labels at that size).
    static func textSize(_ atFullHD: Float, frameHeight height: Int) -> Int {
        let size = Int((atFullHD * Float(height) / 1080).rounded(.down))
        return size >= minimumSize ? size : 0
    }

    /// A hairline's thickness in whole pixels: one at 1080 rows, in proportion above.
    static func lineWidth(frameHeight height: Int) -> Int { max(1, Int((Float(height) / 1080).rounded())) }

    /// One placed rectangle: a label's pixels (`offset` into the pool) or a solid tick (`solid`).
    private struct Sprite { var x: Int, y: Int, width: Int, height: Int, offset: Int, solid: UInt32 }
    /// A placed label's ink box, for the overlap test.
    private struct Box { var x0: Int, y0: Int, x1: Int, y1: Int }

    private static let capacity = 96
    private let fonts: FontStack
    private let layout: TextLayout
    private let text = TextMask()
    private let sprites = UnsafeMutablePointer<Sprite>.allocate(capacity: capacity)
    private let boxes = UnsafeMutablePointer<Box>.allocate(capacity: capacity)
    private var count = 0, boxCount = 0
    private var pool: UnsafeMutablePointer<UInt32> = .allocate(capacity: 1)
    private var poolCapacity = 1, poolUsed = 0
    private var halo: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    private var haloCapacity = 1
    private var frameWidth = 0, frameHeight = 0
    private var ink = PremultipliedColor(r: 1, g: 1, b: 1, a: 1)
    private var haloAlpha: Float = 0.55
    /// The frame rows any sprite touches (empty without labels and ticks).
    private(set) var rows = 0..<0

    /// - Throws: when no font is installed (the layer then draws without labels).
    init() throws {
        fonts = try FontStack(font: "")
        layout = TextLayout(fonts: fonts)
    }

    deinit { sprites.deallocate(); boxes.deallocate(); pool.deallocate(); halo.deallocate() }

    /// True when nothing is placed.
    var isEmpty: Bool { count == 0 }

    /// Drops every label and tick and starts a layout for a `width` × `height` frame; labels are
    /// drawn in `ink` (straight alpha) over a black halo of `haloAlpha`.
    func begin(width: Int, height: Int, ink color: Color = Color(red: 1, green: 1, blue: 1, alpha: 0.85), haloAlpha: Float = 0.55) {
        frameWidth = width; frameHeight = height
        count = 0; boxCount = 0; poolUsed = 0
        ink = PremultipliedColor(color)
        self.haloAlpha = haloAlpha
        rows = 0..<0
    }

    /// The ink box of `string` at `size` pixels per em (width, height), nil when it has no ink.
    func measure(_ string: String, size: Int) -> (width: Int, height: Int)? {
        guard rasterise(string, size: size, margin: 0) else { return nil }
        return (text.width, text.height)
    }

    /// Places `string` at `size` pixels per em so that the point (`x`, `y`) of the frame falls at
    /// fraction (`anchorX`, `anchorY`) of its ink box (0.5, 0.5: centred on it; 0, 0.5: starting there,
    /// centred vertically), on whole pixels. Returns false, placing nothing, when the size is under
    /// ``minimumSize``, the frame's edge would cut the ink, or the ink box comes within `gap` pixels of
    /// a label placed before.
    @discardableResult
    func label(_ string: String, size: Int, x: Float, y: Float, anchorX: Float, anchorY: Float, gap: Int = 2) -> Bool {
        guard size >= Self.minimumSize, count < Self.capacity else { return false }
        let margin = max(1, Int((Float(size) / 14).rounded()))
        guard rasterise(string, size: size, margin: margin) else { return false }
        let inkWidth = text.width - 2 * margin, inkHeight = text.height - 2 * margin
        let left = Int((x - anchorX * Float(inkWidth)).rounded()), top = Int((y - anchorY * Float(inkHeight)).rounded())
        let box = Box(x0: left, y0: top, x1: left + inkWidth, y1: top + inkHeight)
        guard box.x0 >= 0, box.y0 >= 0, box.x1 <= frameWidth, box.y1 <= frameHeight else { return false }
        for k in 0..<boxCount {
            let b = boxes[k]
            if box.x0 < b.x1 + gap && b.x0 < box.x1 + gap && box.y0 < b.y1 + gap && b.y0 < box.y1 + gap { return false }
        }
        boxes[boxCount] = box; boxCount += 1
        addSprite(left: left - margin, top: top - margin, margin: margin)
        return true
    }

    /// A solid rectangle of whole pixels in `color` (premultiplied, packed), clipped to the frame.
    func tick(x: Int, y: Int, width: Int, height: Int, color: UInt32) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(frameWidth, x + width), y1 = min(frameHeight, y + height)
        guard x0 < x1, y0 < y1, color != 0, count < Self.capacity else { return }
        append(Sprite(x: x0, y: y0, width: x1 - x0, height: y1 - y0, offset: 0, solid: color))
    }

    /// Blends the sprites crossing frame row `y` onto `dst` (a row `width` pixels wide) through `B`,
    /// scaled by `opacity` (0…255).
    @inline(__always)
    func draw<B: BlendFunction>(_: B.Type, row y: Int, into dst: UnsafeMutablePointer<UInt32>, width: Int, opacity: UInt32 = 255) {
        guard rows.contains(y), width == frameWidth else { return }
        for k in 0..<count {
            let s = sprites[k]
            guard y >= s.y, y < s.y + s.height else { continue }
            let out = dst + s.x
            if s.solid != 0 {
                let p = opacity == 255 ? s.solid : Blend.scaled(s.solid, opacity: opacity)
                for x in 0..<s.width { out[x] = B.blend(p, onto: out[x]) }
            } else {
                let src = pool + s.offset + (y - s.y) * s.width
                for x in 0..<s.width where src[x] != 0 {
                    out[x] = B.blend(opacity == 255 ? src[x] : Blend.scaled(src[x], opacity: opacity), onto: out[x])
                }
            }
        }
    }

    // MARK: - Building

    /// Lays out and draws `string` into `text`; false when it has no ink.
    private func rasterise(_ string: String, size: Int, margin: Int) -> Bool {
        let scalars = Array(string.unicodeScalars.map(\.value))
        scalars.withUnsafeBufferPointer { layout.layout($0, pixelSize: size) }
        text.draw(layout, alignment: .left, margin: margin)
        return !text.isEmpty
    }

    /// The last rasterised label at (`left`, `top`), ink over halo, clipped to the frame, as a sprite.
    private func addSprite(left: Int, top: Int, margin: Int) {
        let w = text.width, h = text.height
        if w * h > haloCapacity {
            halo.deallocate(); haloCapacity = w * h; halo = .allocate(capacity: haloCapacity)
        }
        MaskFilter.dilate(text.pixels, into: halo, width: w, height: h, radius: Float(margin))
        let x0 = max(0, left), y0 = max(0, top), x1 = min(frameWidth, left + w), y1 = min(frameHeight, top + h)
        guard x0 < x1, y0 < y1 else { return }
        let sw = x1 - x0, sh = y1 - y0
        reserve(sw * sh)
        let out = pool + poolUsed
        for y in 0..<sh {
            let source = (y + y0 - top) * w + (x0 - left)
            for x in 0..<sw {
                let c = Float(text.pixels[source + x]) / 255, d = Float(halo[source + x]) / 255 * haloAlpha
                // Ink over the halo, premultiplied.
                let a = ink.a * c, under = d * (1 - a)
                out[y * sw + x] = packPremultiplied(ink.r * c, ink.g * c, ink.b * c, a + under)
            }
        }
        append(Sprite(x: x0, y: y0, width: sw, height: sh, offset: poolUsed, solid: 0))
        poolUsed += sw * sh
    }

    /// Room for `n` more pool pixels (the pool only grows; sprites hold offsets, not pointers).
    private func reserve(_ n: Int) {
        guard poolUsed + n > poolCapacity else { return }
        let grown = UnsafeMutablePointer<UInt32>.allocate(capacity: (poolUsed + n) * 2)
        grown.update(from: pool, count: poolUsed)
        pool.deallocate()
        pool = grown; poolCapacity = (poolUsed + n) * 2
    }

    private func append(_ s: Sprite) {
        sprites[count] = s; count += 1
        rows = rows.isEmpty ? s.y..<(s.y + s.height) : min(rows.lowerBound, s.y)..<max(rows.upperBound, s.y + s.height)
    }
}
