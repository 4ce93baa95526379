import MarbleCore
import Shaders

/// The shaders that presets and scenes can name: the engine's own and those a program adds.
///
/// A program's shader is a class conforming to `Shader` (its `ShaderDescriptor` gives the name a
/// ``LayerSpec`` uses and the parameters it takes); registered once, it is drawn, blended, bound to the
/// music and validated like a built-in one.
public enum ShaderRegistry {
    /// Adds a shader of the program's own. Any thread; before the renders that use it.
    ///
    /// - Throws: `.option` when the name is empty, has characters other than lower-case letters,
    ///   digits and `_`, or is already taken.
    public static func register(_ type: any Shader.Type) throws(MarbleError) {
        try ShaderLibrary.register(type)
    }

    /// The names of every shader known now: the built-in ones, then the registered ones.
    public static var names: [String] { ShaderLibrary.all.map { $0.descriptor.name } }
}
