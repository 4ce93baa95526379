import MarbleCore

/// Particles: sparks thrown out by the music, from the centre or in fountains along the bottom edge.
///
/// Audio: the bands, in eight groups from low to high, emit continuously in proportion to their level
/// (`rate` per second at full level); a beat throws a burst of `burst` sparks (more with a
/// stronger `beatPulse`), an onset a third of that, and every spark flares with the beat pulse (up
/// to 1.8 × brighter, its core whiter); bursts are gated by the level, so silence emits nothing. Each spark takes its group's colour (`low_color` → `mid_color` → `high_color`), a speed and size that
/// grow with its group's level, then flies under `gravity` and `drag`, shrinking and fading over
/// `life` seconds. Sprites are soft discs (a smooth falloff, antialiased at any size) with a white-hot
/// core (`hot`); draw the layer
/// with `blend: add` for glowing, additive light. `emitter: bottom` places low bands at the left and
/// high ones at the right, thrown upwards like a spectrum of fountains.
///
/// State: a pool of `count` sparks allocated in `init`, simulated only in `prepare` with one step of
/// 1/fps; randomness comes from a generator seeded by the frame index and `seed`, so a render that
/// starts at frame N after preparing frames 0..<N draws exactly what a render from the start draws.
/// Preparing the frame just prepared again redoes its step from the state before it (a frame drawn
/// twice looks the same); an earlier frame index empties the pool (a new render from its start).
/// `render` visits only the sparks whose box meets its rows.
package final class Particles: Shader, BlendedRowDrawing, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads the pool.
    package static let descriptor = ShaderDescriptor(
        name: "particles", summary: "Sparks emitted by the bands, bursting on beats and onsets.", kind: .generator,
        drawsOnCanvas: true,
        parameters: [
            ParameterDescriptor("count", "Most sparks alive at once.", .integer(default: 3000, range: 64...8192)),
            ParameterDescriptor("emitter", "center (all directions) or bottom (fountains, low bands left).",
                                .choice(default: "center", options: ["center", "bottom"])),
            ParameterDescriptor("rate", "Sparks per second from the bands at full level.", .number(default: 600, range: 0...3000)),
            ParameterDescriptor("burst", "Sparks thrown on a beat.", .number(default: 260, range: 0...600)),
            ParameterDescriptor("radius", "For center: where sparks start, distance from the centre as a fraction of the height (a ring around a cover).",
                                .number(default: 0.02, range: 0...0.5)),
            ParameterDescriptor("center_x", "For center: the emitter's centre, fraction of the width.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("center_y", "For center: the emitter's centre, fraction of the height.", .number(default: 0.5, range: 0...1)),
            ParameterDescriptor("speed", "Launch speed, frame heights per second.", .number(default: 0.35, range: 0...3)),
            ParameterDescriptor("gravity", "Downward pull, frame heights per second²; negative rises.", .number(default: 0.12, range: -2...2)),
            ParameterDescriptor("drag", "Speed lost per second (a fraction, exponential).", .number(default: 0.6, range: 0...6)),
            ParameterDescriptor("life", "Seconds a spark lives.", .number(default: 2.2, range: 0.2...8)),
            ParameterDescriptor("size", "Spark radius in pixels at 1080p (scales with the height).", .number(default: 11, range: 1...40)),
            ParameterDescriptor("low_color", "Colour of sparks from the lowest bands.", .color(default: Color(parsing: "#ff6a2b")!)),
            ParameterDescriptor("mid_color", "Colour of sparks from the middle bands.", .color(default: Color(parsing: "#ff2ebd")!)),
            ParameterDescriptor("high_color", "Colour of sparks from the highest bands.", .color(default: Color(parsing: "#36c8ff")!)),
            ParameterDescriptor("hot", "How white-hot each spark's core is.", .number(default: 0.6, range: 0...1)),
            ParameterDescriptor("seed", "Varies the random pattern.", .integer(default: 1, range: 0...9999)),
        ])

    private static let groups = 8
    private let capacity: Int
    private let fromBottom: Bool
    // The pool (structure of arrays in one block: x, y, vx, vy, age, radius, tint), sparks 0..<alive
    // are live; `saved` holds the pool as it was before the last frame's step.
    private static let fields = 7
    private let state: UnsafeMutablePointer<Float>, saved: UnsafeMutablePointer<Float>
    private var savedAlive = 0
    private let savedCarry = allocateFilled(Particles.groups, Float(0.5))
    private let x: UnsafeMutablePointer<Float>, y: UnsafeMutablePointer<Float>
    private let vx: UnsafeMutablePointer<Float>, vy: UnsafeMutablePointer<Float>
    private let age: UnsafeMutablePointer<Float>, radius: UnsafeMutablePointer<Float>
    private let tint: UnsafeMutablePointer<Float>   // 0 low … 1 high
    private var alive = 0
    private let carry = allocateFilled(Particles.groups, Float(0.5))   // fractional sparks owed per group (0.5: rounding)
    private var lastFrame = Int.min
    private let energy = allocateFilled(Particles.groups, Float(0))
    // Per frame, for `render`.
    private let colour: UnsafeMutablePointer<UInt32>, reach: UnsafeMutablePointer<Float>
    private let hotColour: UnsafeMutablePointer<UInt32>
    private var lowColour = PremultipliedColor(.black), midColour = PremultipliedColor(.black)
    private var highColour = PremultipliedColor(.black), hot: Float = 0
    private var life: Float = 1, emitterRadius: Float = 0, emitterX: Float = 0.5, emitterY: Float = 0.5
    private var covered = 0..<0
    private var mode = BlendMode.normal, opacity: UInt32 = 255

    package init(parameters: ShaderParameters) throws {
        capacity = parameters.integer("count")
        fromBottom = parameters.choice("emitter") == "bottom"
        state = allocateFilled(Self.fields * capacity, 0); saved = allocateFilled(Self.fields * capacity, 0)
        x = state; y = state + capacity; vx = state + 2 * capacity; vy = state + 3 * capacity
        age = state + 4 * capacity; radius = state + 5 * capacity; tint = state + 6 * capacity
        colour = allocateFilled(capacity, 0); hotColour = allocateFilled(capacity, 0); reach = allocateFilled(capacity, 0)
    }

    deinit {
        for p in [state, saved, savedCarry, carry, energy, reach] { p.deallocate() }
        colour.deallocate(); hotColour.deallocate()
    }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        read(uniforms, parameters)
        let h = Float(uniforms.height)
        let dt = Float(min(0.1, max(1e-4, 1 / uniforms.fps.doubleValue)))
        var random = SplitMix64(uniforms.frameIndex, parameters.integer("seed"))
        keepState(before: uniforms.frameIndex)
        moveAndAge(dt: dt, gravity: parameters.number("gravity") * h, keep: fastExp(-parameters.number("drag") * dt))
        emitSparks(uniforms, parameters, &random, dt: dt)
        measure(height: uniforms.height, flash: 1 + 0.8 * clamp01(uniforms.features.beatPulse))
    }

    /// The frame's settings: blend, opacity, lifetime, emitter, colours.
    private func read(_ uniforms: FrameUniforms, _ parameters: ShaderParameters) {
        mode = uniforms.blend
        opacity = byte(uniforms.opacity)
        life = parameters.number("life")
        emitterRadius = parameters.number("radius")
        emitterX = parameters.number("center_x"); emitterY = parameters.number("center_y")
        lowColour = PremultipliedColor(parameters.color("low_color"))
        midColour = PremultipliedColor(parameters.color("mid_color"))
        highColour = PremultipliedColor(parameters.color("high_color"))
        hot = min(1, 0.8 * parameters.number("hot") + 0.5 * clamp01(uniforms.features.beatPulse))
    }

    /// The frame just prepared, again (drawn twice): its step is redone from the state before it.
    /// An earlier frame starts over (a new render from its first frame). Then keeps the state before
    /// this step.
    private func keepState(before frameIndex: Int) {
        if frameIndex == lastFrame {
            copyPool(from: saved, to: state, count: savedAlive)
            alive = savedAlive
            carry.update(from: savedCarry, count: Self.groups)
        } else if frameIndex < lastFrame {
            alive = 0
            carry.update(repeating: 0.5, count: Self.groups)
        }
        copyPool(from: state, to: saved, count: alive)
        savedAlive = alive
        savedCarry.update(from: carry, count: Self.groups)
        lastFrame = frameIndex
    }

    /// Moves and ages the sparks, and drops the dead (the last live spark takes a dead one's place:
    /// deterministic).
    private func moveAndAge(dt: Float, gravity: Float, keep: Float) {
        var i = 0
        while i < alive {
            age[i] += dt
            if age[i] >= life { move(from: alive - 1, to: i); alive -= 1; continue }
            vx[i] *= keep; vy[i] = vy[i] * keep + gravity * dt
            x[i] += vx[i] * dt; y[i] += vy[i] * dt
            i += 1
        }
    }

    /// Emits: each band group continuously, then the beat's and the onset's bursts.
    private func emitSparks(_ uniforms: FrameUniforms, _ parameters: ShaderParameters, _ random: inout SplitMix64, dt: Float) {
        let w = Float(uniforms.width), h = Float(uniforms.height)
        let f = uniforms.features
        let total = measureEnergy(f.bands)
        let speed = parameters.number("speed") * h, size = max(0.5, parameters.number("size") * h / 1080)
        let rate = parameters.number("rate") / Float(Self.groups)
        for g in 0..<Self.groups {
            carry[g] += rate * energy[g] * dt
            while carry[g] >= 1 {
                carry[g] -= 1
                emit(group: g, &random, w: w, h: h, speed: speed, size: size, boost: 1, dt: dt)
            }
        }
        let gate = clamp01(total * 4)
        var burst: Float = 0
        if f.isBeat { burst += parameters.number("burst") * (0.5 + 0.5 * clamp01(f.beatPulse)) }
        if f.isOnset { burst += parameters.number("burst") / 3 * clamp01(max(f.onset, 0.3)) }
        for _ in 0..<Int(burst * gate) {
            // A burst's sparks come from the groups in proportion to their level.
            var pick = random.unit() * total * Float(Self.groups), g = 0
            while g < Self.groups - 1 && pick > energy[g] { pick -= energy[g]; g += 1 }
            emit(group: g, &random, w: w, h: h, speed: speed, size: size, boost: 2, dt: dt)
        }
    }

    /// Each band group's level into `energy`; returns their mean.
    private func measureEnergy(_ bands: [Float]) -> Float {
        var total: Float = 0
        for g in 0..<Self.groups {
            let lo = bands.count * g / Self.groups, hi = max(lo + 1, bands.count * (g + 1) / Self.groups)
            var sum: Float = 0
            for b in lo..<min(hi, bands.count) { sum += bands[b].isFinite ? clamp01(bands[b]) : 0 }
            energy[g] = bands.isEmpty ? 0 : sum / Float(hi - lo)
            total += energy[g] / Float(Self.groups)
        }
        return total
    }

    /// What `render` needs: each spark's colour at its age (times `flash`, the beat's brightening),
    /// its reach, and the rows they cover.
    private func measure(height: Int, flash: Float) {
        let h = Float(height)
        var top = Float.infinity, bottom = -Float.infinity
        for k in 0..<alive {
            let fade = 1 - age[k] / life
            let r = max(1, radius[k] * (0.45 + 0.55 * fade))
            // Sparks smaller than a pixel keep their light: drawn one pixel wide, dimmer.
            let light = min(1, fade * fade * min(1, radius[k] * radius[k]) * flash)
            let t = tint[k]
            let hue = t < 0.5 ? lowColour.mixed(with: midColour, 2 * t) : midColour.mixed(with: highColour, 2 * t - 1)
            colour[k] = hue.scaled(light).packed
            hotColour[k] = PremultipliedColor(r: light, g: light, b: light, a: light).packed
            reach[k] = r
            top = min(top, y[k] - r); bottom = max(bottom, y[k] + r)
        }
        guard alive > 0 else { covered = 0..<0; return }
        let first = max(0, Int(clamp(top, -1, h + 1).rounded(.down)))
        let end = min(height, Int(clamp(bottom, -1, h + 1).rounded(.up)) + 1)
        covered = first < end ? first..<end : 0..<0
    }

    /// The first `count` sparks of every field of one pool block into another.
    private func copyPool(from source: UnsafeMutablePointer<Float>, to target: UnsafeMutablePointer<Float>, count: Int) {
        for f in 0..<Self.fields { (target + f * capacity).update(from: source + f * capacity, count: count) }
    }

    private func move(from a: Int, to b: Int) {
        x[b] = x[a]; y[b] = y[a]; vx[b] = vx[a]; vy[b] = vy[a]; age[b] = age[a]; radius[b] = radius[a]; tint[b] = tint[a]
    }

    /// A new spark of band group `g`, born at a random moment of this frame's step (so a stream of
    /// sparks leaves the emitter evenly, not in clumps of one frame).
    private func emit(group g: Int, _ random: inout SplitMix64, w: Float, h: Float, speed: Float, size: Float, boost: Float, dt: Float) {
        guard alive < capacity else { return }
        let k = alive
        alive += 1
        let e = energy[g]
        tint[k] = (Float(g) + random.unit()) / Float(Self.groups)
        let v = speed * boost * (0.35 + 0.9 * e) * (0.6 + 0.8 * random.unit())
        if fromBottom {
            x[k] = tint[k] * w; y[k] = h + 2
            let lean = (random.unit() - 0.5) * 0.5
            vx[k] = v * lean; vy[k] = -v * 1.6
        } else {
            let angle = random.unit() * 6.283_185
            let start = emitterRadius * h * (0.9 + 0.2 * random.unit())
            x[k] = emitterX * w + fastCos(angle) * start; y[k] = emitterY * h + fastSin(angle) * start
            vx[k] = v * fastCos(angle); vy[k] = v * fastSin(angle)
        }
        let head = random.unit() * dt
        x[k] += vx[k] * head; y[k] += vy[k] * head
        age[k] = head
        radius[k] = size * (0.5 + 0.9 * e) * (0.7 + 0.6 * random.unit())
    }

    package func coveredRows(height: Int) -> Range<Int> { covered.clamped(to: 0..<height) }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        drawRows(blending: mode, target, rows)
    }

    /// Every spark whose box meets `rows`, in pool order (so any split of rows gives the same bytes):
    /// a soft disc, weight (1 − d²/r²)² of its colour.
    @inline(__always)
    func drawRows<B: BlendFunction>(_: B.Type, _ target: TextureView, _ rows: Range<Int>) {
        let band = rows.clamped(to: covered)
        guard !band.isEmpty else { return }
        let lowRow = Float(band.lowerBound), highRow = Float(band.upperBound), width = target.width
        for k in 0..<alive {
            let r = reach[k], cy = y[k], cx = x[k]
            guard cy + r > lowRow, cy - r < highRow, cx + r > 0, cx - r < Float(width) else { continue }
            let pixel = Blend.scaled(colour[k], opacity: opacity), white = Blend.scaled(hotColour[k], opacity: opacity)
            guard pixel != 0 else { continue }
            let core = hot
            let inverse = 1 / (r * r)
            let y0 = max(band.lowerBound, Int(cy - r)), y1 = min(band.upperBound, Int(cy + r) + 1)
            let x0 = max(0, Int(cx - r)), x1 = min(width, Int(cx + r) + 1)
            guard y0 < y1, x0 < x1 else { continue }
            for py in y0..<y1 {
                let row = target.row32(py)
                let dy = Float(py) + 0.5 - cy
                for px in x0..<x1 {
                    let dx = Float(px) + 0.5 - cx
                    let q = 1 - (dx * dx + dy * dy) * inverse
                    guard q > 0 else { continue }
                    let q2 = q * q
                    let lit = lerpPixel(pixel, white, weight256(core * q2 * q2))
                    row[px] = B.blend(scalePixel(lit, weight256(q2)), onto: row[px])
                }
            }
        }
    }
}

extension SplitMix64 {
    /// Seeded per frame, so that a frame's random choices depend only on its index and the layer's seed.
    init(_ frame: Int, _ seed: Int) {
        self.init(seed: UInt64(bitPattern: Int64(frame)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(seed) &* 0xD1B5_4A32_D192_ED03)
    }
}

extension PremultipliedColor {
    /// Every channel times `k`.
    fileprivate func scaled(_ k: Float) -> PremultipliedColor { PremultipliedColor(r: r * k, g: g * k, b: b * k, a: a * k) }
}
