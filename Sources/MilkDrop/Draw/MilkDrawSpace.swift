/// MilkDrop's coordinate systems on a `width`×`height` target, mapped to the pixel coordinates of a
/// ``MilkDrawList`` (x right, y down, pixel (i, j) covering [i, i+1]×[j, j+1]).
///
/// - Clip space (built-in waves, borders, darken-centre): x −1…1 left→right, y −1…1 **bottom→top**
///   (projectM 4 `Waveforms/WaveformMath.cpp` maps `wave_y` to `2·wave_y − 1` and draws with an
///   unflipped projection; `Border.cpp` and `DarkenCenter.cpp` draw symmetric geometry in it).
/// - Preset space (custom waves and shapes, `x`/`y` variables): 0…1 left→right and **bottom→top**
///   (projectM 4 `CustomShape.cpp`/`CustomWaveform.cpp` map `y` to `−2y + 1` under a flipped projection,
///   which is the same picture: `y = 0` at the bottom, as MilkDrop's preset authoring guide says).
/// - Texture space (motion vectors, texture lookups): u 0…1 left→right, v 0…1 **top→bottom**, the
///   per-pixel equations' convention.
package struct MilkDrawSpace: Sendable, Equatable {
    package let width: Int, height: Int

    package init(width: Int, height: Int) { self.width = max(1, width); self.height = max(1, height) }

    /// MilkDrop's aspect multipliers: on a landscape target `aspectY = height / width` (and `aspectX = 1`),
    /// on a portrait one `aspectX = width / height`: multiplying a clip-space x offset by `aspectY` keeps
    /// circles round (projectM 4 `WaveformMath.cpp`, `CustomShape.cpp`).
    package var aspectX: Float { width >= height ? 1 : Float(width) / Float(height) }
    package var aspectY: Float { width > height ? Float(height) / Float(width) : 1 }

    /// A clip-space point (y up) in pixels.
    @inline(__always) package func pixel(clipX x: Float, clipY y: Float) -> SIMD2<Float> {
        SIMD2((x + 1) * 0.5 * Float(width), (1 - y) * 0.5 * Float(height))
    }

    /// A preset-space point (0…1, y up) in pixels.
    @inline(__always) package func pixel(presetX x: Float, presetY y: Float) -> SIMD2<Float> {
        SIMD2(x * Float(width), (1 - y) * Float(height))
    }

    /// A texture-space point (0…1, v down) in pixels.
    @inline(__always) package func pixel(u: Float, v: Float) -> SIMD2<Float> {
        SIMD2(u * Float(width), v * Float(height))
    }
}
