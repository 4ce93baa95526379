/// The preset the `milkdrop` layer draws when given no file: written for MarbleKit in MilkDrop's
/// format, a slow spiral of the wave's own trails (zoom and turn with the bass, colours drifting).
package enum DefaultPreset {
    /// The name it goes by in lists and errors.
    package static let name = "(built-in)"

    /// The preset text.
    package static let text = """
        [preset00]
        fGammaAdj=1.6
        fDecay=0.97
        fVideoEchoZoom=1.0
        fVideoEchoAlpha=0.0
        nWaveMode=0
        bAdditiveWaves=1
        bWaveThick=1
        bMaximizeWaveColor=1
        fWaveAlpha=0.9
        fWaveScale=1.3
        fWaveSmoothing=0.6
        zoom=1.02
        warp=0.4
        ob_size=0.005
        ob_a=0.6
        per_frame_1=wave_r = 0.55 + 0.45 * sin(time * 1.13);
        per_frame_2=wave_g = 0.55 + 0.45 * sin(time * 1.71 + 2);
        per_frame_3=wave_b = 0.55 + 0.45 * sin(time * 0.87 + 4);
        per_frame_4=zoom = 1.008 + 0.03 * min(bass_att, 2);
        per_frame_5=rot = 0.015 * sin(time * 0.31);
        per_frame_6=ob_r = 0.5 * wave_b; ob_g = 0.3 * wave_r; ob_b = 0.6 * wave_g;
        per_pixel_1=rot = rot + 0.04 * (1 - rad) * sin(time * 0.2);
        """

    /// The preset parsed.
    package static func file() throws(MilkPresetError) -> MilkPresetFile {
        try MilkPresetParser.parse(Array(text.utf8), path: name)
    }
}
