import MarbleCore

/// Every shader the engine knows, by name. `marble effects` and presets look kernels up here.
public enum ShaderLibrary {
    public static let all: [any Shader.Type] = [
        // Core generators
        Solid.self, Gradient.self, Media.self, SpectrumBars.self, Waveform.self,
        // Marble's effects
        Ink.self, Analog.self, Pixellate.self, Disco.self, Drive.self, Vibes.self, Polka.self, Blur.self,
        GodRays.self, Bokeh.self, Stars.self,
        // Generative backgrounds
        Magma.self, MarbleStone.self, Voronoise.self, Waves.self, Warp.self, Aura.self, Andromeda.self,
        GraniteStone.self, Satin.self, Latte.self, Oculus.self, Vinyl.self, Glitch.self, GodraysBackground.self,
        Carbon.self, Temple.self, Kami.self, Bedazzled.self, BlackDiamond.self, Discotech.self, Dairy.self,
        Constellation.self, MilkyWay.self, Bankai.self, Amsterdam.self,
    ]

    public static func shader(named name: String) -> (any Shader.Type)? {
        all.first { $0.descriptor.name == name }
    }

    /// Validates `values` against the named shader's table and creates it, returning the validated
    /// parameters too (`prepare` takes them every frame; bindings update them with `setNumber`).
    /// Throws ``ParameterError`` for an unknown shader (parameter "name"), unknown parameter names and
    /// bad values, and whatever the shader's `init` throws.
    public static func make(_ name: String, _ values: [String: ParameterValue] = [:]) throws
        -> (shader: any Shader, parameters: ShaderParameters) {
        guard let type = shader(named: name) else {
            let known = all.map { $0.descriptor.name }.joined(separator: ", ")
            throw ParameterError(shader: name, parameter: "name", message: "unknown shader (known: \(known))")
        }
        let parameters = try ShaderParameters(descriptor: type.descriptor, values: values)
        return (try type.init(parameters: parameters), parameters)
    }
}
