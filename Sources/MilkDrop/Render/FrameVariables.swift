/// The per-frame variables a preset's equations read and write, where each starts every frame, and
/// the values the renderer reads back after the equations ran.
///
/// Every frame MilkDrop resets these to the preset file's values (or MilkDrop's defaults when the file
/// has none) before the per-frame equations run, so an equation that sets `zoom` must set it each
/// frame; `q1`…`q32` restart from what the init equations left. Defaults are MilkDrop 2's (as
/// projectM's preset state has them).
package enum FrameVariables {
    /// A variable the equations may change: its name, the file key it starts from, and the default.
    package struct Entry: Sendable {
        package let name: String, fileKey: String, defaultValue: Double
    }

    /// The writable per-frame variables, in the order of ``FrameValues``' fields.
    package static let writable: [Entry] = [
        Entry(name: "zoom", fileKey: "zoom", defaultValue: 1),
        Entry(name: "zoomexp", fileKey: "fzoomexponent", defaultValue: 1),
        Entry(name: "rot", fileKey: "rot", defaultValue: 0),
        Entry(name: "warp", fileKey: "warp", defaultValue: 1),
        Entry(name: "cx", fileKey: "cx", defaultValue: 0.5),
        Entry(name: "cy", fileKey: "cy", defaultValue: 0.5),
        Entry(name: "dx", fileKey: "dx", defaultValue: 0),
        Entry(name: "dy", fileKey: "dy", defaultValue: 0),
        Entry(name: "sx", fileKey: "sx", defaultValue: 1),
        Entry(name: "sy", fileKey: "sy", defaultValue: 1),
        Entry(name: "decay", fileKey: "fdecay", defaultValue: 0.98),
        Entry(name: "wave_a", fileKey: "fwavealpha", defaultValue: 0.8),
        Entry(name: "wave_r", fileKey: "wave_r", defaultValue: 1),
        Entry(name: "wave_g", fileKey: "wave_g", defaultValue: 1),
        Entry(name: "wave_b", fileKey: "wave_b", defaultValue: 1),
        Entry(name: "wave_x", fileKey: "wave_x", defaultValue: 0.5),
        Entry(name: "wave_y", fileKey: "wave_y", defaultValue: 0.5),
        Entry(name: "wave_mystery", fileKey: "fwaveparam", defaultValue: 0),
        Entry(name: "wave_mode", fileKey: "nwavemode", defaultValue: 0),
        Entry(name: "wave_usedots", fileKey: "bwavedots", defaultValue: 0),
        Entry(name: "wave_thick", fileKey: "bwavethick", defaultValue: 0),
        Entry(name: "wave_additive", fileKey: "badditivewaves", defaultValue: 0),
        Entry(name: "wave_brighten", fileKey: "bmaximizewavecolor", defaultValue: 1),
        Entry(name: "ob_size", fileKey: "ob_size", defaultValue: 0.01),
        Entry(name: "ob_r", fileKey: "ob_r", defaultValue: 0),
        Entry(name: "ob_g", fileKey: "ob_g", defaultValue: 0),
        Entry(name: "ob_b", fileKey: "ob_b", defaultValue: 0),
        Entry(name: "ob_a", fileKey: "ob_a", defaultValue: 0),
        Entry(name: "ib_size", fileKey: "ib_size", defaultValue: 0.01),
        Entry(name: "ib_r", fileKey: "ib_r", defaultValue: 0.25),
        Entry(name: "ib_g", fileKey: "ib_g", defaultValue: 0.25),
        Entry(name: "ib_b", fileKey: "ib_b", defaultValue: 0.25),
        Entry(name: "ib_a", fileKey: "ib_a", defaultValue: 0),
        Entry(name: "mv_x", fileKey: "nmotionvectorsx", defaultValue: 12),
        Entry(name: "mv_y", fileKey: "nmotionvectorsy", defaultValue: 9),
        Entry(name: "mv_dx", fileKey: "mv_dx", defaultValue: 0),
        Entry(name: "mv_dy", fileKey: "mv_dy", defaultValue: 0),
        Entry(name: "mv_l", fileKey: "mv_l", defaultValue: 0.9),
        Entry(name: "mv_r", fileKey: "mv_r", defaultValue: 1),
        Entry(name: "mv_g", fileKey: "mv_g", defaultValue: 1),
        Entry(name: "mv_b", fileKey: "mv_b", defaultValue: 1),
        Entry(name: "mv_a", fileKey: "mv_a", defaultValue: 0),
        Entry(name: "echo_zoom", fileKey: "fvideoechozoom", defaultValue: 2),
        Entry(name: "echo_alpha", fileKey: "fvideoechoalpha", defaultValue: 0),
        Entry(name: "echo_orient", fileKey: "nvideoechoorientation", defaultValue: 0),
        Entry(name: "darken_center", fileKey: "bdarkencenter", defaultValue: 0),
        Entry(name: "gamma", fileKey: "fgammaadj", defaultValue: 2),
        Entry(name: "wrap", fileKey: "btexwrap", defaultValue: 1),
        Entry(name: "invert", fileKey: "binvert", defaultValue: 0),
        Entry(name: "brighten", fileKey: "bbrighten", defaultValue: 0),
        Entry(name: "darken", fileKey: "bdarken", defaultValue: 0),
        Entry(name: "solarize", fileKey: "bsolarize", defaultValue: 0),
        // MilkDrop 2: the value ranges of the blur levels its shaders read, and the first level's edge darkening.
        Entry(name: "blur1_min", fileKey: "b1n", defaultValue: 0),
        Entry(name: "blur1_max", fileKey: "b1x", defaultValue: 1),
        Entry(name: "blur2_min", fileKey: "b2n", defaultValue: 0),
        Entry(name: "blur2_max", fileKey: "b2x", defaultValue: 1),
        Entry(name: "blur3_min", fileKey: "b3n", defaultValue: 0),
        Entry(name: "blur3_max", fileKey: "b3x", defaultValue: 1),
        Entry(name: "blur1_edge_darken", fileKey: "b1ed", defaultValue: 0.25),
    ]

    /// Read-only inputs of every frame (the renderer sets them; what equations write there is lost).
    package static let inputs = ["time", "fps", "frame", "progress", "bass", "mid", "treb", "bass_att", "mid_att",
                                "treb_att", "meshx", "meshy", "pixelsx", "pixelsy", "aspectx", "aspecty"]

    /// The per-vertex (per-pixel) variables an equation may change, as ``WarpMesh/Motion`` has them.
    package static let vertexMotion = ["zoom", "zoomexp", "rot", "warp", "cx", "cy", "dx", "dy", "sx", "sy"]

    /// The number of q variables (MilkDrop 2: q1…q32).
    package static let qCount = 32

    /// The start value of `entry` for a preset: the file's value (1.x files spell motion vectors on
    /// as `bMotionVectorsOn`), else the default.
    package static func start(_ entry: Entry, in values: [String: Double]) -> Double {
        if let v = values[entry.fileKey], v.isFinite { return v }
        if entry.name == "mv_a", let on = values["bmotionvectorson"] { return on != 0 ? 1 : 0 }
        return entry.defaultValue
    }
}

/// The per-frame variables after the equations ran, as the renderer uses them (finite, as Float).
package struct FrameValues: Sendable {
    package var zoom: Float = 1, zoomExponent: Float = 1, rotation: Float = 0, warp: Float = 1
    package var centerX: Float = 0.5, centerY: Float = 0.5, dx: Float = 0, dy: Float = 0
    package var stretchX: Float = 1, stretchY: Float = 1
    package var decay: Float = 0.98
    package var waveA: Float = 0.8, waveR: Float = 1, waveG: Float = 1, waveB: Float = 1
    package var waveX: Float = 0.5, waveY: Float = 0.5, waveMystery: Float = 0, waveMode: Int = 0
    package var waveDots = false, waveThick = false, waveAdditive = false, waveBrighten = true
    package var outerSize: Float = 0.01, outerR: Float = 0, outerG: Float = 0, outerB: Float = 0, outerA: Float = 0
    package var innerSize: Float = 0.01, innerR: Float = 0.25, innerG: Float = 0.25, innerB: Float = 0.25, innerA: Float = 0
    package var vectorsX: Float = 12, vectorsY: Float = 9, vectorsDX: Float = 0, vectorsDY: Float = 0
    package var vectorsLength: Float = 0.9, vectorsR: Float = 1, vectorsG: Float = 1, vectorsB: Float = 1, vectorsA: Float = 0
    package var echoZoom: Float = 2, echoAlpha: Float = 0, echoOrientation: Int = 0
    package var darkenCenter = false
    package var gamma: Float = 2
    package var wrap = true
    package var invert = false, brighten = false, darken = false, solarize = false
    /// `blur1_min`…`blur3_min`, `blur1_max`…`blur3_max` and `blur1_edge_darken` (MilkDrop 2's shaders).
    package var blurMin = SIMD3<Float>(0, 0, 0), blurMax = SIMD3<Float>(1, 1, 1), blurEdgeDarken: Float = 0.25

    package init() {}

    /// The values from the variables in ``FrameVariables/writable`` order; NaN and infinities become
    /// the defaults, and gamma and the echo zoom are clamped as MilkDrop clamps them.
    package init(_ v: UnsafePointer<Double>) {
        func f(_ i: Int) -> Float {
            let x = v[i]
            return x.isFinite ? Float(max(-1e9, min(1e9, x))) : Float(FrameVariables.writable[i].defaultValue)
        }
        func on(_ i: Int) -> Bool { f(i) != 0 }
        func whole(_ i: Int) -> Int { Int(f(i)) }
        zoom = f(0); zoomExponent = f(1); rotation = f(2); warp = f(3)
        centerX = f(4); centerY = f(5); dx = f(6); dy = f(7); stretchX = f(8); stretchY = f(9)
        decay = max(0, min(1, f(10)))
        waveA = f(11); waveR = f(12); waveG = f(13); waveB = f(14); waveX = f(15); waveY = f(16)
        waveMystery = f(17); waveMode = whole(18)
        waveDots = on(19); waveThick = on(20); waveAdditive = on(21); waveBrighten = on(22)
        outerSize = f(23); outerR = f(24); outerG = f(25); outerB = f(26); outerA = f(27)
        innerSize = f(28); innerR = f(29); innerG = f(30); innerB = f(31); innerA = f(32)
        vectorsX = f(33); vectorsY = f(34); vectorsDX = f(35); vectorsDY = f(36); vectorsLength = f(37)
        vectorsR = f(38); vectorsG = f(39); vectorsB = f(40); vectorsA = f(41)
        echoZoom = max(0.001, min(1000, f(42))); echoAlpha = f(43); echoOrientation = whole(44)
        darkenCenter = on(45)
        gamma = max(0, min(8, f(46)))
        wrap = on(47); invert = on(48); brighten = on(49); darken = on(50); solarize = on(51)
        blurMin = SIMD3(f(52), f(54), f(56)); blurMax = SIMD3(f(53), f(55), f(57)); blurEdgeDarken = f(58)
    }

    /// The motion every vertex starts from.
    package var motion: WarpMesh.Motion {
        var m = WarpMesh.Motion()
        m.zoom = zoom; m.zoomExponent = zoomExponent; m.rotation = rotation; m.warp = warp
        m.centerX = centerX; m.centerY = centerY; m.dx = dx; m.dy = dy; m.stretchX = stretchX; m.stretchY = stretchY
        return m
    }
}
