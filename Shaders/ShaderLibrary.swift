import MarbleCore

/// Every shader the engine knows, by name. `marble effects` and presets look kernels up here.
public enum ShaderLibrary {
    public static let all: [any Shader.Type] = []

    public static func shader(named name: String) -> (any Shader.Type)? {
        all.first { $0.descriptor.name == name }
    }
}
