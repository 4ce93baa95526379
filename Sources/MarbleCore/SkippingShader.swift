/// A shader that plays a list of its own, like the `milkdrop` layer over a folder of presets: a
/// session's "next" control (OSC `/marble/milkdrop/next`) asks it to move on at its next frame.
package protocol SkippingShader: Shader {
    /// Moves to the next entry at the next frame (a cut); called on the render thread, between frames.
    func skipToNext()
}
