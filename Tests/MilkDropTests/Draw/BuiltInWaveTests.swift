import MarbleCore
@testable import MilkDrop
import Testing

@Suite("BuiltInWave")
struct BuiltInWaveTests {
    func draw(_ s: BuiltInWave.Settings, audio: MilkAudio = MilkAudio(), width: Int = 64, height: Int = 36) -> Canvas {
        let canvas = Canvas(width: width, height: height)
        var list = MilkDrawList(width: width, height: height)
        BuiltInWave().build(s, audio: audio, into: &list)
        canvas.draw(list)
        return canvas
    }

    func settings(mode: Int) -> BuiltInWave.Settings {
        var s = BuiltInWave.Settings()
        s.mode = mode; s.color = MilkColor(1, 1, 1, 1)
        return s
    }

    @Test("mode 0 in silence is a round circle of radius 0.5 (clip units, aspect-corrected) around wave_x/y")
    func circle() {
        let c = draw(settings(mode: 0))
        // 64×36: radius 0.5·(36/64)·32 = 9 px across, 0.5·18 = 9 px down: centre (32, 18).
        #expect(c.litColumns().first == 22 || c.litColumns().first == 23)
        #expect(c.litColumns().last == 40 || c.litColumns().last == 41)
        #expect(c.litRows().first == 8 || c.litRows().first == 9)
        #expect(c.litRows().last == 26 || c.litRows().last == 27)
        #expect(c.pixel(32, 18).x == 0)
        // wave_y = 0.75 moves it up by a quarter of the height (y points up).
        var s = settings(mode: 0); s.y = 0.75
        let up = draw(s)
        #expect(up.litRows().last! == c.litRows().last! - 9)
    }

    @Test("modes 6 and 7 in silence: one horizontal line through the middle; two lines wave_y² apart")
    func lines() {
        let one = draw(settings(mode: 6), width: 192, height: 108)
        #expect(one.litRows(threshold: 100) == [53, 54] || one.litRows(threshold: 100) == [54])
        #expect(one.litColumns().count > 180)
        var s = settings(mode: 7); s.y = 0.5
        let two = draw(s, width: 192, height: 108)
        // separation 0.25 clip units = 13.5 px above and below the middle.
        let rows = two.litRows(threshold: 100)
        #expect(rows.contains(40) && rows.contains(67) && !rows.contains(54), "\(rows)")
        // wave_mystery turns the line: 1 → vertical (1.57 rad).
        var v = settings(mode: 6); v.mystery = 1
        let vertical = draw(v, width: 192, height: 108)
        #expect(vertical.litColumns(threshold: 100).count <= 3 && vertical.litRows().count > 100)
    }

    @Test("the waveform moves the line: a loud left channel displaces mode 6 away from the middle")
    func samplesDrive() {
        var f = AudioFeatures(bandCount: 4, waveformLength: 576)
        for i in 0..<576 { f.waveformLeft[i] = 0.8; f.waveformRight[i] = 0.8 }
        let audio = MilkAudio(); audio.update(from: f)
        var s = settings(mode: 6); s.smoothing = 0
        let c = draw(s, audio: audio, width: 192, height: 108)
        // 0.25·0.8 = 0.2 clip units up = 10.8 px above the middle.
        #expect(c.litRows(threshold: 100).allSatisfy { $0 >= 42 && $0 <= 44 }, "\(c.litRows(threshold: 100))")
        s.scale = 0.5
        let half = draw(s, audio: audio, width: 192, height: 108)
        #expect(half.litRows(threshold: 100).allSatisfy { $0 >= 47 && $0 <= 49 })
    }

    @Test("wave_a, wave_brighten and bModWaveAlphaByVolume set the colour and opacity")
    func colourAndOpacity() {
        // wave_x shifts the line of mode 6 sideways: by half a pixel here, onto the centres of row 53.
        var s = settings(mode: 6); s.color = MilkColor(0.5, 0.25, 0, 1); s.brighten = true; s.x = 0.5 + 1 / 216
        let bright = draw(s, width: 192, height: 108)
        #expect(bright.litRows(threshold: 20) == [53])
        #expect(bright.pixel(96, 53).x >= 250 && abs(bright.pixel(96, 53).y - 128) <= 3)
        s.brighten = false
        let plain = draw(s, width: 192, height: 108)
        #expect(abs(plain.pixel(96, 53).x - 128) <= 3 && abs(plain.pixel(96, 53).y - 64) <= 3)
        // Volume (bass+mid+treb)/3 = 1 is above the end level: full; below the start level: nothing.
        s.modulateAlphaByVolume = true; s.modulateAlphaStart = 0.5; s.modulateAlphaEnd = 0.9
        #expect(draw(s, width: 192, height: 108).redSum == plain.redSum)
        s.modulateAlphaStart = 1.5; s.modulateAlphaEnd = 2
        #expect(draw(s, width: 192, height: 108).redSum == 0)
    }

    @Test("additive waves add onto the buffer; dots draw separate points; thick lines are wider")
    func styles() {
        var s = settings(mode: 6); s.color = MilkColor(0.4, 0.4, 0.4, 1); s.brighten = false; s.x = 0.5 + 1 / 216
        let thin = draw(s, width: 192, height: 108)
        s.thick = true
        let thick = draw(s, width: 192, height: 108)
        #expect(thick.redSum > thin.redSum * 3 / 2)
        s.thick = false; s.dots = true
        let dots = draw(s, width: 192, height: 108)
        var dotList = MilkDrawList(width: 192, height: 108)
        BuiltInWave().build(s, audio: MilkAudio(), into: &dotList)
        #expect(dotList.primitive(at: 0) == .dots && dots.redSum > 0)
        #expect(dots.texture.packedBytes() != thin.texture.packedBytes())
        s.dots = false; s.additive = true
        var list = MilkDrawList(width: 192, height: 108)
        BuiltInWave().build(s, audio: MilkAudio(), into: &list)
        let canvas = Canvas(width: 192, height: 108, fill: RGBA8(r: 100, g: 100, b: 100))
        canvas.draw(list)
        #expect(canvas.pixel(96, 53).x > 190 && canvas.pixel(96, 40).x == 100)
    }

    @Test("every mode 0…7 draws something with sound, and modes wrap modulo 8")
    func everyMode() {
        var f = AudioFeatures(bandCount: 4, waveformLength: 576)
        for i in 0..<576 { f.waveformLeft[i] = Float((i * 37) % 100) / 100 - 0.5; f.waveformRight[i] = Float((i * 53) % 90) / 90 - 0.5 }
        f.treble = 1; f.bass = 1; f.mid = 1
        let audio = MilkAudio(); audio.update(from: f)
        for mode in 0..<8 {
            let c = draw(settings(mode: mode), audio: audio, width: 192, height: 108)
            #expect(c.redSum > 0, "mode \(mode)")
        }
        #expect(draw(settings(mode: 9), audio: audio).texture.packedBytes() == draw(settings(mode: 1), audio: audio).texture.packedBytes())
    }
}
