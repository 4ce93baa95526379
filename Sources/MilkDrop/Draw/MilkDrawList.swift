/// How a primitive combines with the feedback buffer (MilkDrop's two blend states).
package enum MilkBlend: UInt8, Sendable {
    /// `src·a + dst·(1 − a)`: MilkDrop's default ("overwrite") drawing.
    case alpha
    /// `dst + src·a`, saturating: waves with `bAdditive`, shapes with `additive`.
    case additive
}

/// A straight (not premultiplied) colour, each channel 0…1, as a preset computes it.
package typealias MilkColor = SIMD4<Float>

/// What one command of a ``MilkDrawList`` draws.
package enum MilkPrimitive: UInt8, Sendable {
    /// Connected line segments through the vertices; colours are interpolated along each segment.
    case lineStrip
    /// A line strip closed back to its first vertex.
    case lineLoop
    /// Separate segments: vertices 0–1, 2–3, …
    case segments
    /// A square dot of side `size` pixels centred on each vertex.
    case dots
    /// A convex polygon: vertex 0 is its centre (colour of the centre), the others its outline in order
    /// (the colour of vertex 1 is the edge colour); colours are interpolated from centre to edge as
    /// MilkDrop's triangle fans do; optionally textured.
    case fan
    /// The pixels inside rectangle (vertex 0, vertex 1) but not inside rectangle (vertex 2, vertex 3),
    /// in one colour: borders, and solid quads (an empty inner rectangle).
    case frame
}

/// Maps pixel positions of the target to texture coordinates of the sampled picture, affinely:
/// `u = ux·x + uy·y + u0`, `v = vx·x + vy·y + v0`, with (u, v) in 0…1 across the picture (u right,
/// v down) and wrapping outside (MilkDrop sets the texture to repeat for textured shapes).
package struct MilkTextureMap: Sendable, Equatable {
    package var ux: Float, uy: Float, u0: Float
    package var vx: Float, vy: Float, v0: Float

    package init(ux: Float, uy: Float, u0: Float, vx: Float, vy: Float, v0: Float) {
        self.ux = ux; self.uy = uy; self.u0 = u0; self.vx = vx; self.vy = vy; self.v0 = v0
    }

    /// The affine map taking pixel positions `p0, p1, p2` to texture coordinates `t0, t1, t2`
    /// (nil when the three points are collinear).
    package init?(_ p0: SIMD2<Float>, _ t0: SIMD2<Float>, _ p1: SIMD2<Float>, _ t1: SIMD2<Float>,
                 _ p2: SIMD2<Float>, _ t2: SIMD2<Float>) {
        let a = p1 - p0, b = p2 - p0
        let det = a.x * b.y - a.y * b.x
        guard abs(det) > 1e-9, det.isFinite else { return nil }
        let da = t1 - t0, db = t2 - t0
        // Solve [a b]ᵀ-columns: d(t)/dx and d(t)/dy from the two edge vectors.
        let dx = (da * b.y - db * a.y) / det
        let dy = (db * a.x - da * b.x) / det
        ux = dx.x; uy = dy.x; u0 = t0.x - dx.x * p0.x - dy.x * p0.y
        vx = dx.y; vy = dy.y; v0 = t0.y - dx.y * p0.x - dy.y * p0.y
    }
}

/// One frame's drawing after the warp: a display list of lines, dots, polygons and frames in pixel
/// coordinates (x right, y down, pixel (i, j) covers [i, i+1]×[j, j+1]), built once per frame on one
/// thread by the producers (``BuiltInWave``, ``CustomWave``, ``CustomShape``, ``Borders``,
/// ``MotionVectors``, ``DarkenCenter``), then drawn by ``MilkRasterizer`` for row strips concurrently.
///
/// Storage is flat arrays reserved once: after the first frames, building a frame allocates nothing
/// (`reset(width:height:)` keeps the capacity).
///
/// Drawing order (projectM 4 `MilkdropPreset.cpp` `RenderFrame`, after the warp): custom shapes 0…3,
/// custom waves 0…3, the built-in wave, darken-centre, borders. projectM draws motion vectors onto the
/// previous frame before warping it; drawn first here, they land under everything else, as there.
/// ```swift
/// // prepare (one thread), after the warp wrote `next` from `previous`:
/// list.reset(width: w, height: h)
/// MotionVectors.build(mv, into: &list) { warp.sourcePoint(of: $0) }
/// for shape in shapes { shape.build(frameValues, into: &list) }
/// for wave in waves { wave.build(frameValues, audio: audio, into: &list) }
/// builtInWave.build(waveSettings, audio: audio, into: &list)
/// DarkenCenter.build(enabled: darkenCenter, into: &list)
/// Borders.build(borders, into: &list)
/// // render (each strip, concurrently):
/// MilkRasterizer.draw(list, into: next, rows: strip, texture: previous)
/// ```
package struct MilkDrawList: Sendable {
    struct Command: Sendable {
        var kind: MilkPrimitive
        var blend: MilkBlend
        var textured: Bool
        var first: Int        // first vertex
        var count: Int        // vertices
        var edgeFirst: Int    // fans: first edge equation
        var size: Float       // line width or dot side, target pixels
        var minY: Float, maxY: Float  // rows touched (pixel space, inclusive bounds of coverage)
        var texture: MilkTextureMap
    }

    /// The target's size in pixels (what producers map MilkDrop coordinates onto).
    package private(set) var width: Int
    package private(set) var height: Int
    /// Target pixels per size unit: line widths and dot sides given to ``begin(_:blend:size:texture:)``
    /// are multiplied by it. The renderer sets ``pixelScale(width:height:)``, so sizes are in pixels of
    /// a 1280×720 texture (the feedback buffer the layer uses up to 1080p, where MilkDrop draws 1-pixel
    /// lines): lines cover the same share of the picture at any size, and a preset looks the same at
    /// 320×180 and at 1080p. 1 (target pixels) unless set.
    package private(set) var pixelScale: Float = 1
    /// The reference texture's width and height.
    package static let referenceWidth = 1280, referenceHeight = 720
    var commands: [Command] = []
    var positions: [SIMD2<Float>] = []
    var colors: [MilkColor] = []
    /// Fans: per outline edge (a, b, c, 1/h): `a·x + b·y + c` is the signed distance to the edge in
    /// pixels, positive inside; h is that distance at the centre (w = 0 when the centre is not inside).
    var edges: [SIMD4<Float>] = []
    private var open: Command?

    /// An empty list for a `width`×`height` target, with room for `vertices` vertices and `commands`
    /// commands before any allocation.
    package init(width: Int = 1, height: Int = 1, reservingVertices vertices: Int = 16_384, commands: Int = 1_024) {
        self.width = max(1, width); self.height = max(1, height)
        self.commands.reserveCapacity(commands)
        positions.reserveCapacity(vertices)
        colors.reserveCapacity(vertices)
        edges.reserveCapacity(vertices / 4)
    }

    /// Empties the list for a new frame drawn on a `width`×`height` target, keeping the capacity, with
    /// sizes times `pixelScale` (finite, 0.01…16).
    package mutating func reset(width: Int, height: Int, pixelScale: Float = 1) {
        self.width = max(1, width); self.height = max(1, height)
        self.pixelScale = pixelScale.isFinite ? max(0.01, min(16, pixelScale)) : 1
        commands.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        colors.removeAll(keepingCapacity: true)
        edges.removeAll(keepingCapacity: true)
        open = nil
    }

    /// Target pixels per reference pixel for a `width`×`height` target: √(area / 1280·720).
    package static func pixelScale(width: Int, height: Int) -> Float {
        (Float(width) * Float(height) / Float(referenceWidth * referenceHeight)).squareRoot()
    }

    /// Commands in the list.
    package var commandCount: Int { commands.count }
    /// Vertices in the list.
    package var vertexCount: Int { positions.count }
    /// The primitive of command `index`, in drawing order.
    package func primitive(at index: Int) -> MilkPrimitive { commands[index].kind }

    /// The coordinate conventions of this list's target.
    package var space: MilkDrawSpace { MilkDrawSpace(width: width, height: height) }

    // MARK: building

    /// Starts a primitive; add its vertices with ``append(_:_:)`` and close it with ``end()``.
    /// `size` is the line width or dot side in reference pixels (× ``pixelScale`` on the target; ignored
    /// by fans and frames); `texture`, for fans
    /// only, makes the fan sample the texture given to the rasterizer, tinted by the vertex colours.
    package mutating func begin(_ kind: MilkPrimitive, blend: MilkBlend, size: Float = 1,
                               texture: MilkTextureMap? = nil) {
        precondition(open == nil, "begin() while a primitive is open")
        let first = positions.count
        open = Command(kind: kind, blend: blend, textured: texture != nil && kind == .fan, first: first, count: 0,
                       edgeFirst: edges.count, size: max(0, size.isFinite ? min(size, 64) * pixelScale : 0), minY: .infinity, maxY: -.infinity,
                       texture: texture ?? MilkTextureMap(ux: 0, uy: 0, u0: 0, vx: 0, vy: 0, v0: 0))
    }

    /// Adds a vertex (pixel position, straight colour) to the open primitive. Non-finite positions are
    /// kept (segments touching them are skipped when drawn); colours are clamped to 0…1.
    @inline(__always)
    package mutating func append(_ position: SIMD2<Float>, _ color: MilkColor) {
        positions.append(position)
        @inline(__always) func unit(_ x: Float) -> Float { x >= 1 ? 1 : x > 0 ? x : 0 }   // NaN → 0
        colors.append(MilkColor(unit(color.x), unit(color.y), unit(color.z), unit(color.w)))
    }

    /// Closes the open primitive: computes its row bounds (and, for a fan, its edge equations) and keeps
    /// it, or drops it when it draws nothing (too few vertices, invisible, degenerate).
    package mutating func end() {
        guard var c = open else { preconditionFailure("end() without begin()") }
        open = nil
        c.count = positions.count - c.first
        let needed: Int
        switch c.kind {
        case .lineStrip, .lineLoop, .segments: needed = 2
        case .dots: needed = 1
        case .fan: needed = 4
        case .frame: needed = 4
        }
        var visible = c.count >= needed
        if visible {
            var lo = Float.infinity, hi = -Float.infinity, alpha: Float = 0
            for i in c.first..<(c.first + c.count) {
                let y = positions[i].y
                if y.isFinite { lo = min(lo, y); hi = max(hi, y) }
                alpha = max(alpha, colors[i].w)
            }
            let pad = c.kind == .frame || c.kind == .fan ? 0 : c.size * 0.5 + 1
            c.minY = lo - pad; c.maxY = hi + pad
            visible = lo <= hi && alpha > 0
            if visible && c.kind == .fan { visible = buildEdges(&c) }
        }
        if visible {
            commands.append(c)
        } else {
            positions.removeSubrange(c.first...)
            colors.removeSubrange(c.first...)
            edges.removeSubrange(c.edgeFirst...)
        }
    }

    /// A rectangle frame in one colour: the pixels inside `outer` (min, max corners) and outside
    /// `inner` (pass an empty inner rectangle for a solid quad). Always alpha-blended.
    package mutating func addFrame(outer: (SIMD2<Float>, SIMD2<Float>), inner: (SIMD2<Float>, SIMD2<Float>),
                                  color: MilkColor, blend: MilkBlend = .alpha) {
        begin(.frame, blend: blend)
        append(outer.0, color); append(outer.1, color)
        append(inner.0, color); append(inner.1, color)
        end()
    }

    /// Edge equations of the fan's outline; false when the polygon has no area or is not finite.
    private mutating func buildEdges(_ c: inout Command) -> Bool {
        let center = positions[c.first]
        let n = c.count - 1
        var area: Float = 0
        for i in 0..<n {
            let p = positions[c.first + 1 + i], q = positions[c.first + 1 + (i + 1) % n]
            area += p.x * q.y - p.y * q.x
        }
        guard area.isFinite, abs(area) > 1e-6, center.x.isFinite, center.y.isFinite else { return false }
        let sigma: Float = area > 0 ? 1 : -1
        var inside = true
        for i in 0..<n {
            let p = positions[c.first + 1 + i], q = positions[c.first + 1 + (i + 1) % n]
            let e = q - p
            let length = (e.x * e.x + e.y * e.y).squareRoot()
            var eq: SIMD4<Float>
            if length > 1e-6 {
                eq = SIMD4(-sigma * e.y / length, sigma * e.x / length, sigma * (e.y * p.x - e.x * p.y) / length, 0)
                let h = eq.x * center.x + eq.y * center.y + eq.z
                if h <= 1e-4 { inside = false } else { eq.w = 1 / h }
            } else {
                eq = SIMD4(0, 0, 1, 1e30)   // a zero-length edge: restricts nothing, never the nearest
            }
            edges.append(eq)
        }
        if !inside {   // centre not strictly inside: colour the whole fan with its edge colour
            for i in c.edgeFirst..<edges.count { edges[i].w = 0 }
        }
        return true
    }
}
