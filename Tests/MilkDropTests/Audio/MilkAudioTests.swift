import Foundation
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

    @Test("a 1 kHz peak lands near value 1000/22050·512 of the spectrum; the levels ignore the analysis's own")
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
        // A silent waveform: MilkDrop's levels read 1, whatever the features' own bass says.
        #expect(audio.bass == 1 && audio.trebleAttenuated == 1 && audio.mid == 1)
    }

    @Test("the same frame again keeps the levels; an earlier frame starts them again from silence")
    func framesRepeat() {
        var loud = AudioFeatures(bandCount: 4, waveformLength: 576)
        for i in 0..<576 { loud.waveformLeft[i] = Float(sin(Double(i) * 0.3)) * 0.5 }
        let quiet = AudioFeatures(bandCount: 4, waveformLength: 576)
        let audio = MilkAudio()
        audio.update(from: loud, fps: 60, frame: 0)
        let first = audio.bass
        #expect(first > 1)   // the long average starts at zero: the first frames read high
        audio.update(from: loud, fps: 60, frame: 1)
        let second = audio.bass
        audio.update(from: quiet, fps: 60, frame: 1)   // a redraw of frame 1: levels unchanged
        #expect(audio.bass == second)
        audio.update(from: loud, fps: 60, frame: 0)    // a seek back: from silence again
        #expect(audio.bass == first)
        let other = MilkAudio()
        other.update(from: loud, fps: 60, frame: 0); other.update(from: loud, fps: 60, frame: 1)
        #expect(other.bass == second && other.bassAttenuated > 1)
    }
}
