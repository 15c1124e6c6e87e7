// Compiling an effect file's shader before its plugin is written: hosts give a frei0r plugin no
// way to fail once they have constructed it (GStreamer builds every plugin's element class when
// it loads its frei0r module, MLT asks every plugin for its defaults), so a plugin never loads
// libsegue or compiles anything until it renders, and a shader that does not compile is refused
// here, at `segue frei0r install`, with the compiler's message.
import SegueCore
import SegueRender
import SegueShaders
import SegueVulkan

extension Frei0rPlugin {
    /// Compiles the effect's shader on `context` (a 2×2 frame; a texture parameter gets a 1×1
    /// image). A mesh effect has nothing to compile.
    /// - Throws: the compiler's error (`VulkanError`/`RenderError`, naming the file), or the
    ///   effect lookup's.
    public func checkCompiles(context: GPUContext) throws {
        let effect: Effect
        switch type {
        case .mixer2: effect = try EffectRequest(effect: self.effect).resolve().effect
        case .filter, .source:
            if MeshEffects.named(self.effect) != nil { return }
            effect = try ImageEffectRequest(effect: self.effect).resolve().effect
        }
        guard effect.meshBuilder == nil else { return }
        let image = Image(width: 2, height: 2, premultipliedRGBA: [UInt8](repeating: 255, count: 16))
        let blank = Image(width: 1, height: 1, premultipliedRGBA: [255, 255, 255, 255])
        var textures: [String: Image] = [:]
        for name in effect.textureNames { textures[name] = blank }
        let renderer = try TransitionRenderer(
            effect: effect, from: image, to: image, textures: textures, context: context, framesInFlight: 1)
        _ = try renderer.frame(progress: 0.5, time: 0, duration: effect.defaultDuration)
    }
}
