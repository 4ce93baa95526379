import MarbleText

/// The names of the C keys ("C1" … "C8", middle C is C4) on a piano view's keyboard, drawn into the
/// lower part of each C's white key when the keys are wide and tall enough to read them (text at
/// least 7 pixels high); otherwise the keyboard keeps its dots. Rasterised once per frame size with
/// MarbleText (Fontconfig's default sans), kept as one coverage mask the width of the frame.
final class PianoNoteNames {
    private let fonts: FontStack
    private let layout: TextLayout
    private let text = TextMask()
    /// Coverage of the names, `width` × `rows`, rows packed; row 0 is frame row `top`.
    private var mask: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    private var width = 0
    private(set) var top = 0, rows = 0
    /// False when the keys are too small for names (the dots stay).
    private(set) var shown = false

    init() throws {
        fonts = try FontStack(font: "")
        layout = TextLayout(fonts: fonts)
    }

    deinit { mask.deallocate() }

    /// Lays out the names for a keyboard whose lower part (the white keys) spans frame rows
    /// `lowerTop..<bottom`, `slot` pixels per semitone, with C keys centred at `centers` (the first is
    /// MIDI note `firstC`).
    func configure(width: Int, lowerTop: Int, bottom: Int, slot: Float, centers: UnsafePointer<Float>, count: Int, firstC: Int) {
        mask.deallocate()
        self.width = width
        let whiteKey = slot * 12 / 7
        let size = Int(min(Float(bottom - lowerTop) * 0.6, whiteKey * 0.62).rounded(.down))
        shown = size >= 7 && count > 0
        top = lowerTop; rows = shown ? bottom - lowerTop : 0
        mask = .allocate(capacity: max(1, width * rows))
        mask.initialize(repeating: 0, count: max(1, width * rows))
        guard shown else { return }
        for k in 0..<count {
            let octave = (firstC + 12 * k) / 12 - 1
            let name = Array("C\(octave)".unicodeScalars.map(\.value))
            name.withUnsafeBufferPointer { layout.layout($0, pixelSize: size) }
            text.draw(layout, alignment: .center, margin: 0)
            guard !text.isEmpty else { continue }
            // Centred on the key; its baseline a fifth of the white key's lower part above the bottom.
            let left = Int((centers[k] - Float(text.width) / 2).rounded())
            guard left >= 0, left + text.width <= width else { continue }   // a name the frame's edge would cut
            let baseline = rows - max(1, rows / 5)
            let up = text.blockY + Int(layout.metrics.ascender.rounded())
            place(left: left, top: baseline - up)
        }
    }

    /// Copies the last drawn name's coverage into the mask at (`left`, `top`), clipped.
    private func place(left: Int, top: Int) {
        for y in 0..<text.height where top + y >= 0 && top + y < rows {
            let from = text.pixels + y * text.width, to = mask + (top + y) * width
            for x in 0..<text.width where left + x >= 0 && left + x < width {
                to[left + x] = max(to[left + x], from[x])
            }
        }
    }

    /// The names' coverage in frame row `y` (nil outside them).
    func coverage(row y: Int) -> UnsafePointer<UInt8>? {
        guard shown, y >= top, y < top + rows else { return nil }
        return UnsafePointer(mask + (y - top) * width)
    }
}
