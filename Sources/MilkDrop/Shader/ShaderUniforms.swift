import Glibc
import MarbleCore

/// What a frame hands the shaders, as plain values (the renderer fills it from the preset's
/// variables after its per-frame code ran).
package struct ShaderFrameInput: Sendable, Equatable {
    /// Seconds since the preset started, frames per second, the frame number, and the preset's
    /// progress towards the next one (0…1).
    package var time: Float = 0, fps: Float = 30, frame: Int = 0, progress: Float = 0
    package var bass: Float = 1, mid: Float = 1, treb: Float = 1, vol: Float = 1
    package var bassAtt: Float = 1, midAtt: Float = 1, trebAtt: Float = 1, volAtt: Float = 1
    /// `q1`…`q32` after the per-frame code.
    package var q = SIMD32<Float>(repeating: 0)
    /// The feedback buffer's size in pixels.
    package var width = 1, height = 1
    /// `aspect.xy`, the multipliers that make a picture pasted over the screen keep its proportions;
    /// nil: MilkDrop's, from ``width`` and ``height`` (1 along the longer side, shorter / longer along
    /// the other).
    package var aspect: SIMD2<Float>?
    /// `blur1_min`…`blur3_min` and `blur1_max`…`blur3_max` as the per-frame code left them.
    package var blurMin = SIMD3<Float>(0, 0, 0), blurMax = SIMD3<Float>(1, 1, 1)

    package init() {}
}

/// The uniform block every compiled shader reads (``ShaderUniformLoad/offset`` indexes it): a fixed
/// layout of floats, filled once per frame without allocating.
///
/// Layout: `_c0`…`_c13` (14 float4, offsets 0…55), `_qa`…`_qh` (q1…q32, 56…87), `rand_frame` (88…91),
/// `rand_preset` (92…95), then the 24 `float4x3` rotations `rot_s1`…`rot_rand4` (12 floats each,
/// row-major, from 96). The values are MilkDrop's (`CPlugin::ApplyShaderValues` and
/// `CState::RandomizePresetVars`): the roam vectors are 0.5 + 0.5·cos/sin of time at fixed rates and
/// phases; a rotation is `Rx · T · Rz · Ry` in Direct3D's row-vector convention, with random base
/// angles, translations in ±1 and speeds growing with the matrix's index (the static `rot_s` barely
/// turn, the ultra-fast `rot_uf` turn about 2 radians a second); `rot_rand` and `rand_frame` are new
/// every frame. `vol` is the frame's own (MilkDrop's source puts a third of `treb` there through a
/// stray comma operator). Where MilkDrop draws from `rand()`, this draws from ``SplitMix64``: the preset's values
/// from `seed`, the frame's from `seed` and the frame number, so a frame always comes out the same.
package struct ShaderUniforms: Sendable {
    package static let constantsOffset = 0
    package static let qOffset = 56
    package static let randFrameOffset = 88
    package static let randPresetOffset = 92
    package static let rotationsOffset = 96
    /// Floats in the block.
    package static let count = rotationsOffset + 24 * 12
    /// The rotations in block order.
    package static let rotationNames: [String] = ["s", "d", "f", "vf", "uf", "rand"].flatMap { group in
        (1...4).map { "rot_\(group)\($0)" }
    }

    /// The block (``count`` floats), rewritten in place by ``update(_:)``. Read it in place
    /// (`withUnsafeBufferPointer`): a copy kept across an update would make the update copy the block.
    package private(set) var values: [Float]
    private let seed: UInt64
    /// The preset's 20 time-driven rotations: base angles, speeds (radians a second) and translations.
    private var bases: [SIMD3<Float>], speeds: [SIMD3<Float>], shifts: [SIMD3<Float>]

    /// A block for a preset whose random values come from `seed`.
    package init(seed: UInt64) {
        self.seed = seed
        values = [Float](repeating: 0, count: Self.count)
        var random = SplitMix64(seed: seed)
        for i in 0..<4 { values[Self.randPresetOffset + i] = random.unit() }
        bases = []; speeds = []; shifts = []
        for k in 0..<20 {
            let turn = 0.9 * powf(Float(k) / 8, 3.2)
            shifts.append(SIMD3(random.unit() * 2 - 1, random.unit() * 2 - 1, random.unit() * 2 - 1))
            bases.append(SIMD3(random.unit() * 6.28, random.unit() * 6.28, random.unit() * 6.28))
            speeds.append(SIMD3(random.unit() * 2 - 1, random.unit() * 2 - 1, random.unit() * 2 - 1) * turn)
        }
    }

    /// Fills the block for one frame (allocates nothing).
    package mutating func update(_ frame: ShaderFrameInput) {
        let (bases, speeds, shifts, seed) = (self.bases, self.speeds, self.shifts, self.seed)
        values.withUnsafeMutableBufferPointer { block in
            let b = block.baseAddress!
            func set(_ offset: Int, _ x: Float, _ y: Float, _ z: Float, _ w: Float) {
                b[offset] = x; b[offset + 1] = y; b[offset + 2] = z; b[offset + 3] = w
            }
            let width = Float(max(1, frame.width)), height = Float(max(1, frame.height))
            let aspectX: Float = frame.aspect?.x ?? (width > height ? 1 : width / height)
            let aspectY: Float = frame.aspect?.y ?? (width > height ? height / width : 1)
            set(0, aspectX, aspectY, 1 / aspectX, 1 / aspectY)
            set(4, 0, 0, 0, 0)
            set(8, frame.time, frame.fps, Float(frame.frame), frame.progress)
            set(12, frame.bass, frame.mid, frame.treb, frame.vol)
            set(16, frame.bassAtt, frame.midAtt, frame.trebAtt, frame.volAtt)
            // The ranges the blur pyramid encodes with (MilkDrop's `GetSafeBlurMinMax`, slip included),
            // so that GetBlurN decodes what was stored.
            let range = BlurRange(min: frame.blurMin, max: frame.blurMax)
            let low = range.min, high = range.max
            set(20, high.x - low.x, low.x, high.y - low.y, low.y)
            set(24, high.z - low.z, low.z, low.x, high.x)
            set(28, width, height, 1 / width, 1 / height)
            let t = frame.time
            let fast = SIMD4<Float>(0.329, 1.293, 5.070, 20.051), fastPhase = SIMD4<Float>(1.2, 3.9, 2.5, 5.4)
            let slow = SIMD4<Float>(0.0050, 0.0085, 0.0133, 0.0217), slowPhase = SIMD4<Float>(2.7, 5.3, 4.5, 3.8)
            for i in 0..<4 {
                b[32 + i] = 0.5 + 0.5 * cosf(t * fast[i] + fastPhase[i])
                b[36 + i] = 0.5 + 0.5 * sinf(t * fast[i] + fastPhase[i])
                b[40 + i] = 0.5 + 0.5 * cosf(t * slow[i] + slowPhase[i])
                b[44 + i] = 0.5 + 0.5 * sinf(t * slow[i] + slowPhase[i])
            }
            // MilkDrop takes both mip levels from the width.
            let mip = log2f(width)
            set(48, mip, mip, mip, 0)
            set(52, low.y, high.y, low.z, high.z)
            for i in 0..<32 { b[Self.qOffset + i] = frame.q[i] }
            var random = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: frame.frame) &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019))
            for i in 0..<4 { b[Self.randFrameOffset + i] = random.unit() }
            for k in 0..<20 {
                Self.rotation(angles: bases[k] + speeds[k] * t, shift: shifts[k], into: b + Self.rotationsOffset + 12 * k)
            }
            for k in 20..<24 {
                let angles = SIMD3(random.unit(), random.unit(), random.unit()) * 6.28
                let shift = SIMD3(random.unit(), random.unit(), random.unit())
                Self.rotation(angles: angles, shift: shift, into: b + Self.rotationsOffset + 12 * k)
            }
        }
    }

    /// `Rx(a.x) · T(shift) · Rz(a.z) · Ry(a.y)` (row vectors, Direct3D's order), its first three
    /// columns written row by row (a `float4x3`).
    private static func rotation(angles: SIMD3<Float>, shift: SIMD3<Float>, into out: UnsafeMutablePointer<Float>) {
        let (cx, sx) = (cosf(angles.x), sinf(angles.x))
        let (cy, sy) = (cosf(angles.y), sinf(angles.y))
        let (cz, sz) = (cosf(angles.z), sinf(angles.z))
        // The rows of Rx · T (Rx's rotation, T's translation row), each multiplied by Rz, then Ry.
        func row(_ x: Float, _ y: Float, _ z: Float) -> SIMD3<Float> {
            let r = SIMD3<Float>(x * cz - y * sz, x * sz + y * cz, z)
            return SIMD3<Float>(r.x * cy + r.z * sy, r.y, -r.x * sy + r.z * cy)
        }
        let rows = (row(1, 0, 0), row(0, cx, sx), row(0, -sx, cx), row(shift.x, shift.y, shift.z))
        out[0] = rows.0.x; out[1] = rows.0.y; out[2] = rows.0.z
        out[3] = rows.1.x; out[4] = rows.1.y; out[5] = rows.1.z
        out[6] = rows.2.x; out[7] = rows.2.y; out[8] = rows.2.z
        out[9] = rows.3.x; out[10] = rows.3.y; out[11] = rows.3.z
    }
}
