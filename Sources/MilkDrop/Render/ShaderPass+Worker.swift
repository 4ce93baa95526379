/// What one worker thread of a ``ShaderPass`` owns: its machine, and for the warp the mesh values
/// of the row being drawn, per cell (start and step per pixel), allocated when the mesh size changes.
final class ShaderPassWorker {
    let machine: ShaderMachine
    let inputs: ShaderPassInputs
    private(set) var meshColumns = 0
    /// Per mesh cell of the current row: u, v, rad, ang at the cell's left edge and their steps per
    /// pixel (8 × columns), then the values along the row at each column of vertices (4 × (columns + 1)).
    private var cells: UnsafeMutablePointer<Float>
    private var line: UnsafeMutablePointer<Float>

    init(machine: ShaderMachine, meshColumns: Int) {
        self.machine = machine
        inputs = ShaderPassInputs(machine)
        cells = .allocate(capacity: 1)
        line = .allocate(capacity: 1)
        resize(meshColumns: meshColumns)
    }

    deinit {
        cells.deallocate()
        line.deallocate()
    }

    func resize(meshColumns columns: Int) {
        cells.deallocate(); line.deallocate()
        meshColumns = columns
        cells = .allocate(capacity: max(1, 8 * columns))
        cells.initialize(repeating: 0, count: max(1, 8 * columns))
        line = .allocate(capacity: 4 * (columns + 1))
        line.initialize(repeating: 0, count: 4 * (columns + 1))
    }

    /// The mesh values along row `y` (the rows of vertices above and below it, mixed as WarpPass mixes
    /// them), then per cell a start and a step per pixel.
    func prepareWarpRow(_ y: Int, height: Int, width: Int, mesh: WarpMesh) {
        let rows = mesh.rows, columns = mesh.columns
        let down = (Float(y) + 0.5) / Float(height) * Float(rows)
        let j = min(rows - 1, max(0, Int(down)))
        let t = down - Float(j)
        let upper = j * (columns + 1), lower = upper + columns + 1
        let cellWidth = Float(width) / Float(columns)
        let stride = columns + 1
        func mix(_ values: [Float], into slot: Int) {
            values.withUnsafeBufferPointer { a in
                let l = line + slot * stride
                for i in 0...columns { l[i] = a[upper + i] + (a[lower + i] - a[upper + i]) * t }
            }
        }
        if inputs.uvX != nil || inputs.uvY != nil { mix(mesh.u, into: 0); mix(mesh.v, into: 1) }
        if inputs.rad != nil { mix(mesh.radius, into: 2) }
        if inputs.ang != nil {
            // MilkDrop's seam: the angle jumps from π to −π across the centre row left of the centre;
            // cells above that row see its vertices at +π, cells below at −π (the mesh holds −π).
            let seam = rows - rows / 2
            mesh.angle.withUnsafeBufferPointer { a in
                let l = line + 3 * stride
                for i in 0...columns {
                    var top = a[upper + i], bottom = a[lower + i]
                    if i < columns / 2 {
                        if j == seam { top = -Float.pi }
                        if j + 1 == seam { bottom = Float.pi }
                    }
                    l[i] = top + (bottom - top) * t
                }
            }
        }
        for slot in 0..<4 {
            let l = line + slot * stride, start = cells + 2 * slot * columns, step = start + columns
            for c in 0..<columns {
                start[c] = l[c]
                step[c] = (l[c + 1] - l[c]) / cellWidth
            }
        }
    }

    /// The warp's mesh inputs for lanes `0..<n` from pixel `x0` (past the row's end: its last pixel).
    func fillWarp(x0: Int, n: Int, width: Int, columns: ShaderPassColumns) {
        let count = meshColumns
        func fill(_ target: UnsafeMutablePointer<Float>?, slot: Int) {
            guard let target else { return }
            let start = cells + 2 * slot * count, step = start + count
            for k in 0..<n {
                let x = min(x0 &+ k, width &- 1)
                let c = Int(columns.cell[x])
                target[k] = start[c] + step[c] * columns.offset[x]
            }
        }
        fill(inputs.uvX, slot: 0); fill(inputs.uvY, slot: 1)
        fill(inputs.rad, slot: 2); fill(inputs.ang, slot: 3)
    }

    /// The composite's rad, ang and hue_shader for lanes `0..<n` from pixel `x0` of the row at `v`.
    func fillComposite(x0: Int, n: Int, v: Float, width: Int, height: Int, columns: ShaderPassColumns, hue: [Float]) {
        let inputs = self.inputs
        if inputs.rad != nil || inputs.ang != nil {
            let aspectX: Float = height > width ? Float(width) / Float(height) : 1
            let aspectY: Float = width > height ? Float(height) / Float(width) : 1
            let py = (v * 2 - 1) * aspectY
            let diagonal = (aspectX * aspectX + aspectY * aspectY).squareRoot()
            let rad = inputs.rad ?? machine.scratch, ang = inputs.ang ?? machine.scratch
            for k in 0..<n {
                let px = (columns.u[min(x0 &+ k, width &- 1)] * 2 - 1) * aspectX
                rad[k] = (px * px + py * py).squareRoot() / diagonal
                let a = LaneMath.atan2(py, px)
                ang[k] = a < 0 ? a + 6.283_185_3 : a
            }
        }
        func fillHue(_ target: UnsafeMutablePointer<Float>?, channel: Int) {
            guard let target else { return }
            let tl = hue[channel], tr = hue[3 + channel], bl = hue[6 + channel], br = hue[9 + channel]
            let left = tl + (bl - tl) * v, right = tr + (br - tr) * v
            for k in 0..<n {
                let u = columns.u[min(x0 &+ k, width &- 1)]
                target[k] = left + (right - left) * u
            }
        }
        fillHue(inputs.hueR, channel: 0); fillHue(inputs.hueG, channel: 1); fillHue(inputs.hueB, channel: 2)
    }
}
