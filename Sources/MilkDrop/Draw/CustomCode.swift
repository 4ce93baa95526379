/// What custom waves and shapes read from the preset's frame: the values their code sees as `time`,
/// `fps`, `frame`, `progress`, `bass` … `treb_att` and `q1`…`q32` (the q values after the preset's
/// per-frame code), plus `fWaveScale`, which scales custom waves too.
package struct MilkFrameValues: Sendable, Equatable {
    /// `time`: seconds since the preset started.
    package var time: Double = 0
    /// `fps`: frames per second.
    package var fps: Double = 60
    /// `frame`: frames since the preset started.
    package var frame: Double = 0
    /// `progress`: 0…1 through the preset's display time.
    package var progress: Double = 0
    /// `bass`, `mid`, `treb` and their `_att` versions.
    package var bass: Double = 1, mid: Double = 1, treb: Double = 1
    package var bassAtt: Double = 1, midAtt: Double = 1, trebAtt: Double = 1
    /// `q1`…`q32` (index 0 is `q1`).
    package var q = SIMD32<Double>()
    /// `fWaveScale`: the preset's wave amplitude, which multiplies custom waves' `scaling`.
    package var waveScale: Double = 1

    package init() {}

    /// Time, frame counters and the levels of `audio`.
    package init(time: Double, fps: Double, frame: Double, progress: Double = 0, audio: MilkAudio) {
        self.time = time; self.fps = fps; self.frame = frame; self.progress = progress
        bass = Double(audio.bass); mid = Double(audio.mid); treb = Double(audio.treble)
        bassAtt = Double(audio.bassAttenuated); midAtt = Double(audio.midAttenuated); trebAtt = Double(audio.trebleAttenuated)
    }
}

/// A custom wave's or shape's code that does not compile: which block, the `.milk` line and why.
package struct CustomCodeError: Error, CustomStringConvertible, Sendable {
    /// E.g. `wave 2 per_point`, `shape 0 init`.
    package var block: String
    /// The line of the `.milk` file (0 when the block came from no file).
    package var line: Int
    package var error: ExpressionError

    package var description: String { "\(block), line \(line): \(error.message)" }

    static func compile(_ code: CodeBlock, _ block: String, _ memory: ExpressionMemory) throws(CustomCodeError) -> ExpressionProgram? {
        guard !code.isEmpty else { return nil }
        do {
            let program = try ExpressionProgram(compiling: code.text, memory: memory)
            return program.isEmpty ? nil : program
        } catch {
            throw CustomCodeError(block: block, line: code.line(atOffset: error.offset), error: error)
        }
    }
}

/// The slots of the variables every custom wave and shape block shares (time … q32, t1…t8).
struct FrameSlots {
    let time: Int, fps: Int, frame: Int, progress: Int
    let bass: Int, mid: Int, treb: Int, bassAtt: Int, midAtt: Int, trebAtt: Int
    let q: [Int], t: [Int]

    init(_ m: ExpressionMemory) throws(CustomCodeError) {
        do {
            time = try m.slot("time"); fps = try m.slot("fps"); frame = try m.slot("frame"); progress = try m.slot("progress")
            bass = try m.slot("bass"); mid = try m.slot("mid"); treb = try m.slot("treb")
            bassAtt = try m.slot("bass_att"); midAtt = try m.slot("mid_att"); trebAtt = try m.slot("treb_att")
            var q: [Int] = [], t: [Int] = []
            for i in 1...32 { q.append(try m.slot("q\(i)")) }
            for i in 1...8 { t.append(try m.slot("t\(i)")) }
            self.q = q; self.t = t
        } catch {
            throw CustomCodeError(block: "variables", line: 0, error: error)
        }
    }

    /// Writes the frame's values into `m`.
    func load(_ f: MilkFrameValues, into m: ExpressionMemory) {
        m[time] = f.time; m[fps] = f.fps; m[frame] = f.frame; m[progress] = f.progress
        m[bass] = f.bass; m[mid] = f.mid; m[treb] = f.treb
        m[bassAtt] = f.bassAtt; m[midAtt] = f.midAtt; m[trebAtt] = f.trebAtt
        for i in 0..<32 { m[q[i]] = f.q[i] }
    }

    /// Copies t1…t8 from `values` (8 entries) into `m`.
    func loadT(_ values: SIMD8<Double>, into m: ExpressionMemory) {
        for i in 0..<8 { m[t[i]] = values[i] }
    }

    func readT(_ m: ExpressionMemory) -> SIMD8<Double> {
        var v = SIMD8<Double>()
        for i in 0..<8 { v[i] = m[t[i]] }
        return v
    }

    func readQ(_ m: ExpressionMemory) -> SIMD32<Double> {
        var v = SIMD32<Double>()
        for i in 0..<32 { v[i] = m[q[i]] }
        return v
    }
}

/// MilkDrop's conversion of a preset colour channel to a byte (`D3DCOLOR_RGBA_01`: `(int)(f·255) & 0xFF`),
/// so 2.0 wraps to 254/255 and −1 to 1/255 as in MilkDrop 2 and projectM (`Color::Modulo`); back to 0…1.
@inline(__always) func milkWrappedChannel(_ f: Double) -> Float {
    guard f.isFinite else { return 0 }
    let scaled = max(-1e9, min(1e9, f * 255))
    return Float(Int(scaled) & 0xFF) / 255
}

@inline(__always) func milkWrappedColor(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> MilkColor {
    MilkColor(milkWrappedChannel(r), milkWrappedChannel(g), milkWrappedChannel(b), milkWrappedChannel(a))
}
