import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueVulkan

// Parameter values as a C caller sets them: text parsed as on the command line, images read
// from paths for texture parameters.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parameter values of an effect as a C caller sets them: text parsed as on the command line,
/// image paths for `sampler2D` parameters.
struct ParameterState {
    /// The effect whose parameters these are.
    let effect: Effect
    /// Every non-texture parameter's value (defaults until set).
    private(set) var values: [String: ParameterValue]
    /// Images of the texture parameters that were set.
    private(set) var textures: [String: Image] = [:]

    /// The defaults of `effect`, with `values` (already resolved) on top.
    init(effect: Effect, values: [String: ParameterValue] = [:]) {
        self.effect = effect
        self.values = effect.values(overriding: values)
    }

    /// Sets parameter `name` from text; returns true when a texture changed (renderers holding
    /// the old image must be rebuilt). An empty path unsets a texture, as it was before it was
    /// set (a host's cleared field must not keep showing the old image).
    /// - Throws: `ParameterError` (unknown name, bad value), `MediaError` (an unreadable image).
    mutating func set(_ name: String, to text: String) throws -> Bool {
        guard let parameter = effect.parameter(named: name) else {
            throw ParameterError.unknown(name: name, effect: effect.name, known: effect.parameters.map(\.name))
        }
        if parameter.type == .sampler2D {
            textures[name] = text.isEmpty ? nil : try ImageFile.read(path: text)
            return true
        }
        if let value = try effect.resolveParameters([(name, text)])[name] { values[name] = value }
        return false
    }

    /// Throws when a texture parameter has no image yet.
    func checkTextures(setter: String) throws {
        for name in effect.textureNames where textures[name] == nil {
            throw CAPIError("effect '\(effect.name)' needs the texture '\(name)': set it to an image path with \(setter)")
        }
    }
}
