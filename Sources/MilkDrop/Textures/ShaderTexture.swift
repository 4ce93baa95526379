/// A texture a MilkDrop shader reads (the feedback buffer, a blur level, a noise texture, a disk
/// image), sampled for a whole batch of lanes at once.
///
/// This is the contract between the shader machine (which calls ``sample(mode:count:u:v:w:r:g:b:a:)``
/// for a `ShaderOperation.sample`) and the textures (`Textures/`). Coordinates are MilkDrop's: 0…1
/// across the texture, v down; texel centres at (i + 0.5) / size; outside 0…1 the mode wraps or
/// clamps. Channels come back as 0…1 floats.
package protocol ShaderTexture: AnyObject {
    /// Size in texels; `depth` is 1 for a 2-D texture.
    var width: Int { get }
    var height: Int { get }
    var depth: Int { get }
    /// Samples `count` lanes at (u[i], v[i]) — and w[i] for a volume (nil for a 2-D read, which reads a
    /// volume's first slice) — writing each channel into its pointer (nil: not wanted). Allocates
    /// nothing, changes nothing: several threads may sample at once.
    func sample(mode: SamplerMode, count: Int,
                u: UnsafePointer<Float>, v: UnsafePointer<Float>, w: UnsafePointer<Float>?,
                r: UnsafeMutablePointer<Float>?, g: UnsafeMutablePointer<Float>?,
                b: UnsafeMutablePointer<Float>?, a: UnsafeMutablePointer<Float>?)
}
