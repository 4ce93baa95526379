import MarbleCore

/// A MilkDrop 2 pixel shader (`warp_` or `comp_`) run over the rows of an RGBA8 target: each strip
/// goes through its rows in batches of the worker's ``ShaderMachine`` lanes, fills the batch's
/// per-pixel inputs, runs the program and writes `ret` as bytes (NaN → 0, clamped to 0…1, × 255
/// rounded to nearest, alpha 255).
///
/// The inputs, as MilkDrop 2 hands them to its shaders (u right, v down, 0…1):
/// - warp: `uv` is the warp mesh's coordinate interpolated at the pixel exactly as ``WarpPass``
///   interpolates it (the plain warp reads the previous frame at the same coordinates);
///   `rad`/`ang` are the mesh vertices' own (MilkDrop's `m_vertinfo`: radius and counter-clockwise
///   angle with the aspect applied), interpolated the same way, with MilkDrop's seam fix: the vertices
///   left of the centre on the centre row count as +π for the cells above it, −π for those below;
/// - composite: `uv` is the pixel centre; `rad` is the distance from the centre with the aspect
///   applied, 1 at the corners, `ang` = atan2 of the aspect-corrected offset (v down) in 0…2π
///   (MilkDrop's `UvToMathSpace`, here per pixel instead of per vertex of its composite mesh);
///   `hue_shader` is the four corner colours of ``hue`` interpolated bilinearly;
/// - both: `uv_orig` is the pixel centre ((x + 0.5) / width, (y + 0.5) / height).
///
/// Per preset: ``setProgram(_:workers:)`` (a machine per worker thread); when the textures change:
/// ``bind(textures:)``; per frame: ``setUniforms(_:)``, ``setTarget(_:)`` (and ``setMesh(_:)`` for the
/// warp), then run it over the target's rows. Nothing is allocated per frame once sizes are settled.
final class ShaderPass: StripTask, @unchecked Sendable {
    // Safety of @unchecked Sendable: every field is set by the renderer before `run`; strips only read
    // them, use the machine and scratch of their own worker index, and write disjoint rows of `target`.

    enum Kind: Sendable { case warp, composite }

    let kind: Kind
    private(set) var program: ShaderProgram?
    private(set) var target = TextureView(pixels: UnsafeMutableRawPointer(bitPattern: 64)!, width: 1, height: 1, bytesPerRow: 4)
    /// The warp mesh (warp only).
    private(set) var mesh: WarpMesh?
    /// The composite's `hue_shader` per corner (top-left, top-right, bottom-left, bottom-right; r, g,
    /// b), the ordering of ``CompositePass/gain``, without gamma.
    var hue = [Float](repeating: 1, count: 12)
    private var workers: [ShaderPassWorker] = []
    /// Per column of the target: its mesh cell and its offset into the cell in pixels (warp), or its
    /// `u` (composite); rebuilt only when the width or the mesh changes.
    private var columnCell: [Int32] = [], columnOffset: [Float] = [], columnU: [Float] = []
    private var columnsFor = (width: -1, meshColumns: -1)

    init(kind: Kind) { self.kind = kind }

    /// Prepares `program` to run with one machine for each of `workers` threads (allocates; once per
    /// preset), `lanes` pixels a batch. Textures and uniforms are bound again afterwards. Throws when
    /// the program is malformed.
    func setProgram(_ program: ShaderProgram, workers count: Int, lanes: Int = ShaderMachine.defaultLanes) throws(ShaderMachineError) {
        var made: [ShaderPassWorker] = []
        for _ in 0..<max(1, count) {
            made.append(ShaderPassWorker(machine: try ShaderMachine(program: program, lanes: lanes), meshColumns: mesh?.columns ?? 0))
        }
        self.program = program
        workers = made
    }

    /// Binds the textures the program samples, in slot order, on every worker's machine.
    func bind(textures: [any ShaderTexture]) throws(ShaderMachineError) {
        for worker in workers { try worker.machine.bind(textures: textures) }
    }

    /// Loads the frame's uniform block into every machine.
    func setUniforms(_ block: [Float]) {
        for worker in workers { worker.machine.setUniforms(block) }
    }

    /// The picture the pass draws (RGBA8); column tables are rebuilt when its width changes.
    func setTarget(_ target: TextureView) {
        self.target = target
        rebuildColumns()
    }

    /// The warp mesh whose coordinates the warp shader reads.
    func setMesh(_ mesh: WarpMesh) {
        self.mesh = mesh
        for worker in workers where worker.meshColumns != mesh.columns { worker.resize(meshColumns: mesh.columns) }
        rebuildColumns()
    }

    private func rebuildColumns() {
        let width = target.width, columns = mesh?.columns ?? 0
        guard columnsFor != (width, columns) else { return }
        columnsFor = (width, columns)
        columnU = (0..<width).map { (Float($0) + 0.5) / Float(width) }
        columnCell = [Int32](repeating: 0, count: width)
        columnOffset = [Float](repeating: 0, count: width)
        guard columns > 0 else { return }
        // The cells' pixels as WarpPass assigns them: those whose centres fall in the cell.
        let cellWidth = Float(width) / Float(columns)
        var x = 0
        for cell in 0..<columns {
            let end = cell == columns - 1 ? width : min(width, Int((Float(cell + 1) * cellWidth - 0.5).rounded(.up)))
            while x < end {
                columnCell[x] = Int32(cell)
                columnOffset[x] = Float(x) + 0.5 - Float(cell) * cellWidth
                x += 1
            }
        }
    }

    func run(strip: Range<Int>, worker index: Int) {
        guard program != nil else { return }
        precondition(index < workers.count, "setProgram(_:workers:) with at least as many workers as threads")
        let worker = workers[index]
        if kind == .warp { precondition(mesh != nil && worker.meshColumns == mesh!.columns, "setMesh(_:) first") }
        precondition(hue.count == 12, "hue holds 4 corners × r, g, b")
        columnCell.withUnsafeBufferPointer { cells in
        columnOffset.withUnsafeBufferPointer { offsets in
        columnU.withUnsafeBufferPointer { us in
            let columns = ShaderPassColumns(cell: cells.baseAddress!, offset: offsets.baseAddress!, u: us.baseAddress!)
            for y in strip { draw(row: y, worker: worker, columns: columns) }
        } } }
    }

    /// One row, batch after batch.
    private func draw(row y: Int, worker: ShaderPassWorker, columns: ShaderPassColumns) {
        let machine = worker.machine, lanes = machine.lanes
        let width = target.width, height = target.height
        let v = (Float(y) + 0.5) / Float(height)
        if kind == .warp { worker.prepareWarpRow(y, height: height, width: width, mesh: mesh!) }
        let out = target.row32(y)
        var x0 = 0
        while x0 < width {
            let count = min(lanes, width - x0)
            // Lanes past the row's end (up to a multiple of 8) repeat its last pixel.
            let n = (count + 7) & ~7
            let inputs = worker.inputs
            if let p = inputs.uvOrigX { Self.copyColumns(columns.u, x0: x0, n: n, width: width, into: p) }
            if let p = inputs.uvOrigY { p.update(repeating: v, count: n) }
            switch kind {
            case .warp:
                worker.fillWarp(x0: x0, n: n, width: width, columns: columns)
            case .composite:
                if let p = inputs.uvX { Self.copyColumns(columns.u, x0: x0, n: n, width: width, into: p) }
                if let p = inputs.uvY { p.update(repeating: v, count: n) }
                worker.fillComposite(x0: x0, n: n, v: v, width: width, height: height, columns: columns, hue: hue)
            }
            machine.run(count: count)
            Self.store(machine.output, into: out + x0, count: count)
            x0 += count
        }
    }

    /// `values[x0..<x0 + n]`, the last column repeated past the row's end.
    @inline(__always)
    static func copyColumns(_ values: UnsafePointer<Float>, x0: Int, n: Int, width: Int, into p: UnsafeMutablePointer<Float>) {
        let inside = min(n, width - x0)
        p.update(from: values + x0, count: inside)
        if inside < n { (p + inside).update(repeating: values[width - 1], count: n - inside) }
    }

    /// `ret` as opaque RGBA8 pixels.
    @inline(__always)
    static func store(_ ret: (r: UnsafeMutablePointer<Float>, g: UnsafeMutablePointer<Float>, b: UnsafeMutablePointer<Float>),
                      into out: UnsafeMutablePointer<UInt32>, count: Int) {
        for k in 0..<count {
            out[k] = byte(ret.r[k]) | byte(ret.g[k]) << 8 | byte(ret.b[k]) << 16 | 0xFF00_0000
        }
    }

    /// NaN → 0, clamped to 0…1, × 255 rounded to nearest (ties to even), from the low bits of the
    /// sum with 1.5 · 2²³.
    @inline(__always) static func byte(_ x: Float) -> UInt32 {
        let c: Float = x > 0 ? (x < 1 ? x : 1) : 0
        return (c * 255 + LaneMath.roundingMagic).bitPattern & 0xFF
    }
}

/// The column tables of a strip, as pointers.
struct ShaderPassColumns {
    let cell: UnsafePointer<Int32>, offset: UnsafePointer<Float>, u: UnsafePointer<Float>
}

/// The input registers a program reads (nil: not read).
struct ShaderPassInputs {
    var uvX, uvY, uvOrigX, uvOrigY, rad, ang, hueR, hueG, hueB: UnsafeMutablePointer<Float>?
    init(_ m: ShaderMachine) {
        uvX = m.inputRegister(.uvX); uvY = m.inputRegister(.uvY)
        uvOrigX = m.inputRegister(.uvOrigX); uvOrigY = m.inputRegister(.uvOrigY)
        rad = m.inputRegister(.rad); ang = m.inputRegister(.ang)
        hueR = m.inputRegister(.hueR); hueG = m.inputRegister(.hueG); hueB = m.inputRegister(.hueB)
    }
}
