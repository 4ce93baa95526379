import MarbleCore

/// Which frames of a render to draw, so that a farm can cut one render into independent jobs: piece
/// K of N of the frame grid, or an explicit range of frame indices.
///
/// The grid is the one-pass render's: F = ceil(samples · fps / sample rate) frames, frame n at n / fps
/// seconds, computed from integers (44.1 kHz at 24 fps is 1837.5 samples a frame, and no piece
/// rounds differently from another). Piece K of N holds frames ⌊(K − 1) · F / N⌋ ..< ⌊K · F / N⌋: the
/// pieces tile the grid with no gap and no overlap, and their sizes differ by at most one frame.
package enum RenderSegment: Sendable, Equatable, CustomStringConvertible {
    /// Piece `index` (from 1) of `count` equal pieces.
    case piece(Int, of: Int)
    /// Frames `first` through `last`, both included (indices from 0).
    case frames(first: Int, last: Int)

    /// The most pieces a render is cut into (and so the largest K or N accepted).
    package static let maxPieces = 100_000
    /// The largest frame index accepted: 100 hours at 240 fps.
    package static let maxFrame = 86_400_000

    /// Parses `--segment K/N`: "7/40".
    package static func piece(parsing text: String) throws(MarbleError) -> RenderSegment {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw MarbleError(.option, "--segment \(text): expected K/N, piece K of N counted from 1 (e.g. 7/40)")
        }
        let segment = RenderSegment.piece(k, of: n)
        try segment.validate()
        return segment
    }

    /// Parses `--frames A-B`: "0-1199" (both included).
    package static func frames(parsing text: String) throws(MarbleError) -> RenderSegment {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]) else {
            throw MarbleError(.option, "--frames \(text): expected FIRST-LAST, frame indices from 0, both included (e.g. 0-1199)")
        }
        let segment = RenderSegment.frames(first: a, last: b)
        try segment.validate()
        return segment
    }

    /// Checks the numbers on their own (``range(totalFrames:)`` checks them against the render).
    package func validate() throws(MarbleError) {
        switch self {
        case .piece(let k, let n):
            guard (1...Self.maxPieces).contains(n) else {
                throw MarbleError(.option, "--segment \(k)/\(n): N must be between 1 and \(Self.maxPieces)")
            }
            guard (1...n).contains(k) else { throw MarbleError(.option, "--segment \(k)/\(n): K must be between 1 and \(n)") }
        case .frames(let a, let b):
            guard a >= 0, b >= a, b <= Self.maxFrame else {
                throw MarbleError(.option, "--frames \(a)-\(b): expected 0 ≤ FIRST ≤ LAST ≤ \(Self.maxFrame)")
            }
        }
    }

    /// The frame indices this segment draws, of a render of `totalFrames` frames.
    package func range(totalFrames: Int) throws(MarbleError) -> Range<Int> {
        try validate()
        switch self {
        case .piece(let k, let n):
            guard n <= totalFrames else {
                throw MarbleError(.option, "--segment \(k)/\(n): the render has only \(totalFrames) frames; cut it into at most \(totalFrames) pieces")
            }
            return Self.bound(k - 1, of: n, totalFrames)..<Self.bound(k, of: n, totalFrames)
        case .frames(let a, let b):
            guard b < totalFrames else {
                throw MarbleError(.option, "--frames \(a)-\(b): the render has \(totalFrames) frames (0-\(totalFrames - 1))")
            }
            return a..<(b + 1)
        }
    }

    /// ⌊k · total / n⌋ without overflow (total ≤ ``maxFrame``, n ≤ ``maxPieces``: the product fits in 64 bits).
    private static func bound(_ k: Int, of n: Int, _ total: Int) -> Int { k * total / n }

    /// "7/40" or "frames 100-199".
    package var description: String {
        switch self {
        case .piece(let k, let n): "\(k)/\(n)"
        case .frames(let a, let b): "frames \(a)-\(b)"
        }
    }
}
