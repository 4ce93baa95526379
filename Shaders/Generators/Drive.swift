import MarbleCore

/// Drive: the synthwave road — a neon perspective grid scrolling towards the viewer under a striped
/// sunset sun.
///
/// Audio: the grid surges forward with the bass (scroll = time·speed + surge·slow bass, so the speed
/// rises while the bass swells and settles back after; a pure function of the frame's uniforms, so
/// any frame renders alone), grid lines flash on beats and the sun swells with the level.
/// Lines are 1.2 pixels wide at 1080p, in proportion to the frame above it (never under a pixel), and
/// antialiased by their screen-space width: each row knows its depth, so a line's distance
/// in world units is converted to pixels analytically, across the line (its slant included), and
/// lines denser than a few pixels fade into their mean coverage near the horizon. Versus Marble's Metal original (wall-clock
/// scroll, aliased lines shimmering near the horizon): media time, and lines fade into fog instead
/// of aliasing.
package final class Drive: Shader, @unchecked Sendable {
    // @unchecked Sendable: see the `Shader` contract; `render` only reads per-frame values.
    package static let descriptor = ShaderDescriptor(
        name: "drive", summary: "Synthwave perspective grid scrolling under a sunset.", kind: .generator,
        isOpaque: true,
        parameters: [
            ParameterDescriptor("speed", "Scroll speed in grid cells per second.", .number(default: 1.5, range: 0...10)),
            ParameterDescriptor("surge", "Extra distance pushed by the bass.", .number(default: 1, range: 0...8)),
            ParameterDescriptor("grid_color", "Colour of the grid lines.", .color(default: Color(parsing: "#ff2fd0")!)),
            ParameterDescriptor("sky_top", "Sky colour at the top.", .color(default: Color(parsing: "#0d0221")!)),
            ParameterDescriptor("sky_horizon", "Sky colour at the horizon.", .color(default: Color(parsing: "#7b1fa2")!)),
            ParameterDescriptor("horizon", "Height of the horizon, fraction from the top.", .number(default: 0.55, range: 0.2...0.8)),
            ParameterDescriptor("sun", "Draw the striped sun.", .flag(default: true)),
        ])

    private var scroll: Float = 0, flash: Float = 1, sunRadius: Float = 0
    private var horizonY: Float = 0
    private var grid = PremultipliedColor(.black), skyTop = PremultipliedColor(.black), skyHorizon = PremultipliedColor(.black)
    private let showSun: Bool
    /// Ground colour for each grid-line intensity 0…255, rebuilt per frame.
    private let groundColors: UnsafeMutablePointer<UInt32> = allocateFilled(256, 0xFF00_0000)

    package init(parameters: ShaderParameters) throws {
        showSun = parameters.flag("sun")
    }

    deinit { groundColors.deallocate() }

    package func prepare(_ uniforms: FrameUniforms, parameters: ShaderParameters) {
        let drive = AudioDrive(uniforms.features)
        let h = Float(uniforms.height)
        scroll = fract(wrapped(uniforms.time * Double(parameters.number("speed")), period: 1024)
                       + parameters.number("surge") * drive.bassSlow)
        flash = 0.75 + 0.6 * drive.beat
        sunRadius = h * (0.2 + 0.03 * drive.level)
        horizonY = parameters.number("horizon") * h
        grid = PremultipliedColor(parameters.color("grid_color"))
        skyTop = PremultipliedColor(parameters.color("sky_top"))
        skyHorizon = PremultipliedColor(parameters.color("sky_horizon"))
        let groundR = 0.05 * skyHorizon.r + 0.02, groundG: Float = 0.01, groundB: Float = 0.06
        for k in 0..<256 {
            let line = Float(k) / 255
            groundColors[k] = packOpaque(groundR + (grid.r - groundR) * line, groundG + (grid.g - groundG) * line,
                                         groundB + (grid.b - groundB) * line)
        }
    }

    package func render(_ target: TextureView, source: TextureView, rows: Range<Int>, uniforms: FrameUniforms) {
        let width = target.width, w = Float(target.width), h = Float(target.height)
        let cx = w * 0.5, horizon = horizonY
        for y in rows {
            let dst = target.row32(y)
            let py = Float(y) + 0.5
            if py < horizon {
                drawSky(dst, width: width, py: py, cx: cx, horizon: horizon)
            } else {
                drawGround(dst, width: width, py: py, cx: cx, horizon: horizon, height: h)
            }
        }
    }

    /// Sky gradient and the sun: a disc with a yellow→pink gradient and horizontal cuts that widen
    /// towards the horizon.
    private func drawSky(_ dst: UnsafeMutablePointer<UInt32>, width: Int, py: Float, cx: Float, horizon: Float) {
        let t = clamp01(py / max(1, horizon))
        let sky = skyTop.mixed(with: skyHorizon, t * t)
        let skyPixel = packOpaque(sky.r, sky.g, sky.b)
        let sunCenterY = horizon - sunRadius * 0.35
        let dy = py - sunCenterY
        guard showSun, abs(dy) < sunRadius + 1 else { fillPixels(dst, width, skyPixel); return }
        // Stripes: below the sun's centre, bands of growing gap.
        let below = clamp01(dy / sunRadius)
        let stripe = fract(dy / (sunRadius * 0.12))
        let cut: Float = dy > 0 ? smoothstep(0.55 - 0.5 * below, 0.6 - 0.5 * below, stripe) : 1
        let sunT = clamp01(0.5 + 0.5 * dy / sunRadius)
        let sunR: Float = 1, sunG = mix(0.85, 0.18, sunT), sunB = mix(0.25, 0.55, sunT)
        let sr = sky.r, sg = sky.g, sb = sky.b, radius = sunRadius, dy2 = dy * dy
        fillPixels(dst, width, skyPixel)
        // Only the sun's chord (plus a pixel for the antialiased edge) differs from the sky.
        let halfChord = (max(0, (radius + 1) * (radius + 1) - dy2)).squareRoot()
        let x0 = max(0, Int(clamp(cx - halfChord, 0, Float(width)))), x1 = min(width, Int(clamp(cx + halfChord + 1, 0, Float(width))))
        guard x0 < x1 else { return }
        for x in x0..<x1 {
            let dx = Float(x) + 0.5 - cx
            // Antialiased disc edge: coverage from the signed distance to the circle.
            let cover = clamp01(0.5 - ((dx * dx + dy2).squareRoot() - radius)) * cut
            dst[x] = packOpaque(mix(sr, sunR, cover), mix(sg, sunG, cover), mix(sb, sunB, cover))
        }
    }

    /// Ground: depth z = 1/(y − horizon); lines where world x or world z (+ scroll) cross integers.
    ///
    /// Antialiasing: a pixel's distance to a line is the line function's distance to the nearest
    /// integer divided by the function's screen gradient (world units per pixel across the line), so
    /// lines keep their width in pixels whatever their slant. (Dividing by the horizontal rate alone
    /// made the slanted lines towards the sides a row of dots: each row's piece of a nearly flat line
    /// was as narrow as an upright line's.) Where the cells shrink below a few pixels (towards the
    /// horizon) the lines fade into their mean coverage instead of beating against the pixel grid
    /// (moiré): a line covers `lineCoverage` pixels across, so a cell `1/g` pixels wide is that × g lit.
    private func drawGround(_ dst: UnsafeMutablePointer<UInt32>, width: Int, py: Float, cx: Float, horizon: Float,
                            height: Float) {
        let below = max(0.5, py - horizon)
        let focal = height * 0.35
        let z = focal / below                     // world distance of this row
        let pixelWorld = z / focal                // world units per screen pixel on this row
        let zWorld = z * 2 + scroll
        // Horizontal line: distance in rows to the nearest z-integer, from the row's depth slope.
        let dzdy = 2 * focal / (below * below)    // world z per row
        let zDistance = abs(fract(zWorld + 0.5) - 0.5) / max(dzdy, 1e-4)
        // Lines 1.2 pixels wide at 1080p, in proportion to the height above it, never under a pixel;
        // a line covers ∫ clamp01(w − |d|) dd = 2w − 1 pixels across.
        let lineWidth = max(1, 1.2 * height / 1080), lineCoverage = 2 * lineWidth - 1
        var horizontal = clamp01(lineWidth - zDistance)
        horizontal += (min(1, lineCoverage * dzdy) - horizontal) * Self.crowding(dzdy)
        let fog = clamp01(below / (height - horizon) * 3)
        let glow = flash * fog
        // Locals: the loop must not reload properties (stores to `dst` could alias them).
        let xScale = pixelWorld * 4               // world x per screen pixel (cells are 1 unit wide)
        let invBelow = 1 / below                  // world x = (x − cx)·xScale, so ∂/∂y = −(x − cx)·xScale/below
        let haze = 0.15 * (1 - fog)
        // Pass 1 (vectorises): line intensity 0…255 per pixel, parked in the row itself.
        for x in 0..<width {
            let dx = Float(x) + 0.5 - cx
            let wx = dx * xScale
            let slant = dx * invBelow
            let gradient = xScale * (1 + slant * slant).squareRoot()
            let xDistance = abs(fract(wx + 0.5) - 0.5) / max(gradient, 1e-4)
            var vertical = clamp01(lineWidth - xDistance)
            vertical += (min(1, lineCoverage * gradient) - vertical) * Self.crowding(gradient)
            let line = clamp01((max(vertical, horizontal) + haze * (vertical + horizontal)) * glow)
            dst[x] = UInt32(bitPattern: roundToInt32(line * 255))
        }
        // Pass 2: intensity → colour from the per-frame table.
        let colors = groundColors
        for x in 0..<width { dst[x] = colors[Int(dst[x] & 0xFF)] }
    }

    /// How far lines whose function changes by `gradient` per pixel (cells 1/gradient pixels wide) are
    /// faded into their mean: not at all for cells of 5 pixels or more, fully at 2 pixels and less.
    @inline(__always) static func crowding(_ gradient: Float) -> Float { clamp01((gradient - 0.2) * (1 / 0.3)) }
}
