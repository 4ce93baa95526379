import MarbleCore

/// Oculus: an eye's iris filling the frame — radial fibres of fbm streaming out from a pupil that
/// breathes with the bass and snaps tight on beats, a dark limbal ring, a glint, the whole eye
/// glancing slowly about.
///
/// Audio: the pupil widens with the slow bass and contracts sharply on each beat (a light reflex),
/// the collar round it flares on beats, fibres brighten with the level and stream outwards. Angles are
/// sampled on a circle (cos, sin) so fibres have no seam at ±π.
struct Oculus: LaneField {
    static let descriptor = ShaderDescriptor.background(
        "oculus", "An iris whose pupil breathes with the bass and snaps on beats.", speed: 0.3, [
            ParameterDescriptor("pupil", "Pupil radius at rest, fraction of the frame height.", .number(default: 0.08, range: 0.02...0.3)),
        ])
    static let stops = ["#000000", "#06221f", "#0f5a52", "#3aa58f", "#d9b25a", "#fff2cf"].compactMap(Color.init(parsing:))
    /// Fine fibres: full resolution at small sizes, a third at 720p, a quarter at 1080p (≈27 ns a pixel).
    static let resolution = BackgroundResolution(coarsest: 4, budget: 200_000)

    private let noise = Noise.Sampler()
    private var t: Float = 0, pupil: Float = 0.08, fibreLight: Float = 1, collar: Float = 0.25
    private var lookX: Float = 0, lookY: Float = 0

    init(parameters: ShaderParameters) {}

    mutating func prepare(_ frame: BackgroundFrame, _ parameters: ShaderParameters) {
        t = frame.time
        let beat = frame.react * frame.drive.beat
        let dilation = 1 + 0.4 * frame.react * (min(2, frame.drive.bassSlow) - 0.5)
        pupil = parameters.number("pupil") * clamp(dilation, 0.5, 2.5) * (1 - 0.45 * clamp01(beat))
        fibreLight = 0.6 + 0.25 * frame.react * frame.drive.level + 0.25 * beat
        collar = 0.25 + 0.6 * beat
        // The eye glances about: two slow sines, a pure function of time.
        lookX = 0.035 * fastSin(frame.time * 1.3) + 0.015 * fastSin(frame.time * 3.1)
        lookY = 0.025 * fastSin(frame.time * 0.9 + 1)
    }

    func row(_ y: Float) -> (y: Float, yy: Float, gyy: Float) {
        let y = y - lookY
        let gy = y + 0.12
        return (y, y * y, gy * gy)
    }

    func shade(_ x: Lanes, _ row: (y: Float, yy: Float, gyy: Float)) -> Lanes {
        let x = x - lookX
        let p = pupil, irisEdge: Float = 0.42
        let r = (x * x + row.yy).squareRoot() + 1e-5
        let cx = x / r, cy = row.y / r          // the angle as a point on the unit circle
        let fibres = noise.fbm(cx * 7 + 0.05 * t, cy * 7 + r * 9 - t * 2.5, octaves: 3)
        let ring = smoothstep(irisEdge - 0.08, irisEdge, r)
        let iris: Lanes = (0.35 + 0.65 * fibres) * fibreLight * (1 - 0.7 * ring)
        var v = iris * (1 - smoothstep(irisEdge, irisEdge + 0.01, r))
        v += collar * smoothstep(p + 0.06, p, r - 0.02) * fibres      // bright collar round the pupil
        v *= smoothstep(p, p + 0.01, r)                                 // the pupil itself is black
        // A glint up and left.
        let gx = x + 0.12
        v += 0.9 * smoothstep(0.035, 0.02, (gx * gx + row.gyy).squareRoot())
        return v
    }
}
