import MarbleCore
import Testing

@Suite struct AudioFeaturesTests {
    @Test("copy(from:) carries the optional arrays (spectrum, pitches) and the spectrum's resolution")
    func copyCarriesOptionalArrays() {
        var source = AudioFeatures(bandCount: 8, waveformLength: 16, spectrumLength: 33, pitchCount: AudioFeatures.pitchCount)
        source.spectrum[3] = 0.5; source.spectrumDecibels[3] = -6; source.pitches[57] = 0.25
        source.spectrumResolution = 21.5
        var target = AudioFeatures(bandCount: 8, waveformLength: 16, spectrumLength: 33, pitchCount: AudioFeatures.pitchCount)
        target.copy(from: source)
        #expect(target == source)
        // The target keeps its own storage: changing the source afterwards does not reach it.
        source.pitches[57] = 1
        #expect(target.pitches[57] == 0.25)
        #expect(AudioFeatures().pitches.isEmpty && AudioFeatures().spectrum.isEmpty)
    }
}
