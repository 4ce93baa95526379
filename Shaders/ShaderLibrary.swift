import MarbleCore
import Synchronization

/// Every shader the engine knows, by name. `marble effects` and presets look kernels up here.
///
/// Driving a kernel (what the render pipeline does):
/// ```
/// let (shader, parameters) = try ShaderLibrary.make("bars", ["count": .number(48)])
/// shader.configure(width: 1920, height: 1080)          // once per output size: allocates scratch
/// // per frame:
/// shader.prepare(uniforms, parameters: parameters)      // alone, before any strip
/// // then concurrently, disjoint strips (any split gives the same bytes):
/// shader.render(layer.view, source: canvas.view, rows: lo..<hi, uniforms: uniforms)
/// Blend.composite(layer: layer.view, onto: canvas.view, rows: lo..<hi, mode: .normal, opacity: 1)
/// ```
/// Rules the kernels rely on: one frame at a time per instance (prepare never overlaps render);
/// `render` writes every pixel of its rows; filters read `source` anywhere but only rows nobody writes
/// in that pass (render a filter into a layer, not in place, and let every strip of a filter finish
/// before compositing onto the canvas it reads: blurs read rows outside their strip); `configure` for
/// the size being rendered
/// (otherwise scratch-using kernels draw black or transparent instead of crashing). Generators with
/// `descriptor.isOpaque` write alpha 255 everywhere, so the compositor may copy instead of blending.
package enum ShaderLibrary {
    /// Every shader type, in the order `marble effects` lists them: the built-in ones (``builtIn``),
    /// then those a program registered (``register(_:)``).
    package static var all: [any Shader.Type] { builtIn + registered.withLock { $0 } }

    /// The shaders that ship with the engine: core generators, Marble's effects, generative backgrounds.
    package static let builtIn: [any Shader.Type] = [
        // Core generators
        Solid.self, Gradient.self, Media.self, SpectrumBars.self, Waveform.self, Text.self, LyricsLayer.self, Vectorscope.self, Meters.self,
        Radial.self, Spectrogram.self, Piano.self, Cover.self, Overview.self, Particles.self, MilkDropLayer.self,
        // Marble's effects
        Ink.self, Analog.self, Pixellate.self, Disco.self, Drive.self, Vibes.self, Polka.self, Blur.self,
        LightRays.self, Bokeh.self, Stars.self,
        // Generative backgrounds (each a field in Backgrounds/ on the shared skeleton, Support/Background.swift)
        Background<Magma>.self, Background<MarbleBackground>.self, Background<Voronoise>.self, Background<Waves>.self,
        Background<Warp>.self, Background<Aura>.self, Background<Andromeda>.self, Background<GraniteBackground>.self,
        Background<Satin>.self, Background<Latte>.self, Background<Oculus>.self, Background<Vinyl>.self,
        Background<Glitch>.self, Background<GodraysBackground>.self, Background<Carbon>.self, Background<Temple>.self,
        Background<Kami>.self, Background<Bedazzled>.self, Background<BlackDiamond>.self, Background<Discotech>.self,
        Background<Dairy>.self, Background<Constellation>.self, Background<MilkyWay>.self, Background<Bankai>.self,
        Background<Amsterdam>.self,
    ]

    /// The shader type whose descriptor is named `name` (`magma`, `ink`), built-in or registered, or nil
    /// for an unknown name.
    package static func shader(named name: String) -> (any Shader.Type)? {
        builtIn.first { $0.descriptor.name == name } ?? registered.withLock { list in list.first { $0.descriptor.name == name } }
    }

    /// Shaders added at run time, in the order they were registered.
    private static let registered = Mutex<[any Shader.Type]>([])

    /// Adds a shader of the program's own, so that presets and scenes can name it like a built-in one.
    /// Any thread; before the renders that use it.
    ///
    /// - Throws: `.option` when the name is empty, has characters other than lower-case letters,
    ///   digits and `_`, or is taken (by a built-in shader or one registered before).
    package static func register(_ type: any Shader.Type) throws(MarbleError) {
        let name = type.descriptor.name
        guard !name.isEmpty, name.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }) else {
            throw MarbleError(.option, "shader name \"\(name)\": use lower-case letters, digits and _")
        }
        let added: Bool = registered.withLock { list in
            guard !builtIn.contains(where: { $0.descriptor.name == name }),
                  !list.contains(where: { $0.descriptor.name == name }) else { return false }
            list.append(type)
            return true
        }
        guard added else { throw MarbleError(.option, "shader name \"\(name)\" is taken") }
    }

    /// Validates `values` against the named shader's table and creates it, returning the validated
    /// parameters too (`prepare` takes them every frame; bindings update them with `setNumber`).
    /// Throws `ParameterError` for an unknown shader (parameter "name"), unknown parameter names and
    /// bad values, and whatever the shader's `init` throws.
    package static func make(_ name: String, _ values: [String: ParameterValue] = [:]) throws
        -> (shader: any Shader, parameters: ShaderParameters) {
        guard let type = shader(named: name) else {
            let known = all.map { $0.descriptor.name }.joined(separator: ", ")
            throw ParameterError(shader: name, parameter: "name", message: "unknown shader (known: \(known))")
        }
        let parameters = try ShaderParameters(descriptor: type.descriptor, values: values)
        return (try type.init(parameters: parameters), parameters)
    }
}
