// `segue effect` (a colour, distortion or layer function, or a single-input GLSL effect, on one
// image at a time or over time), `--removal-function` with an In/Out pair, `--max-sample-offset 0`
// as libraries pass it, and what `segue info` says about such functions — against CPU formulas
// and exact pixels.
import Foundation
import Segue
import SegueTestSupport
import Testing

@Suite("segue effect and stitchable transitions from the command line")
struct EffectCLITests {
    static let effects = """
        #include <metal_stdlib>
        #include <SwiftUI/SwiftUI_Metal.h>
        using namespace metal;

        /// Washes the colour toward `tint` by `amount`, more toward the right, pulsing over time.
        [[ stitchable ]] half4 wash(float2 position, half4 color, float2 size, float time, half4 tint, float amount = 0.5) {
            float t = amount * (position.x / size.x) * (0.5 + 0.5 * cos(time * M_PI_F));
            return mix(color, tint * color.a, t);
        }

        /// Moves the image by `offset` points per second.
        [[ stitchable ]] float2 drift(float2 position, float2 offset, float time) {
            return position - offset * time;
        }

        /// Mirrors the layer left to right.
        [[ stitchable ]] half4 mirror(float2 position, SwiftUI::Layer layer, float2 size) {
            return layer.sample(float2(size.x - position.x, position.y));
        }

        /// A pair: the inserted view slides in from the right, the removed one out to the right.
        [[ stitchable ]] float2 pushIn(float2 position, float2 size, float amount) {
            return position + float2(size.x * amount, 0);
        }
        [[ stitchable ]] float2 pushOut(float2 position, float2 size, float amount) {
            return position - float2(size.x * amount, 0);
        }
        """

    static let invert = """
        // Description: Inverts the colours by strength × progress.
        // Duration: 2
        uniform float strength; // = 1
        vec4 transition(vec2 uv) {
          vec4 c = getFromColor(uv);
          return vec4(mix(c.rgb, 1.0 - c.rgb, strength * progress), c.a);
        }
        """

    /// A 8×4 image with distinct pixels.
    static let input = Image(width: 8, height: 4) { x, y in Pixel(UInt8(20 + 30 * x), UInt8(40 + 50 * y), UInt8(200 - 20 * x), 255) }

    /// A fresh directory with `input.png`, `effects.metal` and `invert.glsl`.
    static func workspace() throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory("cli")
        try ImageFile.write(input, to: scratch.file("input.png"))
        try effects.write(toFile: scratch.file("effects.metal"), atomically: true, encoding: .utf8)
        try invert.write(toFile: scratch.file("invert.glsl"), atomically: true, encoding: .utf8)
        return scratch
    }

    @Test(
        "a colour function at a time: size and time filled in, a colour argument given, a default argument used",
        arguments: [0.0, 0.5, 1.0])
    func colour(time: Double) throws {
        let workspace = try Self.workspace(), dir = workspace.path
        let r = try segue([
            "effect", "--input", dir + "/input.png", "--effect", dir + "/effects.metal:wash", "--arg", "tint=0,0,1,1",
            "--time", String(time), "-o", dir + "/out.png",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try ImageFile.read(path: dir + "/out.png")
        for y in 0..<4 {
            for x in 0..<8 {
                let c = Self.input[x, y]
                let t = 0.5 * ((Double(x) + 0.5) / 8) * (0.5 + 0.5 * cos(time * Double.pi))
                let expected = [Double(c.r) * (1 - t), Double(c.g) * (1 - t), Double(c.b) + (255 - Double(c.b)) * t]
                let got = [Double(image[x, y].r), Double(image[x, y].g), Double(image[x, y].b)]
                #expect(
                    zip(got, expected).allSatisfy { abs($0 - $1) <= 1 } && image[x, y].a == 255,
                    "pixel \(x),\(y) at \(time): \(got) vs \(expected)")
            }
        }
        // Without --arg tint the tint is transparent: the colour fades toward clear.
        let clear = try segue([
            "effect", "--input", dir + "/input.png", "--effect", dir + "/effects.metal:wash", "--time", "0", "-o", dir + "/clear.png",
        ])
        #expect(clear.status == 0, "\(clear.stderr)")
        let faded = try ImageFile.read(path: dir + "/clear.png")
        #expect(faded[7, 0].a == UInt8((255 * (1 - 0.5 * 7.5 / 8)).rounded()))
    }

    @Test("a distortion over time into a directory of frames: frame i at i/fps")
    func distortionOverTime() throws {
        let workspace = try Self.workspace(), dir = workspace.path
        let r = try segue([
            "effect", "--input", dir + "/input.png", "--effect", dir + "/effects.metal:drift", "--arg", "offset=4,2",
            "--duration", "1", "--fps", "2", "-o", dir + "/frames",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(listing(dir + "/frames") == ["frame-00000.png", "frame-00001.png", "frame-00002.png"])
        for (k, shift) in [(0, (0, 0)), (1, (2, 1)), (2, (4, 2))] {
            let image = try ImageFile.read(path: dir + "/frames/frame-0000\(k).png")
            for y in 0..<4 {
                for x in 0..<8 {
                    let sx = x - shift.0, sy = y - shift.1
                    #expect(image[x, y] == (sx >= 0 && sy >= 0 ? Self.input[sx, sy] : .clear), "frame \(k), pixel \(x),\(y)")
                }
            }
        }
    }

    @Test("a layer function with no float argument: info describes it, effect applies it")
    func layerWithoutFloat() throws {
        let workspace = try Self.workspace(), dir = workspace.path
        let r = try segue([
            "effect", "--input", dir + "/input.png", "--effect", dir + "/effects.metal:mirror", "--time", "0", "-o", dir + "/m.png",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try ImageFile.read(path: dir + "/m.png")
        for y in 0..<4 { for x in 0..<8 { #expect(image[x, y] == Self.input[7 - x, y], "pixel \(x),\(y)") } }
        let info = try segue(["info", dir + "/effects.metal:mirror"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.text.contains("  (no float argument: it cannot run as a transition)\n"))
        #expect(
            info.text.contains(
                "  on one image:    segue effect --input IMAGE --effect \(dir)/effects.metal:mirror --time 0 -o out.png\n"))
        let render = try segue([
            "frame", "--from", dir + "/input.png", "--to", dir + "/input.png", "--effect", dir + "/effects.metal:mirror",
            "--progress", "0.5", "-o", dir + "/f.png",
        ])
        #expect(render.status == 1)
        #expect(
            render.stderr
                == "error: \(dir)/effects.metal: 'mirror' has no float argument for a transition to animate; add one (e.g. 'float amount')\n"
        )
    }

    @Test("a single-input GLSL effect: progress is time / duration, parameters by --arg")
    func glslEffect() throws {
        let workspace = try Self.workspace(), dir = workspace.path
        for (args, amount) in [(["--time", "1"], 0.5), (["--time", "1", "--arg", "strength=0.5"], 0.25), (["--time", "5"], 1.0)] {
            let r = try segue(["effect", "--input", dir + "/input.png", "--effect", dir + "/invert.glsl"] + args + ["-o", dir + "/i.png"])
            #expect(r.status == 0, "\(r.stderr)")
            let image = try ImageFile.read(path: dir + "/i.png")
            for y in 0..<4 {
                for x in 0..<8 {
                    let c = Self.input[x, y]
                    let expected = [c.r, c.g, c.b].map { Double($0) + (255 - 2 * Double($0)) * amount }
                    let got = [image[x, y].r, image[x, y].g, image[x, y].b].map(Double.init)
                    #expect(zip(got, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(args): pixel \(x),\(y) \(got) vs \(expected)")
                }
            }
        }
    }

    @Test(
        "errors: one line, exit 1, no output written",
        arguments: [
            (
                ["--effect", "bulge", "--time", "0", "-o", "o.png"],
                "'bulge' is a mesh effect: apply it to an image with 'segue mesh IMAGE --mesh bulge'"
            ),
            (
                ["--effect", "effects.metal:wash", "--arg", "tnt=1", "--time", "0", "-o", "o.png"],
                "'wash' has no argument 'tnt'; its arguments are: size (float2), time (float), tint (half4), amount (float)"
            ),
            (
                ["--effect", "effects.metal:wash", "--arg", "tint=1,2", "--time", "0", "-o", "o.png"],
                "parameter 'tint' is a half4 with 4 components; got 2"
            ),
            (
                ["--effect", "invert.glsl", "--arg", "strength=auto", "--time", "0", "-o", "o.png"],
                "'auto' (for 'strength') applies to stitchable shader arguments; 'invert.glsl' is a GLSL effect whose 'time' and 'progress' are set already"
            ),
            (
                ["--effect", "effects.metal:wash", "--time", "0", "--duration", "1", "-o", "o.png"],
                "give exactly one of --time (an image) or --duration (an animation) (see 'segue effect --help')"
            ),
            (
                ["--effect", "effects.metal:drift", "--duration", "1", "-o", "o.png"],
                "cannot tell what to write to 'o.png': use a directory, '-' for raw frames on stdout, or a .mp4, .m4v, .mov, .mkv, .webm, .gif or .apng file"
            ),
            (
                ["--effect", "effects.metal", "--time", "0", "-o", "o.png"],
                "effects.metal: several stitchable functions (wash, drift, mirror, pushIn, pushOut); name one as effects.metal:NAME"
            ),
        ] as [([String], String)])
    func errors(args: [String], message: String) throws {
        let workspace = try Self.workspace(), dir = workspace.path
        let before = listing(dir)
        let r = try segue(["effect", "--input", "input.png"] + args, cwd: dir)
        #expect(r.status == 1)
        #expect(r.stderr == "error: \(message)\n")
        #expect(listing(dir) == before)
    }

    @Test(
        "--removal-function runs the other function of a pair on the removed view; info suggests it; --max-sample-offset 0 changes nothing")
    func removalFunction() throws {
        let workspace = try Self.workspace(), dir = workspace.path
        let to = Image(width: 8, height: 4) { x, y in Pixel(200, UInt8(10 + 20 * x), UInt8(30 * y), 255) }
        try ImageFile.write(to, to: dir + "/to.png")
        let base = [
            "frame", "--from", dir + "/input.png", "--to", dir + "/to.png", "--effect", dir + "/effects.metal:pushIn",
            "--insertion", "1:0", "--removal-function", "pushOut", "--removal", "0:1", "--progress", "0.5",
        ]
        let r = try segue(base + ["-o", dir + "/pair.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try ImageFile.read(path: dir + "/pair.png")
        // Inserted: samples x + 4 (left half shows to's right half); removed: samples x − 4.
        for y in 0..<4 { for x in 0..<8 { #expect(image[x, y] == (x < 4 ? to[x + 4, y] : Self.input[x - 4, y]), "pixel \(x),\(y)") } }
        let zero = try segue(base + ["--max-sample-offset", "0", "-o", dir + "/zero.png"])
        #expect(zero.status == 0, "\(zero.stderr)")
        #expect(try ImageFile.read(path: dir + "/zero.png") == image)
        let info = try segue(["info", dir + "/effects.metal:pushIn"])
        #expect(
            info.text.contains(
                "  as a transition: segue render --from A.png --to B.png --effect \(dir)/effects.metal:pushIn --animate amount --insertion 1:0 --removal-function pushOut --removal 0:1 -o out.mp4\n"
            ),
            "\(info.text)")
        let bad = try segue(base.dropLast(2) + ["--removal-function", "pushAway", "--progress", "0.5", "-o", dir + "/bad.png"])
        #expect(bad.status == 1)
        #expect(
            bad.stderr
                == "error: \(dir)/effects.metal: no [[ stitchable ]] function 'pushAway' (it has: wash, drift, mirror, pushIn, pushOut)\n")
    }

    @Test("info shows every argument's default for one image, from the source or zero")
    func infoDefaults() throws {
        let workspace = try Self.workspace(), dir = workspace.path
        let info = try segue(["info", dir + "/effects.metal:wash"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(
            info.text.contains("    time: float  — --arg time=VALUE (default 0); on one image: auto, the time in seconds\n"),
            "\(info.text)")
        #expect(info.text.contains("    tint: half4  — --arg tint=VALUE (default 0,0,0,0)\n"), "\(info.text)")
        #expect(
            info.text.contains(
                "    amount: float  — animated: insertion 1.0→0.0, removal 0.0→-1.0 (--animate, --insertion, --removal); on one image default 0.5, from the source\n"
            ),
            "\(info.text)")
    }
}

extension EffectCLITests {
    @Test("a function switched by #if defined(…) && LEVEL > 1 renders each branch: red with LEVEL 2, green with LEVEL 1, blue without SHOW")
    func conditionalFunction() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try ImageFile.write(Image(width: 8, height: 4, fill: .white), to: dir + "/in.png")
        for (defines, expected) in [
            ("#define SHOW_TILING\n#define LEVEL 2\n", Pixel(255, 0, 0, 255)),
            ("#define SHOW_TILING\n#define LEVEL (3 - 2)\n", Pixel(0, 255, 0, 255)),
            ("#define LEVEL 2\n", Pixel(0, 0, 255, 255)),
        ] {
            let source = """
                #include <metal_stdlib>
                #include <SwiftUI/SwiftUI_Metal.h>
                using namespace metal;
                \(defines)#ifdef SHOW_TILING
                #if LEVEL > 1
                half4 pick() { return half4(1, 0, 0, 1); }
                #else
                half4 pick() { return half4(0, 1, 0, 1); }
                #endif
                #elif !defined(SHOW_TILING)
                half4 pick() { return half4(0, 0, 1, 1); }
                #endif
                [[ stitchable ]] half4 tint(float2 position, half4 color) { return pick(); }
                """
            try source.write(toFile: dir + "/tiling.metal", atomically: true, encoding: .utf8)
            let r = try segue([
                "effect", "--input", dir + "/in.png", "--effect", dir + "/tiling.metal:tint", "--time", "0", "-o", dir + "/out.png",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let out = try ImageFile.read(path: dir + "/out.png")
            #expect(out[3, 2] == expected, "\(defines): \(out[3, 2])")
        }
    }
}

extension EffectCLITests {
    @Test(
        "a vector from a longer one takes its first components: half3(color) of a half4, float2(int4) converted; float4(float3) alone is still refused"
    )
    func truncatingConstructors() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try ImageFile.write(Image(width: 4, height: 2, fill: Pixel(200, 100, 50, 255)), to: dir + "/in.png")
        try """
        #include <metal_stdlib>
        #include <SwiftUI/SwiftUI_Metal.h>
        using namespace metal;
        [[ stitchable ]] half4 dim(float2 position, half4 color) {
            half3 rgb = half3(color) * 0.5h;
            float2 k = float2(int4(1, 0, 7, 9));
            return half4(rgb.r * half(k.x), rgb.g, rgb.b + half(k.y), color.a);
        }
        """.write(toFile: dir + "/v.metal", atomically: true, encoding: .utf8)
        try "[[ stitchable ]] half4 grow(float2 position, half4 color) { return half4(float4(float3(1.0))); }\n"
            .write(toFile: dir + "/g.metal", atomically: true, encoding: .utf8)
        let r = try segue(["effect", "--input", dir + "/in.png", "--effect", dir + "/v.metal:dim", "--time", "0", "-o", dir + "/out.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let p = try ImageFile.read(path: dir + "/out.png")[1, 1]
        #expect(abs(Int(p.r) - 100) <= 1 && abs(Int(p.g) - 50) <= 1 && abs(Int(p.b) - 25) <= 1 && p.a == 255, "\(p)")
        let refused = try segue([
            "effect", "--input", dir + "/in.png", "--effect", dir + "/g.metal:grow", "--time", "0", "-o", dir + "/grow.png",
        ])
        #expect(refused.status == 1 && refused.stderr.contains("g.metal:1: cannot construct a float4 from (float3)"), "\(refused.stderr)")
    }
}

extension EffectCLITests {
    static let fills = """
        #include <metal_stdlib>
        #include <SwiftUI/SwiftUI_Metal.h>
        using namespace metal;
        /// x across the shape in red, y down it in blue, green pulsing with the time.
        [[ stitchable ]] half4 pulse(float2 position, float4 bounds, float iTime) {
            return half4(half(position.x / bounds.z), half(0.5 + 0.5 * sin(iTime)), half(position.y / bounds.w), 1.0h);
        }
        /// Half-transparent red, premultiplied.
        [[ stitchable ]] half4 veil(float2 position) { return half4(0.5h, 0.0h, 0.0h, 0.5h); }
        """

    /// What `pulse` gives at pixel (x, y) of a w×h image at time t, 0…255 (pixel centres, as SwiftUI's position).
    private static func pulse(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ t: Double) -> (Double, Double, Double) {
        ((Double(x) + 0.5) / Double(w) * 255, (0.5 + 0.5 * sin(t)) * 255, (Double(y) + 0.5) / Double(h) * 255)
    }

    @Test(
        "a fill (half4 f(float2 position, …)) drawn alone with --size equals its formula at two times; iTime follows the time; frames over time; refusals"
    )
    func fillAlone() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try Self.fills.write(toFile: dir + "/fills.metal", atomically: true, encoding: .utf8)
        for t in [0.0, 1.25] {
            let out = dir + "/pulse-\(t).png"
            let r = try segue(["effect", "--effect", dir + "/fills.metal:pulse", "--size", "40x20", "--time", String(t), "-o", out])
            #expect(r.status == 0, "\(r.stderr)")
            let image = try ImageFile.read(path: out)
            #expect(image.width == 40 && image.height == 20)
            var worst = 0.0
            for y in 0..<20 {
                for x in 0..<40 {
                    let (r, g, b) = Self.pulse(x, y, 40, 20, t), p = image[x, y]
                    worst = max(worst, abs(Double(p.r) - r), abs(Double(p.g) - g), abs(Double(p.b) - b), abs(Double(p.a) - 255))
                }
            }
            #expect(worst <= 2, "largest difference from the formula at t=\(t): \(worst)/255")
        }
        // Over time: frames 0…round(1·4) in a directory, the green following sin(t).
        let frames = try segue([
            "effect", "--effect", dir + "/fills.metal:pulse", "--size", "8x4", "--duration", "1", "--fps", "4", "-o", dir + "/frames",
        ])
        #expect(frames.status == 0, "\(frames.stderr)")
        #expect(listing(dir + "/frames").count == 5)
        let last = try ImageFile.read(path: dir + "/frames/frame-00004.png")[3, 1]
        #expect(abs(Double(last.g) - (0.5 + 0.5 * sin(1.0)) * 255) <= 2, "\(last)")
        // Refusals: neither --input nor --size; both; --size for an effect that is not a fill.
        for (args, message) in [
            ([] as [String], "give the image with --input (or, for a fill, its size with --size WxH)"),
            (["--size", "8x4", "--input", dir + "/pulse-0.0.png"], "--size is the size of a fill drawn alone"),
            (["--size", "0x4"], "--size"),
        ] {
            let r = try segue(["effect", "--effect", dir + "/fills.metal:pulse", "--time", "0", "-o", dir + "/x.png"] + args)
            #expect(r.status == 1 && r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        let notFill = try segue(["effect", "--effect", "fade", "--size", "8x4", "--time", "0", "-o", dir + "/x.png"])
        #expect(notFill.status == 1 && notFill.stderr.contains("'fade' is not a fill"), "\(notFill.stderr)")
        let info = try segue(["info", dir + "/fills.metal:pulse"])
        #expect(
            info.text.contains("shader:   fill function 'pulse'")
                && info.text.contains("iTime: float  — auto: the time in seconds"), "\(info.text)")
    }

    @Test("a fill with --input is drawn over the image (premultiplied source-over, as SwiftUI's .overlay)")
    func fillOverImage() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try Self.fills.write(toFile: dir + "/fills.metal", atomically: true, encoding: .utf8)
        try ImageFile.write(Image(width: 6, height: 3, fill: Pixel(0, 200, 100, 255)), to: dir + "/in.png")
        let r = try segue([
            "effect", "--input", dir + "/in.png", "--effect", dir + "/fills.metal:veil", "--time", "0", "-o", dir + "/out.png",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        // 0.5 red over (0, 200, 100): (0.5·255 + 0, 0 + 200·0.5, 0 + 100·0.5), opaque.
        let p = try ImageFile.read(path: dir + "/out.png")[2, 1]
        #expect(abs(Int(p.r) - 128) <= 1 && abs(Int(p.g) - 100) <= 1 && abs(Int(p.b) - 50) <= 1 && p.a == 255, "\(p)")
    }
}

extension EffectCLITests {
    static let overloads = """
        #include <metal_stdlib>
        #include <SwiftUI/SwiftUI_Metal.h>
        using namespace metal;
        /// Tints the image toward red.
        [[ stitchable ]] half4 tint(float2 position, half4 color, float amount) {
            return half4(mix(color.rgb, half3(1, 0, 0) * color.a, half(amount)), color.a);
        }
        /// Red at `amount`, premultiplied: a fill.
        [[ stitchable ]] half4 tint(float2 position, float amount) { return half4(half(amount), 0, 0, half(amount)); }
        """

    @Test("overloads: the use picks one (an image: the colour function; alone: the fill), NAME(types) names one, segue info lists each")
    func overloadedFunctions() throws {
        let scratch = try TemporaryDirectory("cli"), dir = scratch.path
        try Self.overloads.write(toFile: dir + "/over.metal", atomically: true, encoding: .utf8)
        try ImageFile.write(Image(width: 8, height: 4, fill: Pixel(0, 0, 255, 255)), to: dir + "/in.png")
        func pixel(_ args: [String]) throws -> Pixel {
            let r = try segue(["effect", "--time", "0", "-o", dir + "/out.png"] + args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            return try ImageFile.read(path: dir + "/out.png")[3, 2]
        }
        let spec = dir + "/over.metal:tint"
        // On the blue image the colour function mixes halfway to red; alone the fill is red at 0.5 alpha.
        let onImage = try pixel(["--input", dir + "/in.png", "--effect", spec, "--arg", "amount=0.5"])
        #expect(abs(Int(onImage.r) - 128) <= 1 && onImage.g == 0 && abs(Int(onImage.b) - 128) <= 1 && onImage.a == 255, "\(onImage)")
        let alone = try pixel(["--size", "8x4", "--effect", spec, "--arg", "amount=0.5"])
        // (Pixels read back are premultiplied: red at alpha 0.5 is (128, 0, 0, 128).)
        #expect(abs(Int(alone.r) - 128) <= 1 && alone.g == 0 && alone.b == 0 && abs(Int(alone.a) - 128) <= 1, "\(alone)")
        // Named by its types: the fill drawn over the image (0.5 red over blue).
        let typed = try pixel(["--input", dir + "/in.png", "--effect", spec + "(float)", "--arg", "amount=0.5"])
        #expect(abs(Int(typed.r) - 128) <= 1 && abs(Int(typed.b) - 128) <= 1 && typed.a == 255, "\(typed)")
        let none = try segue(["effect", "--size", "8x4", "--effect", spec + "(int)", "--time", "0", "-o", dir + "/x.png"])
        #expect(
            none.status == 1
                && none.stderr.contains(
                    "no overload of 'tint' takes (int); it has: half4 tint(float2 position, half4 color, float amount); half4 tint(float2 position, float amount)"
                ),
            "\(none.stderr)")
        let info = try segue(["info", spec])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(
            info.text.contains("overloads: 2")
                && info.text.contains("half4 tint(float2 position, half4 color, float amount)  — colour, line 5")
                && info.text.contains("half4 tint(float2 position, float amount)  — fill, line 9")
                && info.text.contains("--effect \(spec)(float) --size WxH"), "\(info.text)")
        // As a transition the colour function is the one that can run.
        try writeInputs(dir)
        let transition = try segue([
            "frame", "--from", dir + "/from.png", "--to", dir + "/to.png", "--effect", spec, "--progress", "0.5", "-o", dir + "/t.png",
        ])
        #expect(transition.status == 0, "\(transition.stderr)")

        // An overload SwiftUI could not call: listed by info with why; the use no longer picks
        // among the others without a word; named by types, a usable one still runs.
        try (Self.overloads + "\n[[ stitchable ]] half4 tint(float2 position, half4 color, int steps) { return color; }\n").write(
            toFile: dir + "/over.metal", atomically: true, encoding: .utf8)
        let listed = try segue(["info", spec])
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("  overloads: 3 (name one as \(dir)/over.metal:NAME(types after position))"), "\(listed.text)")
        #expect(
            lines.contains(
                "    tint(half4, int)  — cannot be used, line \(Self.overloads.split(separator: "\n", omittingEmptySubsequences: false).count + 1): "
                    + "unsupported stitchable argument type: 'int' of 'steps' (arguments are float, half, float2–4, half2–4 or texture2d<half>)"
            ),
            "\(listed.text)")
        let picked = try segue(["effect", "--input", dir + "/in.png", "--effect", spec, "--time", "0", "-o", dir + "/p.png"])
        // The usable overloads are offered, the one that fits an image (the colour function) first.
        #expect(
            picked.status == 1 && picked.stderr.contains("'tint' has an overload that cannot be used (tint(half4, int) at line "),
            "\(picked.stderr)")
        #expect(
            picked.stderr.hasSuffix(
                ": name the one to use by the types after position, as \(spec)(half4,float) or \(spec)(float)\n"), "\(picked.stderr)"
        )
        #expect(!FileManager.default.fileExists(atPath: dir + "/p.png"))
        _ = try pixel(["--input", dir + "/in.png", "--effect", spec + "(half4,float)", "--arg", "amount=0.5"])
    }
}
