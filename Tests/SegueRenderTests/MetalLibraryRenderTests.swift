// Stitchable shaders written the way SwiftUI shader libraries write them (the fixtures
// LibraryTransitions.metal and LibraryEffects.metal), rendered on the Vulkan device and compared
// with CPU implementations of the same formulas under SwiftUI's semantics: layers sampled in
// points, transparent outside their bounds, premultiplied colour, the inserted layer over the
// removed one. Covers Metal's implicit conversions (scalars where vectors are expected, integer
// literals, mixed half/float, uint as bool), default arguments, samples inside braced blocks,
// LTR/RTL pairs through a removal function, helper structs, #define, constant arrays, texture
// arguments with constexpr samplers, and the values of the standard-library functions.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// GLSL's and Metal's smoothstep, extended to reversed edges as GPUs evaluate it.
private func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
    let t = min(max((x - e0) / (e1 - e0), 0), 1)
    return t * t * (3 - 2 * t)
}

private func mix(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

/// A smooth, asymmetric image of any size (neighbouring pixels differ by at most 200 / (side − 1)
/// per channel), premultiplied by `alpha`.
func gentle(_ w: Int, _ h: Int, seed: Int, alpha: UInt8 = 255) -> Image {
    Image(width: w, height: h) { x, y in
        let a = Double(alpha) / 255
        func c(_ v: Double) -> UInt8 { UInt8((v * a).rounded()) }
        let fx = Double(x) / Double(max(w - 1, 1)), fy = Double(y) / Double(max(h - 1, 1))
        return Pixel(c(20 + 200 * fx + Double(seed)), c(30 + 180 * fy), c(220 - 100 * (fx + fy) - Double(seed)), alpha)
    }
}

/// Renders the function `spec` on one image at `time`, as `segue effect` does.
func renderOnImage(
    _ spec: String, _ input: Image, time: Double = 0, arguments: [(name: String, value: String)] = [],
    textures: [String: Image] = [:]
) throws -> Image {
    let fn = try EffectCatalog.stitchableFunction(spec)
    let effect = try fn.imageEffect(source: .file(fn.file))
    let values = try effect.resolveParameters(arguments)
    return try TransitionRenderer(
        effect: effect, from: input, to: input, parameters: values, textures: textures, context: try TestGPU.context()
    )
    .frame(progress: 0, time: time, duration: 1)
}

/// Colour channels of a pixel as doubles 0…255.
private func channels(_ p: Pixel) -> [Double] { [Double(p.r), Double(p.g), Double(p.b), Double(p.a)] }

@Suite("Stitchable shaders as real libraries write them, on the GPU")
struct MetalLibraryRenderTests {
    static let transitions = fixture("LibraryTransitions.metal")
    static let effects = fixture("LibraryEffects.metal")

    /// The configuration such libraries use: amount 1 → 0 on the inserted view, 0 → 1 on the
    /// removed one, `maxSampleOffset: .zero`.
    static func libraryConfiguration(removal: StitchableFunction? = nil) -> StitchableConfiguration {
        StitchableConfiguration(insertion: (1, 0), removal: (0, 1), maxSampleOffset: Vector2(0, 0), removalFunction: removal)
    }

    // MARK: - Transitions

    /// The streaks formula (windSize from its default argument unless given).
    static func streaks(_ layer: CPULayer, _ p: (x: Double, y: Double), amount: Double, windSize: Double) -> [Double]? {
        let (w, h) = layer.size
        let uv = (x: p.x / w, y: p.y / h)
        let offset = 0.5 + 0.5 * sin(uv.y * 7)
        let adjusted = uv.x * (1 - windSize) + windSize * offset
        let progress = smoothstep(0, -windSize, adjusted - amount * (1 + windSize))
        return layer.sample(p).map { c in c.map { mix($0, 0, progress) } }
    }

    @Test("streaks: int literals in float contexts, mix(sample, 0, t) and a default argument", arguments: [0.2, 0.5, 0.8])
    func streaks(progress: Double) throws {
        let from = gentle(24, 12, seed: 1), to = gentle(24, 12, seed: 2)
        let clear = Image(width: 24, height: 12, fill: .clear)
        let removed = try renderStitchable(
            Self.transitions + ":streaks", from: from, to: clear, progress: progress,
            configuration: Self.libraryConfiguration())
        let layer = CPULayer(image: from)
        let n = expectPixels(removed, tolerance: 2, "removed at \(progress)") { p in Self.streaks(layer, p, amount: progress, windSize: 0.2)
        }
        #expect(n == 24 * 12)
        let inserted = try renderStitchable(
            Self.transitions + ":streaks", from: clear, to: to, progress: progress,
            configuration: Self.libraryConfiguration(), arguments: [("windSize", "0.4")])
        let toLayer = CPULayer(image: to)
        expectPixels(inserted, tolerance: 2, "inserted at \(progress)") { p in Self.streaks(toLayer, p, amount: 1 - progress, windSize: 0.4)
        }
    }

    @Test("an LTR/RTL pair: the removed view runs the other function (--removal-function)", arguments: [0.3, 0.6])
    func warpPair(progress: Double) throws {
        let from = gentle(20, 10, seed: 3), to = gentle(20, 10, seed: 4)
        let removal = try EffectCatalog.stitchableFunction(Self.transitions + ":warpRTL")
        let image = try renderStitchable(
            Self.transitions + ":warpLTR", from: from, to: to, progress: progress,
            configuration: Self.libraryConfiguration(removal: removal))
        let removed = CPULayer(image: from), inserted = CPULayer(image: to)
        func ltr(_ layer: CPULayer, _ p: (x: Double, y: Double), _ amount: Double) -> [Double]? {
            let (w, h) = layer.size
            let x = smoothstep(0, 1, amount * 2 + p.x / w - 1)
            let q = (mix(p.x / w, 0.5, x) * w, mix(p.y / h, 0.5, x) * h)
            return layer.sample(q).map { c in c.map { mix($0, 0, x) } }
        }
        func rtl(_ layer: CPULayer, _ p: (x: Double, y: Double), _ amount: Double) -> [Double]? {
            let (w, h) = layer.size
            let x = smoothstep(0, 1, amount * 2 + (1 - p.x / w) - 1)
            let q = (((p.x / w - 0.5) * (1 - x) + 0.5) * w, ((p.y / h - 0.5) * (1 - x) + 0.5) * h)
            return layer.sample(q).map { c in c.map { mix($0, 0, x) } }
        }
        let n = expectPixels(image, tolerance: 2, "warp pair at \(progress)") { p in
            guard let r = rtl(removed, p, progress), let i = ltr(inserted, p, 1 - progress) else { return nil }
            return over(i, r)
        }
        #expect(n > 150)
        // The same function on both views differs: the pair really is two functions.
        let same = try renderStitchable(
            Self.transitions + ":warpLTR", from: from, to: to, progress: progress,
            configuration: Self.libraryConfiguration())
        #expect(same != image)
    }

    @Test("blocks: layer.sample inside if/else blocks, half arithmetic", arguments: [0.25, 0.5])
    func blocks(progress: Double) throws {
        let from = gentle(16, 8, seed: 5), clear = Image(width: 16, height: 8, fill: .clear)
        let image = try renderStitchable(
            Self.transitions + ":blocks", from: from, to: clear, progress: progress,
            configuration: Self.libraryConfiguration())
        let layer = CPULayer(image: from)
        let n = expectPixels(image, tolerance: 2, "blocks at \(progress)") { p in
            let (w, h) = layer.size
            let direction = min(progress, 1 - progress)
            let square = 2 * direction / 4
            let q = (((p.x / w / square).rounded(.down) + 0.5) * square * w, ((p.y / h / square).rounded(.down) + 0.5) * square * h)
            return layer.sample(q).map { c in c.map { mix($0, 0, progress) } }
        }
        #expect(n == 16 * 8)
    }

    // MARK: - Effects on one image

    @Test("bands: min3/max3/median3, a uint used as a bool, half and float mixed", arguments: [255, 128] as [UInt8])
    func bands(alpha: UInt8) throws {
        let input = gentle(16, 6, seed: 6, alpha: alpha)
        let image = try renderOnImage(Self.effects + ":bands", input, arguments: [("amount", "0.2")])
        expectPixels(image, tolerance: 1.5, "bands, alpha \(alpha)") { p in
            let c = channels(input[Int(p.x), Int(p.y)]).map { $0 / 255 }
            let rgb = c[0..<3].map { $0 / c[3] }
            let lightness = (rgb.max()! + rgb.min()!) / 2
            let odd = Int(p.x / 16 * 4) % 2 == 1
            let l = min(max(lightness + (odd ? 0.2 : -0.2), 0.1), 0.9)
            return [l * c[3] * 255, l * c[3] * 255, l * c[3] * 255, c[3] * 255]
        }
    }

    @Test("target: a helper struct, #define constants and macros, a constant array, aggregate initialisers")
    func target() throws {
        let input = gentle(20, 20, seed: 7)
        let image = try renderOnImage(Self.effects + ":target", input)
        let weights = [0.5, 0.3, 0.2]
        let n = expectPixels(image, tolerance: 1.5, "target") { p in
            let q = (p.x / 20 - 0.5, p.y / 20 - 0.5)
            let d = q.0 * q.0 + q.1 * q.1
            var result = channels(input[Int(p.x), Int(p.y)])
            for i in 0..<3 {
                let r = 0.15 * Double(i + 1)
                if abs(d - r * r) < 1e-4 { return nil }
                let t = d < r * r ? weights[i] : 0
                result = zip(result, [0, 0, 0, 255.0]).map { mix($0, $1, t) }
            }
            return result
        }
        #expect(n > 390)
    }

    @Test("ripple: a distortion with metal:: names, default arguments and the time filled in", arguments: [0.0, 0.4])
    func ripple(time: Double) throws {
        let input = gentle(24, 16, seed: 8)
        let layer = CPULayer(image: input)
        for amplitude in [2.0, 3.0] {
            let image = try renderOnImage(
                Self.effects + ":ripple", input, time: time,
                arguments: amplitude == 2 ? [] : [("amplitude", "3")])
            let n = expectPixels(image, tolerance: 2, "ripple at \(time), amplitude \(amplitude)") { p in
                let delta = (p.x - 12, p.y - 8)
                let d = (delta.0 * delta.0 + delta.1 * delta.1).squareRoot()
                let wave = sin(d / 24 * 3 * 2 * Double.pi - time * 4)
                return layer.sample((p.x + delta.0 / d * amplitude * wave, p.y + delta.1 / d * amplitude * wave))
            }
            #expect(n > 300)
        }
    }

    @Test("smear: a texture argument read through a local constexpr sampler, a layer sample in a block")
    func smear() throws {
        let input = gentle(16, 8, seed: 9)
        let mask = Image(width: 4, height: 2) { x, _ in x < 2 ? Pixel(255, 255, 255, 255) : .clear }
        let image = try renderOnImage(Self.effects + ":smear", input, textures: ["mask": mask])
        let layer = CPULayer(image: input)
        expectPixels(image, tolerance: 1, "smear") { p in
            let here = layer.sample(p)!
            guard p.x < 8 else { return here }
            guard let right = layer.sample((p.x + 2, p.y)) else { return nil }
            return zip(here, right).map { ($0 + $1) / 2 }
        }
    }

    @Test("texture samplers: nearest with repeat, bilinear clamped to the edge, pixel coordinates clamped to zero")
    func samplers() throws {
        let input = gentle(8, 4, seed: 10)
        let pattern = Image(width: 2, height: 2) { x, y in
            [Pixel(200, 40, 40, 255), Pixel(40, 200, 40, 255), Pixel(20, 20, 100, 128), Pixel(0, 0, 0, 0)][y * 2 + x]
        }
        let tiled = try renderOnImage(Self.effects + ":tiled", input, textures: ["pattern": pattern])
        expectPixels(tiled, tolerance: 1, "tiled") { p in
            let texel = pattern[Int(p.x / 8 * 2 * 2) % 2, Int(p.y / 4 * 2 * 2) % 2]
            let t = channels(texel), c = channels(input[Int(p.x), Int(p.y)])
            return zip(c, t).map { mix($0, $1, t[3] / 255 * 0.5) }
        }
        let stretched = try renderOnImage(Self.effects + ":stretched", input, textures: ["pattern": pattern])
        let patternLayer = CPULayer(image: pattern)
        expectPixels(stretched, tolerance: 1, "stretched") { p in patternLayer.sample((p.x / 8 * 2, p.y / 4 * 2)) }
        let pixels = try renderOnImage(Self.effects + ":pixels", input, textures: ["pattern": pattern])
        for y in 0..<4 {
            for x in 0..<8 {
                #expect(pixels[x, y] == (x < 2 && y < 2 ? pattern[x, y] : .clear), "pixel \(x),\(y)")
            }
        }
    }

    // MARK: - Library values

    /// Each pixel of a 50 × 1 image shows one library call on constants, as Metal defines it.
    static let libraryValues: [(call: String, value: Double)] = [
        ("fract(-0.25)", 0.75), ("-fmod(-1.5, 4.0) / 2", 0.75), ("round(2.5) / 4", 0.75), ("rint(2.5) / 4", 0.5),
        ("median3(0.9, 0.2, 0.6)", 0.6), ("min3(0.9, 0.2, 0.6)", 0.2), ("max3(0.9, 0.2, 0.6)", 0.9),
        ("copysign(0.3, -1.0) + 1", 0.7), ("fdim(0.8, 0.3)", 0.5), ("step(0.5, 0.5)", 1), ("smoothstep(0, 1, 0.25)", 0.15625),
        ("saturate(1.7)", 1), ("distance(float2(0.3, 0.4), 0)", 0.5), ("length_squared(float2(0.3, 0.4))", 0.25),
        ("select(0.1, 0.9, true)", 0.9), ("sinpi(1.0 / 6)", 0.5), ("exp10(-1.0)", 0.1), ("log10(1000.0) / 4", 0.75),
        ("atan2(1.0, 1.0) / M_PI_F", 0.25), ("dot(float3(1, 2, 3), 0.1)", 0.6), ("cross(float3(1, 0, 0), float3(0, 1, 0)).z", 1),
        ("clamp(5, 0, 3) / 4.0", 0.75), ("abs(-3) / 4.0", 0.75), ("popcount(7u) / 4.0", 0.75), ("clz(1u) / 32.0", 31.0 / 32),
        ("ctz(8u) / 8.0", 0.375), ("ilogb(8.0) / 4.0", 0.75), ("fma(0.5, 0.5, 0.25)", 0.5),
        ("(nextafter(1.0, 2.0) - 1.0) * 4e6", Double(Float(1).nextUp - 1) * 4e6), ("modfValue", 0.75), ("sincosValue", 0.5),
        ("frexpValue", 0.5), ("ldexp(0.375, 1)", 0.75), ("absdiff(3, 7) / 8.0", 0.5), ("hadd(5, 7) / 8.0", 0.75),
        ("reverse_bits(1u) == 0x80000000u ? 1 : 0", 1), ("all(float3(1, 2, 3) > 0) ? 1 : 0", 1),
        ("any(bool2(false, true)) ? 1 : 0", 1), ("tanpi(0.25)", 1), ("powr(0.25, 0.5)", 0.5), ("rsqrt(4.0)", 0.5),
        ("asinpi(1.0)", 0.5), ("(faceforward(float2(1, 0), float2(-1, 0), float2(1, 0)).x + 1) / 2", 1),
        ("reflect(float2(1, -1), float2(0, 1)).y * 0.5", 0.5), ("-refract(float2(0, -1), float2(0, 1), 1.0).y * 0.5", 0.5),
        ("determinant(float2x2(2, 0, 0, 0.25))", 0.5), ("transpose(float2x2(1, 2, 3, 4))[0][1] / 4", 0.75),
        ("normalize(float2(3, 4)).y", 0.8), ("select(float2(0.1), float2(0.9), bool2(false, true)).y", 0.9),
        ("-trunc(-1.75) / 2", 0.5),
    ]

    @Test("the values of Metal's library functions, as Metal defines them (fmod's sign, round's halves, fract < 1, …)")
    func libraryFunctionValues() throws {
        let scratch = try TemporaryDirectory("library"), dir = URL(fileURLWithPath: scratch.path)
        let path = dir.appendingPathComponent("values.metal").path
        var source = """
            #include <metal_stdlib>
            using namespace metal;

            [[ stitchable ]] half4 values(float2 position, half4 color) {
                float modfWhole;
                float modfValue = modf(2.75, modfWhole);
                float sincosCos;
                float sincosValue = metal::sincos(M_PI_F / 6, sincosCos);
                int frexpExponent;
                float frexpValue = frexp(8.0, frexpExponent);
                float v = 0;
                switch (int(position.x)) {

            """
        for (k, entry) in Self.libraryValues.enumerated() { source += "    case \(k): v = \(entry.call); break;\n" }
        source += "    }\n    return half4(half3(v), 1.0h);\n}\n"
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        let image = try renderOnImage(path, Image(width: Self.libraryValues.count, height: 1, fill: .white))
        for (k, entry) in Self.libraryValues.enumerated() {
            let got = Double(image[k, 0].r)
            #expect(abs(got - entry.value * 255) <= 1, "\(entry.call) = \(got / 255), expected \(entry.value)")
        }
    }

    @Test("every library function compiles with scalar and vector arguments")
    func everyFunctionCompiles() throws {
        let scratch = try TemporaryDirectory("library"), dir = URL(fileURLWithPath: scratch.path)
        let path = dir.appendingPathComponent("all.metal").path
        var body = ""
        for (name, arity) in MetalLibraryCalls.floating {
            for type in ["float", "float3", "half2"] {
                let args = (0..<arity).map { k in "\(type)(0.\(k + 3))" }.joined(separator: ", ")
                body += "    s += float(\(name)(\(args))\(MetalLibraryCalls.reduces.contains(name) ? "" : type == "float" ? "" : ".x"));\n"
            }
        }
        for (name, arity) in MetalLibraryCalls.integer {
            for type in ["int", "uint2"] {
                let args = (0..<arity).map { k in "\(type)(\(k + 3))" }.joined(separator: ", ")
                body += "    s += float(\(name)(\(args))\(type == "int" ? "" : ".x"));\n"
            }
        }
        try """
        #include <metal_stdlib>
        using namespace metal;
        [[ stitchable ]] half4 calls(float2 position, half4 color) {
            float s = 0;
        \(body)    return color + half4(s * 0);
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let input = gentle(4, 2, seed: 11)
        #expect(try renderOnImage(path, input) == input)
    }
}

/// Calls for `everyFunctionCompiles`: names with the number of arguments.
enum MetalLibraryCalls {
    static let floating: [(String, Int)] =
        [
            "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "cospi", "exp", "exp2", "exp10", "fabs", "abs",
            "floor", "fract", "log", "log2", "log10", "rint", "round", "rsqrt", "sin", "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi",
            "trunc", "asinpi", "acospi", "atanpi", "saturate", "sign", "length", "length_squared", "normalize", "dfdx", "dfdy", "fwidth",
        ].map { ($0, 1) }
        + [
            "atan2", "atan2pi", "copysign", "fdim", "fmax", "fmin", "fmod", "max", "min", "nextafter", "pow", "powr", "step",
            "distance", "distance_squared", "dot", "reflect", "divide",
        ].map { ($0, 2) }
        + [
            "clamp", "fma", "fmax3", "fmin3", "fmedian3", "max3", "min3", "median3", "mix", "smoothstep", "faceforward",
        ].map { ($0, 3) }

    /// Functions returning a scalar for any argument.
    static let reduces: Set<String> = ["length", "length_squared", "distance", "distance_squared", "dot"]

    static let integer: [(String, Int)] =
        [
            "abs", "clz", "ctz", "popcount", "reverse_bits",
        ].map { ($0, 1) } + ["absdiff", "hadd", "rhadd", "rotate", "max", "min", "mul24"].map { ($0, 2) }
        + ["clamp", "mad24", "max3", "min3", "median3"].map { ($0, 3) }
}
