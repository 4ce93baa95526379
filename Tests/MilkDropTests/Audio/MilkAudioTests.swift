import MarbleCore
import MilkDrop
import Testing

@Suite("MilkAudio")
struct MilkAudioTests {
    @Test("the last 576 samples, clamped; a short waveform is padded with silence at the start")
    func waveformTail() {
        var f = AudioFeatures(bandCount: 4, waveformLength: 1024)
        for i in 0..<1024 { f.waveformLeft[i] = Float(i) / 1024; f.waveformRight[i] = -2 }
        let audio = MilkAudio()
        audio.update(from: f)
        #expect(audio.waveLeft.count == 576)
        #expect(audio.waveLeft.last == Float(1023) / 1024)
        #expect(audio.waveLeft.first == Float(1024 - 576) / 1024)
        #expect(audio.waveRight.allSatisfy { $0 == -1 })
        var short = AudioFeatures(bandCount: 4, waveformLength: 100)
        for i in 0..<100 { short.waveformLeft[i] = 0.5 }
        audio.update(from: short)
        #expect(audio.waveLeft[475] == 0 && audio.waveLeft[476] == 0.5)
    }

    @Test("a 1 kHz peak lands near value 1000/22050·512 of the spectrum; levels pass through")
    func spectrumAndLevels() {
        var f = AudioFeatures(bandCount: 4, waveformLength: 64, spectrumLength: 1025)
        f.spectrumResolution = 48000 / 2048
        let bin = Int((1000 / f.spectrumResolution).rounded())
        f.spectrum[bin] = 0.9
        f.bass = 1.7; f.trebleAttenuated = 0.4; f.mid = .nan
        let audio = MilkAudio()
        audio.update(from: f)
        let loudest = audio.spectrum.indices.max { audio.spectrum[$0] < audio.spectrum[$1] }!
        #expect(abs(loudest - Int(1000.0 / 22050 * 512)) <= 1)
        #expect(audio.spectrum[loudest] == 0.9)
        #expect(audio.bass == 1.7 && audio.trebleAttenuated == 0.4 && audio.mid == 0)
    }
}
