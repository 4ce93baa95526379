#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One of a preset's four custom shapes: `num_inst` regular polygons a frame, each placed and coloured by
/// the shape's per-frame code run once per instance (variable `instance` = 0, 1, …).
///
/// Semantics as projectM 4 `MilkdropPreset/CustomShape.cpp` and `ShapePerFrameContext.cpp`: before each
/// instance the variables get the file's values again (`x`, `y`, `rad`, `ang`, `sides`, colours …), the
/// frame's `time`…`q32`, and `t1`…`t8` as the init code left them; other variables keep their values
/// from instance to instance and frame to frame. The polygon (3…100 `sides`) is centred at (`x`, `y`)
/// (preset space, y up), vertex i at angle `2π·i/sides + ang + π/4`, `rad` clip units from the centre
/// (the horizontal radius times aspectY, so it is round in pixels); filled with a fan from `r g b a`
/// at the centre to `r2 g2 b2 a2` at the edge (colour channels wrap like MilkDrop's bytes), textured
/// with the previous frame when `textured` (texture point = 0.5 + rotation by `tex_ang` of the vertex
/// direction / `tex_zoom`: with `rad = 1/tex_zoom` and `tex_ang = ang` the shape shows the frame under
/// it unchanged), then outlined with `border_r g b a` when `border_a > 0` (two pixels wide with
/// `thick`), additively with `additive`.
package final class CustomShape {
    /// The shape's file values (`shapecode_N_…`), each the starting value of the variable of that name.
    package struct Settings: Sendable, Equatable {
        /// `enabled`.
        package var enabled = false
        /// `sides` (3…100).
        package var sides: Double = 4
        /// `additive`.
        package var additive = false
        /// `thickOutline` (variable `thick`).
        package var thickOutline = false
        /// `textured`.
        package var textured = false
        /// `num_inst` (1…``MilkDropLimits/shapeInstances``).
        package var instances: Double = 1
        /// `x`, `y`: centre, preset space.
        package var x: Double = 0.5, y: Double = 0.5
        /// `rad`: radius in clip units; `ang`: rotation in radians.
        package var radius: Double = 0.1, angle: Double = 0
        /// `tex_ang`, `tex_zoom`: texture rotation and zoom.
        package var textureAngle: Double = 0, textureZoom: Double = 1
        /// `r`, `g`, `b`, `a`: centre colour; `r2`, `g2`, `b2`, `a2`: edge colour.
        package var color = SIMD4<Double>(1, 0, 0, 1), edgeColor = SIMD4<Double>(0, 1, 0, 0)
        /// `border_r`, `border_g`, `border_b`, `border_a`.
        package var borderColor = SIMD4<Double>(1, 1, 1, 0.1)

        package init() {}

        /// The settings of `shapecode_N_*` values (keys lower-cased), defaults for missing keys.
        package init(values: [String: Double]) {
            func v(_ k: String, _ d: Double) -> Double { values[k] ?? d }
            enabled = v("enabled", 0) != 0; sides = v("sides", 4); additive = v("additive", 0) != 0
            thickOutline = v("thickoutline", 0) != 0; textured = v("textured", 0) != 0
            instances = v("num_inst", 1); x = v("x", 0.5); y = v("y", 0.5); radius = v("rad", 0.1); angle = v("ang", 0)
            textureAngle = v("tex_ang", 0); textureZoom = v("tex_zoom", 1)
            color = SIMD4(v("r", 1), v("g", 0), v("b", 0), v("a", 1))
            edgeColor = SIMD4(v("r2", 0), v("g2", 1), v("b2", 0), v("a2", 0))
            borderColor = SIMD4(v("border_r", 1), v("border_g", 1), v("border_b", 1), v("border_a", 0.1))
        }
    }

    package let settings: Settings
    /// The variables of the shape's code (its own `megabuf`; `gmegabuf` shared with the preset).
    package let memory: ExpressionMemory
    let initCode: ExpressionProgram?, perFrame: ExpressionProgram?
    /// The blocks as reports name them (`shape 0 per_frame` and the file line).
    let initLabel: MilkCodeLabel, perFrameLabel: MilkCodeLabel
    let frameSlots: FrameSlots
    let x: Int, y: Int, rad: Int, ang: Int, texAng: Int, texZoom: Int, sides: Int, textured: Int
    let instance: Int, numInst: Int, additive: Int, thick: Int
    let r: Int, g: Int, b: Int, a: Int, r2: Int, g2: Int, b2: Int, a2: Int
    let borderR: Int, borderG: Int, borderB: Int, borderA: Int
    var tAfterInit = SIMD8<Double>()
    var started = false
    /// Which shape of the preset this is (for error messages).
    package let index: Int

    /// Compiles shape `index` of a preset. `seed` fixes its `rand`.
    package init(code: CustomShapeCode, index: Int = 0, globalBuffer: MegaBuffer, seed: UInt64 = 0) throws(CustomCodeError) {
        self.index = index
        settings = Settings(values: code.values)
        memory = ExpressionMemory(seed: seed, globalBuffer: globalBuffer)
        frameSlots = try FrameSlots(memory)
        let m = memory
        func s(_ name: String) throws(CustomCodeError) -> Int {
            do { return try m.slot(name) } catch { throw CustomCodeError(block: "shape \(index) variables", line: 0, error: error) }
        }
        x = try s("x"); y = try s("y"); rad = try s("rad"); ang = try s("ang"); texAng = try s("tex_ang")
        texZoom = try s("tex_zoom"); sides = try s("sides"); textured = try s("textured"); instance = try s("instance")
        numInst = try s("num_inst"); additive = try s("additive"); thick = try s("thick")
        r = try s("r"); g = try s("g"); b = try s("b"); a = try s("a")
        r2 = try s("r2"); g2 = try s("g2"); b2 = try s("b2"); a2 = try s("a2")
        borderR = try s("border_r"); borderG = try s("border_g"); borderB = try s("border_b"); borderA = try s("border_a")
        initCode = try CustomCodeError.compile(code.initCode, "shape \(index) init", m)
        perFrame = try CustomCodeError.compile(code.perFrame, "shape \(index) per_frame", m)
        initLabel = MilkCodeLabel("shape \(index) init", code.initCode, .initial)
        perFrameLabel = MilkCodeLabel("shape \(index) per_frame", code.perFrame, .shapeInstance)
    }

    /// Makes the next ``build(_:into:)`` run the init code again (a preset restart).
    package func restart() { started = false; memory.resetVariables() }

    private func loadInstance(_ f: MilkFrameValues, _ i: Int) {
        let m = memory, st = settings
        frameSlots.load(f, into: m)
        m[x] = st.x; m[y] = st.y; m[rad] = st.radius; m[ang] = st.angle
        m[texAng] = st.textureAngle; m[texZoom] = st.textureZoom; m[sides] = st.sides
        m[textured] = st.textured ? 1 : 0; m[additive] = st.additive ? 1 : 0
        m[thick] = st.thickOutline ? 1 : 0
        m[numInst] = st.instances; m[instance] = Double(i)
        m[r] = st.color.x; m[g] = st.color.y; m[b] = st.color.z; m[a] = st.color.w
        m[r2] = st.edgeColor.x; m[g2] = st.edgeColor.y; m[b2] = st.edgeColor.z; m[a2] = st.edgeColor.w
        m[borderR] = st.borderColor.x; m[borderG] = st.borderColor.y
        m[borderB] = st.borderColor.z; m[borderA] = st.borderColor.w
    }

    /// Instances drawn a frame: `num_inst`, 1 … ``MilkDropLimits/shapeInstances``.
    var instanceCount: Int {
        settings.instances.isFinite ? Int(min(max(settings.instances, 1), Double(MilkDropLimits.shapeInstances))) : 1
    }

    /// Runs the code for every instance and adds the visible polygons (and outlines) to `list`, with no
    /// work budget.
    package func build(_ f: MilkFrameValues, into list: inout MilkDrawList) {
        var work = MilkWork(budget: .unlimited)
        build(f, into: &list, work: &work)
    }

    /// Runs the code for every instance within `work` and adds the visible polygons to `list` (once the
    /// budget ran out, the instances left are drawn from their settings).
    package func build(_ f: MilkFrameValues, into list: inout MilkDrawList, work: inout MilkWork) {
        guard settings.enabled else { return }
        let m = memory
        if !started {
            started = true
            loadInstance(f, 0)
            if let initCode { _ = work.run(initCode, initLabel) }
            tAfterInit = frameSlots.readT(m)
        }
        for i in 0..<instanceCount {
            loadInstance(f, i)
            frameSlots.loadT(tAfterInit, into: m)
            if let perFrame { _ = work.run(perFrame, perFrameLabel) }
            addPolygon(into: &list)
        }
    }

    private func addPolygon(into list: inout MilkDrawList) {
        let m = memory, space = list.space
        let limits = MilkDropLimits.shapeSides
        let n = m[sides].isFinite ? Int(min(max(m[sides], Double(limits.lowerBound)), Double(limits.upperBound))) : limits.lowerBound
        let radius = Float(m[rad]), angle = Float(m[ang])
        let cx = Float(m[x]) * 2 - 1, cy = Float(m[y]) * 2 - 1
        guard radius.isFinite, angle.isFinite, cx.isFinite, cy.isFinite else { return }
        let centre = milkWrappedColor(m[r], m[g], m[b], m[a])
        let edge = milkWrappedColor(m[r2], m[g2], m[b2], m[a2])
        let blend: MilkBlend = m[additive] != 0 ? .additive : .alpha
        let ax = space.aspectY, ay = space.aspectX
        func vertex(_ i: Int) -> SIMD2<Float> {
            let t = Float(i) / Float(n) * 2 * .pi + angle + .pi / 4
            return space.pixel(clipX: cx + radius * cos(t) * ax, clipY: cy + radius * sin(t) * ay)
        }
        if centre.w > 0 || edge.w > 0 {
            var map: MilkTextureMap?
            if m[textured] != 0 {
                // Texture space (v down) of the centre and two vertices; the map is affine.
                let zoom = Float(m[texZoom]), texAngle = Float(m[texAng])
                func uv(_ i: Int) -> SIMD2<Float> {
                    let t = Float(i) / Float(n) * 2 * .pi + texAngle + .pi / 4
                    return SIMD2(0.5 + 0.5 * cos(t) / zoom * ax, 0.5 - 0.5 * sin(t) / zoom * ay)
                }
                map = MilkTextureMap(space.pixel(clipX: cx, clipY: cy), SIMD2(0.5, 0.5), vertex(0), uv(0), vertex(1), uv(1))
                    ?? MilkTextureMap(ux: 0, uy: 0, u0: 0.5, vx: 0, vy: 0, v0: 0.5)
            }
            list.begin(.fan, blend: blend, texture: map)
            list.append(space.pixel(clipX: cx, clipY: cy), centre)
            for i in 0..<n { list.append(vertex(i), edge) }
            list.end()
        }
        let border = milkWrappedColor(m[borderR], m[borderG], m[borderB], m[borderA])
        if border.w > 0.0001 {
            list.begin(.lineLoop, blend: blend, size: m[thick] != 0 ? 2 : 1)
            for i in 0..<n { list.append(vertex(i), border) }
            list.end()
        }
    }
}
