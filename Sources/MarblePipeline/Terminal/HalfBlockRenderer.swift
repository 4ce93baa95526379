import MarbleCore

/// Turns a texture into the bytes that draw it on a truecolor terminal, two pixels per cell: "▀" with
/// the upper pixel as foreground and the lower one as background (a cell whose two pixels match is a
/// space with that background). A colour is sent only when it differs from the previous cell's, and
/// a status line can follow the picture.
///
/// All memory is allocated in `init`: ``encode(_:status:)`` writes into one preallocated buffer and
/// allocates nothing, so a frame costs one `write`.
///
/// The texture is premultiplied RGBA; it is shown over black, which for premultiplied colour is its
/// RGB as stored.
package final class HalfBlockRenderer {
    /// Cells across and down for the picture (the texture is `columns × 2·rows` pixels).
    package let columns: Int
    /// Text rows of picture, each showing two pixel rows (the status line is extra).
    package let rows: Int
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// "0".."255" as up to three ASCII digits: entry i is `[length, d0, d1, d2]`.
    private let digits: UnsafeMutablePointer<UInt8>

    /// Longest cell: two SGR colour codes ("\e[38;2;255;255;255m", 19 bytes each) and "▀" (3).
    private static let maxCellBytes = 41
    private static let maxStatusBytes = 512

    /// A renderer for a picture of `columns` × `rows` cells (both positive); allocates its whole output buffer now.
    package init(columns: Int, rows: Int) {
        precondition(columns > 0 && rows > 0, "terminal picture must have cells")
        self.columns = columns
        self.rows = rows
        capacity = rows * (16 + columns * Self.maxCellBytes) + 32 + Self.maxStatusBytes + columns
        buffer = .allocate(capacity: capacity)
        digits = .allocate(capacity: 256 * 4)
        for v in 0..<256 {
            let text = Array(String(v).utf8)
            digits[v * 4] = UInt8(text.count)
            for (i, c) in text.enumerated() { digits[v * 4 + 1 + i] = c }
        }
    }

    deinit {
        buffer.deallocate()
        digits.deallocate()
    }

    /// Encodes `texture` (which must be `columns × 2·rows`) and, on the row below it, `status` (ASCII,
    /// cut or padded to the width, shown in reverse video). Returns the bytes, valid until the next call.
    package func encode(_ texture: Texture, status: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        precondition(texture.width == columns && texture.height == 2 * rows, "texture does not match the cell grid")
        let view = texture.view
        var n = 0
        var lastForeground: UInt32 = .max
        var lastBackground: UInt32 = .max
        for cellRow in 0..<rows {
            n = moveCursor(to: cellRow + 1, at: n)
            let upper = view.row32(2 &* cellRow)
            let lower = view.row32(2 &* cellRow &+ 1)
            for x in 0..<columns {
                let top = upper[x] & 0x00FF_FFFF
                let bottom = lower[x] & 0x00FF_FFFF
                if bottom != lastBackground {
                    n = color(bottom, code: 48, at: n)
                    lastBackground = bottom
                }
                if top == bottom {
                    buffer[n] = 0x20
                    n &+= 1
                    continue
                }
                if top != lastForeground {
                    n = color(top, code: 38, at: n)
                    lastForeground = top
                }
                buffer[n] = 0xE2; buffer[n &+ 1] = 0x96; buffer[n &+ 2] = 0x80  // ▀
                n &+= 3
            }
        }
        n = moveCursor(to: rows + 1, at: n)
        n = append("\u{1B}[0;7m", at: n)
        let shown = min(status.count, columns, Self.maxStatusBytes)
        for i in 0..<shown { buffer[n &+ i] = status[i] }
        n &+= shown
        for _ in shown..<columns { buffer[n] = 0x20; n &+= 1 }
        n = append("\u{1B}[0m", at: n)
        return UnsafeRawBufferPointer(start: buffer, count: n)
    }

    /// "\e[<row>;1H".
    private func moveCursor(to row: Int, at start: Int) -> Int {
        var n = start
        buffer[n] = 0x1B; buffer[n &+ 1] = 0x5B
        n &+= 2
        n = number(row, at: n)
        buffer[n] = 0x3B; buffer[n &+ 1] = 0x31; buffer[n &+ 2] = 0x48  // ;1H
        return n &+ 3
    }

    /// "\e[<code>;2;R;G;Bm" for a packed little-endian RGB value.
    @inline(__always)
    private func color(_ rgb: UInt32, code: UInt8, at start: Int) -> Int {
        var n = start
        buffer[n] = 0x1B; buffer[n &+ 1] = 0x5B
        buffer[n &+ 2] = 0x30 &+ code / 10; buffer[n &+ 3] = 0x30 &+ code % 10
        buffer[n &+ 4] = 0x3B; buffer[n &+ 5] = 0x32
        n &+= 6
        n = byte(Int(rgb & 0xFF), at: n)
        n = byte(Int(rgb >> 8 & 0xFF), at: n)
        n = byte(Int(rgb >> 16 & 0xFF), at: n)
        buffer[n] = 0x6D  // m
        return n &+ 1
    }

    /// ";<value>" for 0...255.
    @inline(__always)
    private func byte(_ value: Int, at start: Int) -> Int {
        buffer[start] = 0x3B
        let entry = digits + value &* 4
        let length = Int(entry[0])
        for i in 0..<length { buffer[start &+ 1 &+ i] = entry[1 &+ i] }
        return start &+ 1 &+ length
    }

    /// Decimal digits of a non-negative number.
    private func number(_ value: Int, at start: Int) -> Int {
        var v = value, count = 1
        while v >= 10 { v /= 10; count += 1 }
        v = value
        for i in stride(from: count - 1, through: 0, by: -1) {
            buffer[start + i] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
            v /= 10
        }
        return start + count
    }

    private func append(_ text: StaticString, at start: Int) -> Int {
        let count = text.utf8CodeUnitCount
        (buffer + start).update(from: text.utf8Start, count: count)
        return start + count
    }
}
