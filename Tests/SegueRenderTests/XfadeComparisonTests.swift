// Every xfade equivalent compared with ffmpeg's own `xfade` frames on the same inputs, at three
// progress values, rendered on the Vulkan device (lavapipe in CI).
//
// Progress mapping. Inputs are 25 fps and the transition runs `offset=0:duration=1`, so xfade's
// duration is 25 frames and output frame k (0-based) is drawn with xfade's progress
// P = 1 − k/25 (xfade computes 1 − (pts − start)/duration in float; frame k = 0 is all `a`,
// k = 25 all `b`). Our progress runs the other way: frame k is our progress k/25, the same float.
// xfade works on planar RGB here (`format=gbrp` on both inputs), so nothing goes through YUV.
//
// The 12 transitions added to xfade after ffmpeg 5.1 (the covers, reveals and winds) are not in
// the installed ffmpeg: the covers and reveals are compared with `transition=custom` expressions
// that restate upstream's formulas (integer arithmetic, so exact), the winds with a CPU version of
// upstream's formula in `Float` (their hash needs float `sinf`, which xfade's double-precision
// expressions cannot reproduce). ffmpeg 5.1's `fadegrays` is broken for planar RGB (it blends
// towards uninitialised greys; two runs give different frames), so it too is compared with a
// custom expression of upstream's formula.
import Foundation
import Segue
import SegueTestSupport
import Testing

/// A frame size the comparison runs at: an even one, and an odd one that exercises xfade's
/// integer halving (`W / 2`). At the progress values used, P·W and P·H are never within float
/// rounding of an integer for either, so C's float → int truncation is unambiguous.
struct XfadeSize: Sendable, CustomTestStringConvertible {
    let width: Int, height: Int
    static let even = XfadeSize(width: 96, height: 64)
    static let odd = XfadeSize(width: 77, height: 45)
    var testDescription: String { "\(width)x\(height)" }
}

/// The inputs, the ffmpeg runs and the comparison.
enum XfadeReference {
    /// Frames per second of the inputs, and so frames per transition (duration 1 s).
    static let fps = 25
    /// Output frame indices compared; our progress is `k / fps`.
    static let frames = [6, 13, 19]

    /// Per-pixel tolerance, for every transition: every colour channel within this many 1/255
    /// steps…
    static let tolerance = 2
    /// …on at least this fraction of pixels.
    static let fraction = 0.99

    /// The noisy transitions (their look hangs on a hash of `sin`, where one ulp moves a pixel)
    /// must also keep the mean absolute difference under a bound, in 1/255 steps averaged over
    /// the pixels and the three colour channels.
    static let meanBounds: [String: Double] = ["dissolve": 0.5, "hlwind": 0.5, "hrwind": 0.5, "vuwind": 0.5, "vdwind": 0.5]

    /// `ffmpeg` on PATH, if any.
    static let ffmpeg: String? = {
        FileIO.findExecutable("ffmpeg")
    }()

    /// An opaque, asymmetric test picture: gradients (so a pixel of displacement shows), a
    /// checkerboard, and a disc off-centre.
    static func from(_ size: XfadeSize) -> Image {
        let (width, height) = (size.width, size.height)
        return Image(width: width, height: height) { x, y in
            let checker = ((x / 8) + (y / 8)) % 2 == 0
            let dx = x - 30, dy = y - 20
            let disc = dx * dx + dy * dy < 144
            return Pixel(UInt8(x * 255 / (width - 1)), disc ? 250 : UInt8(y * 200 / (height - 1)), checker ? 40 : 190)
        }
    }

    /// A second picture, different everywhere from `from`.
    static func to(_ size: XfadeSize) -> Image {
        let (width, height) = (size.width, size.height)
        return Image(width: width, height: height) { x, y in
            let stripe = (x + 2 * y) / 6 % 3
            let dx = x - 70, dy = y - 44
            let ring = abs(dx * dx + dy * dy - 225) < 60
            return Pixel(UInt8(255 - y * 255 / (height - 1)), ring ? 10 : UInt8(60 + stripe * 70), UInt8((x * 3 + y) % 256))
        }
    }

    /// Raw RGB24 data of an image, as ffmpeg's `rawvideo` reads it.
    static func rgb(_ image: Image) -> Data {
        var d = Data(capacity: image.width * image.height * 3)
        for y in 0..<image.height { for x in 0..<image.width { let p = image[x, y]; d.append(contentsOf: [p.r, p.g, p.b]) } }
        return d
    }

    // MARK: - ffmpeg

    /// `transition=NAME` or `transition=custom:expr=…` for the names ffmpeg 5.1 lacks.
    static func transitionOption(_ name: String) -> String {
        if let expr = customExpressions[name] { return "transition=custom:expr='\(expr)'" }
        return "transition=\(name)"
    }

    /// Upstream's cover and reveal formulas as xfade expressions: `trunc(±P·W)` is C's float → int
    /// conversion (P·W is never within float rounding of an integer at the progress values used).
    static let customExpressions: [String: String] = {
        func a(_ x: String, _ y: String) -> String { "if(eq(PLANE,0),a0(\(x),\(y)),if(eq(PLANE,1),a1(\(x),\(y)),a2(\(x),\(y))))" }
        func b(_ x: String, _ y: String) -> String { "if(eq(PLANE,0),b0(\(x),\(y)),if(eq(PLANE,1),b1(\(x),\(y)),b2(\(x),\(y))))" }
        func inRange(_ z: String, _ n: String) -> String { "gte(\(z),0)*lt(\(z),\(n))" }
        var e: [String: String] = [:]
        for (name, sign) in [("left", "-"), ("right", "")] {
            let zx = "(trunc(\(sign)P*W)+X)"
            e["cover" + name] = "if(\(inRange(zx, "W")),\(b(zx, "Y")),A)"
            // C: zz = zx % W + W·(zx < 0), for zx in (−W, 2W).
            e["reveal" + name] = "if(\(inRange(zx, "W")),B,\(a("\(zx)+W*lt(\(zx),0)-W*gte(\(zx),W)", "Y")))"
        }
        for (name, sign) in [("up", "-"), ("down", "")] {
            let zy = "(trunc(\(sign)P*H)+Y)"
            e["cover" + name] = "if(\(inRange(zy, "H")),\(b("X", zy)),A)"
            e["reveal" + name] = "if(\(inRange(zy, "H")),B,\(a("X", "\(zy)+H*lt(\(zy),0)-H*gte(\(zy),H)")))"
        }
        // fadegrays: ffmpeg 5.1's own reads uninitialised grays for planar RGB (its frames differ
        // from run to run), so upstream's formula is restated: grey = ⌊(r + g + b)/3⌋, phase 0.2f.
        func smoothstep(_ e0: String, _ e1: String) -> String {
            let t = "clip((P-\(e0))/(\(e1)-\(e0)),0,1)"
            return "(\(t)*\(t)*(3-2*\(t)))"
        }
        let (low, high) = ("0.20000000298023224", "0.800000011920929")
        let grayA = "floor((a0(X,Y)+a1(X,Y)+a2(X,Y))/3)", grayB = "floor((b0(X,Y)+b1(X,Y)+b2(X,Y))/3)"
        let s1 = smoothstep(high, "1"), s2 = smoothstep(low, "1")
        e["fadegrays"] = "(A*\(s1)+\(grayA)*(1-\(s1)))*P+(\(grayB)*\(s2)+B*(1-\(s2)))*(1-P)"
        return e
    }()

    /// ffmpeg's frames `frames` of the transition, in one run.
    static func ffmpegFrames(_ name: String, size: XfadeSize, ffmpeg: String) throws -> [Image] {
        let (width, height) = (size.width, size.height)
        let scratch = try TemporaryDirectory("xfade-" + name), dir = scratch.path
        let inputs = (from: dir + "/from.rgb", to: dir + "/to.rgb")
        guard FileManager.default.createFile(atPath: inputs.from, contents: rgb(from(size))),
            FileManager.default.createFile(atPath: inputs.to, contents: rgb(to(size)))
        else {
            throw SetupFailure("cannot write the inputs in \(dir)")
        }
        let out = dir + "/out.rgb"
        let input = [
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)", "-framerate", "\(fps)", "-stream_loop", "\(fps + 5)", "-i",
        ]
        let graph = "[0:v]format=gbrp[a];[1:v]format=gbrp[b];[a][b]xfade=\(transitionOption(name)):duration=1:offset=0,format=rgb24"
        let run = try ProgramRun(
            ffmpeg,
            ["-hide_banner", "-loglevel", "error", "-nostdin"] + input + [inputs.from] + input + [inputs.to]
                + ["-filter_complex", graph, "-frames:v", "\(fps + 1)", "-f", "rawvideo", "-y", out])
        guard run.status == 0, let data = FileManager.default.contents(atPath: out) else {
            throw SetupFailure("ffmpeg failed for \(name) (status \(run.status)): \(run.stderr)")
        }
        let frameSize = width * height * 3
        guard data.count >= frameSize * (frames.max()! + 1) else {
            throw SetupFailure("ffmpeg gave \(data.count / frameSize) frames for \(name)")
        }
        let bytes = [UInt8](data)
        return frames.map { k in
            Image(width: width, height: height) { x, y in
                let i = k * frameSize + (y * width + x) * 3
                return Pixel(bytes[i], bytes[i + 1], bytes[i + 2])
            }
        }
    }

    // MARK: - Winds on the CPU

    /// Upstream xfade's hlwind/hrwind/vuwind/vdwind in `Float`, as C evaluates them.
    static func windFrame(_ name: String, size: XfadeSize, P: Float) -> Image {
        let (width, height) = (size.width, size.height)
        let from = from(size), to = to(size)
        func frand(_ x: Int, _ y: Int) -> Float {
            let r: Float = sinf(Float(x) * 12.9898 + Float(y) * 78.233) * 43758.545
            return r - r.rounded(.down)
        }
        func smoothstep(_ e0: Float, _ e1: Float, _ x: Float) -> Float {
            let t = min(max((x - e0) / (e1 - e0), 0), 1)
            return t * t * (3 - 2 * t)
        }
        return Image(width: width, height: height) { x, y in
            let horizontal = name.hasPrefix("h")
            let r = horizontal ? frand(0, y) : frand(x, 0)
            let f: Float = horizontal ? Float(x) / Float(width) : Float(y) / Float(height)
            let reversed = name == "hlwind" || name == "vuwind"
            let fx: Float = reversed ? 1 - f : f
            let s = smoothstep(0, -0.2, fx * 0.8 + 0.2 * r - (1 - P) * 1.2)
            let a = from[x, y], b = to[x, y]
            // mix(b, a, s) = b·s + a·(1 − s), stored truncated.
            func mix(_ bv: UInt8, _ av: UInt8) -> UInt8 { UInt8(Float(bv) * s + Float(av) * (1 - s)) }
            return Pixel(mix(b.r, a.r), mix(b.g, a.g), mix(b.b, a.b))
        }
    }

    // MARK: - Ours and the comparison

    /// Our frames at progress `k / fps`.
    static func ourFrames(_ name: String, size: XfadeSize) throws -> [Image] {
        let renderer = try TransitionRenderer(
            effect: try EffectCatalog.effect(name), from: from(size), to: to(size), context: try TestGPU.context())
        return try frames.map { k in try renderer.frame(progress: Double(k) / Double(fps), time: Double(k) / Double(fps), duration: 1) }
    }

    /// Agreement of two frames over the colour channels.
    struct Agreement {
        /// Fraction of pixels with every colour channel within `tolerance`.
        var within: Double
        /// Mean absolute difference per channel, in 1/255 steps.
        var mean: Double
        /// Largest channel difference.
        var worst: Int
    }

    static func agreement(_ ours: Image, _ theirs: Image) -> Agreement {
        var within = 0, total = 0, worst = 0
        for y in 0..<ours.height {
            for x in 0..<ours.width {
                let a = ours[x, y], b = theirs[x, y]
                let d = [abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b))]
                if d.max()! <= tolerance { within += 1 }
                total += d.reduce(0, +)
                worst = max(worst, d.max()!)
            }
        }
        let n = Double(ours.width * ours.height)
        return Agreement(within: Double(within) / n, mean: Double(total) / (3 * n), worst: worst)
    }

    /// Compares, records a failure with ours/theirs/difference PNGs written to a temporary
    /// directory, and returns the agreement for reporting.
    @discardableResult
    static func check(
        _ name: String, size: XfadeSize, ours: [Image], theirs: [Image],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Agreement] {
        var result: [Agreement] = []
        for (i, k) in frames.enumerated() {
            let a = agreement(ours[i], theirs[i])
            result.append(a)
            let passed = a.within >= fraction && meanBounds[name].map { a.mean <= $0 } ?? true
            if ProcessInfo.processInfo.environment["SEGUE_XFADE_REPORT"] == "1" {
                print(
                    String(
                        format: "xfade %@ %@ k=%d: %.2f %% within %d, mean %.3f, worst %d", name, size.testDescription, k, a.within * 100,
                        tolerance, a.mean, a.worst))
            }
            guard !passed else { continue }
            let dir = NSTemporaryDirectory() + "segue-xfade-failures-\(getpid())"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let base = dir + "/\(name)-\(size.testDescription)-\(k)"
            try ImageFile.write(ours[i], to: base + "-ours.png")
            try ImageFile.write(theirs[i], to: base + "-theirs.png")
            let diff = Image(width: size.width, height: size.height) { x, y in
                let p = ours[i][x, y], q = theirs[i][x, y]
                let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
                let v = UInt8(min(255, d * 8))
                return Pixel(v, v, v)
            }
            try ImageFile.write(diff, to: base + "-difference.png")
            let need = "\(fraction * 100) % within \(tolerance)/255" + (meanBounds[name].map { " and mean difference ≤ \($0)" } ?? "")
            Issue.record(
                "\(name) at \(size.testDescription), progress \(k)/\(fps): \(String(format: "%.2f", a.within * 100)) % of pixels within \(tolerance)/255, mean difference \(String(format: "%.3f", a.mean)), worst \(a.worst); need \(need). Wrote \(base)-ours.png, -theirs.png and -difference.png",
                sourceLocation: sourceLocation)
        }
        return result
    }
}

@Suite("xfade equivalents against ffmpeg")
struct XfadeComparisonTests {
    static let winds: Set<String> = ["hlwind", "hrwind", "vuwind", "vdwind"]
    static let viaFFmpeg = EffectCatalog.xfadeNames.filter { !winds.contains($0) }

    @Test("all 58 xfade names are built-ins")
    func allNamed() throws {
        #expect(EffectCatalog.xfadeNames.count == 58)
        #expect(Set(EffectCatalog.xfadeNames).count == 58)
        for name in EffectCatalog.xfadeNames { #expect(EffectCatalog.builtIn(named: name) != nil, "\(name) missing") }
        #expect(EffectCatalog.builtIns(in: .xfade).count == 57)
        #expect(EffectCatalog.builtIn(named: "fade")?.family == .segue)
    }

    @Test(
        "frames match ffmpeg's xfade",
        .enabled(if: XfadeReference.ffmpeg != nil, "ffmpeg is not installed; install it to compare with xfade"),
        arguments: viaFFmpeg, [XfadeSize.even, .odd])
    func matchesFFmpeg(name: String, size: XfadeSize) throws {
        let theirs = try XfadeReference.ffmpegFrames(name, size: size, ffmpeg: XfadeReference.ffmpeg!)
        try XfadeReference.check(name, size: size, ours: try XfadeReference.ourFrames(name, size: size), theirs: theirs)
    }

    @Test("winds match upstream xfade's formula evaluated on the CPU", arguments: winds.sorted(), [XfadeSize.even, .odd])
    func windsMatchReference(name: String, size: XfadeSize) throws {
        let theirs = XfadeReference.frames.map { k in
            XfadeReference.windFrame(name, size: size, P: 1 - Float(k) / Float(XfadeReference.fps))
        }
        try XfadeReference.check(name, size: size, ours: try XfadeReference.ourFrames(name, size: size), theirs: theirs)
    }
}
