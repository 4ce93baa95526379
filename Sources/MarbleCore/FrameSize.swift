/// A picture size in pixels, as a user writes it: "1920x1080".
package struct FrameSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// A size of `width` × `height` pixels (not checked: see ``isValidFrameSize``).
    package init(_ width: Int, _ height: Int) { self.width = width; self.height = height }
    /// `1920x1080`: the form ``init(parsing:)`` reads back.
    package var description: String { "\(width)x\(height)" }

    /// Parses "1920x1080" (the form only: ``isValidFrameSize`` says whether it can be rendered).
    package init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(w, h)
    }

    /// Even, and between 16x16 and 7680x4320.
    package var isValidFrameSize: Bool {
        (16...7680).contains(width) && (16...4320).contains(height) && width % 2 == 0 && height % 2 == 0
    }
}
