// When both inputs need no resizing the shader leaves out its resize branch (a branch the general
// shader skips for these uniforms anyway), and when they also have the output's size the xfade
// equivalents read texels instead of filtering at texel centres. Pixels must not change: the
// specialised shader's frames are compared byte for byte with the general shader's, on the same
// uniforms, for built-ins of both origins, every xfade equivalent, a straight-alpha gl-transitions
// file with an extra texture, translucent inputs, and inputs twice the output's size.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("Identity-fit shader")
struct IdentityFitShaderTests {
    @Test(
        "same pixels as the general shader",
        arguments: ["fade", "wipe", "ios-push", "doom-melt", "circle", "ios-pop", "luma-mask.glsl"]
            + EffectCatalog.builtIns(in: .xfade).map(\.name))
    func samePixels(name: String) throws {
        try compare(name, inputScale: 1)
    }

    @Test(
        "inputs twice the output's size: identity fit, not texel-aligned; same pixels",
        arguments: ["wipeleft", "slideleft", "pixelize", "fade"])
    func largerInputs(name: String) throws {
        try compare(name, inputScale: 2)
    }

    private func compare(_ name: String, inputScale k: Int) throws {
        let effect =
            try name.hasSuffix(".glsl") ? EffectCatalog.effect(glTransitionFixture(name)) : #require(EffectCatalog.builtIn(named: name))
        // Gradients with translucent pixels, so filtering and straight alpha both show.
        func pixel(_ r: Int, _ g: Int, _ b: Int, _ a: Int) -> Pixel {  // premultiplied
            Pixel(UInt8(r * a / 255), UInt8(g * a / 255), UInt8(b * a / 255), UInt8(a))
        }
        let from = Image(width: 24 * k, height: 12 * k) { x, y in pixel(10 * x / k, 20 * y / k, 180, 255 - 8 * x / k) }
        let to = Image(width: 24 * k, height: 12 * k) { x, y in pixel(250, 10 * x / k, 15 * y / k, 255 - 10 * y / k) }
        let textures: [String: Image] =
            effect.parameters.contains { $0.type == .sampler2D }
            ? Dictionary(uniqueKeysWithValues: effect.parameters.filter { $0.type == .sampler2D }.map { ($0.name, to) }) : [:]
        let context = try TestGPU.context()
        let renderer = try TransitionRenderer(
            effect: effect, from: from, to: to, width: 24, height: 12, textures: textures,
            context: context, framesInFlight: 1)
        let general = ShaderTemplate.fragmentShader(for: effect)
        #expect(general.glsl.contains("if (fit.x != 1.0 || fit.y != 1.0)") && !general.glsl.contains("#define _SEGUE_TEXEL_ALIGNED"))
        #expect(!ShaderTemplate.fragmentShader(for: effect, identityFit: true).glsl.contains("fit.x != 1.0"))
        #expect(
            ShaderTemplate.fragmentShader(for: effect, identityFit: true, texelAligned: true).glsl.contains(
                "#define _SEGUE_TEXEL_ALIGNED 1"))
        var gpuTextures = [try GPUTexture(context: context, image: from), try GPUTexture(context: context, image: to)]
        for name in general.extraTextures { gpuTextures.append(try GPUTexture(context: context, image: textures[name]!)) }
        let reference = try FrameRenderer(
            context: context, fragmentGLSL: general.glsl, fileName: general.fileName,
            uniformSize: general.layout.size, textures: gpuTextures, width: 24, height: 12, framesInFlight: 1)
        for progress in [0.0, 0.3, 0.55, 0.8, 1.0] {
            let time = progress * 1.5
            let fast = try renderer.frame(progress: progress, time: time, duration: 1.5)
            let slow = try reference.renderFrame(uniforms: renderer.uniformBytes(progress: progress, time: time, duration: 1.5))
            #expect(fast.pixels == slow, "\(name) at \(progress): \(zip(fast.pixels, slow).filter { $0 != $1 }.count) bytes differ")
        }
    }

    @Test("a renderer whose input needs fitting keeps the resize branch (cover crops the wider input)")
    func fittedInput() throws {
        let fade = try #require(EffectCatalog.builtIn(named: "fade"))
        // from: 8×4, left half red, right half blue; output 4×4 with cover shows its middle 4×4 columns.
        let from = Image(width: 8, height: 4) { x, _ in x < 4 ? Pixel(255, 0, 0) : Pixel(0, 0, 255) }
        let to = Image(width: 4, height: 4) { _, _ in Pixel.white }
        let image = try TransitionRenderer(
            effect: fade, from: from, to: to, width: 4, height: 4, resize: .cover, context: try TestGPU.context(), framesInFlight: 1
        )
        .frame(progress: 0, time: 0, duration: 1)
        #expect(image[0, 0] == Pixel(255, 0, 0) && image[1, 2] == Pixel(255, 0, 0))
        #expect(image[2, 1] == Pixel(0, 0, 255) && image[3, 3] == Pixel(0, 0, 255))
    }
}
