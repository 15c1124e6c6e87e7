import SegueCore
import SegueMath
import SegueMedia
import SegueShaders
// Validates a transition the way gl-transitions contributors do: it has its Author and License
// header, it compiles, progress 0 shows `from` and progress 1 shows `to` (within 1/255), and every
// parameter it declares is used; and each stitchable function of a .metal file: it compiles, and
// as a transition shows `from` and `to`, or on one image draws.
import SegueSystem
import SegueVulkan

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The outcome of checking a transition.
public struct TransitionCheck: Sendable {
    /// One rule and whether the effect passes it.
    public struct Finding: Sendable, Equatable {
        /// The rule, e.g. "progress 0 shows from".
        public let rule: String
        /// Whether the effect passes.
        public let passed: Bool
        /// What was found (the largest difference, the unused names, the compiler's message …).
        public let detail: String
    }

    /// The effect checked.
    public let effect: Effect
    /// What was checked, in words: the effect's name, or a stitchable function's signature and
    /// how it ran (`half4 wave(float2 position, half4 color, float amount), as a transition`).
    public let subject: String
    /// The findings, in order.
    public let findings: [Finding]
    /// Whether every rule passed.
    public var passed: Bool { findings.allSatisfy(\.passed) }

    /// The largest channel difference allowed at progress 0 and 1 (in 1/255 steps).
    public static let tolerance = 1

    /// Checks `effect` on two generated, asymmetric 128×96 inputs (textures for `sampler2D`
    /// parameters are generated too). Rendering failures are findings, not errors.
    public init(effect: Effect, context: GPUContext) {
        self.init(effect, subject: effect.name, oneImage: nil, context: context)
    }

    /// Checks `effect`: a transition when `oneImage` is nil, else an effect drawn on one image
    /// (`oneImage` says how, in the finding), which has no `from` and `to` to show at 0 and 1.
    /// The header and unused-parameter rules are gl-transitions' and apply to `.glsl` files only.
    init(_ effect: Effect, subject: String, oneImage: String?, context: GPUContext) {
        self.effect = effect
        self.subject = subject
        var findings: [Finding] = []
        let metal = effect.kind == .stitchable
        if !metal {
            let header = [("Author", effect.author), ("License", effect.license)]
            let missing = header.filter { $0.1?.isEmpty ?? true }.map { "// \($0.0):" }
            findings.append(
                Finding(
                    rule: "header names the author and the license", passed: missing.isEmpty,
                    detail: missing.isEmpty
                        ? "Author \(effect.author!), License \(effect.license!)"
                        : "missing \(missing.joined(separator: " and "))"))

            let unused = effect.parameters.map(\.name).filter { !Self.uses(effect.glsl ?? "", $0) }
            findings.append(
                Finding(
                    rule: "every parameter is used", passed: unused.isEmpty,
                    detail: unused.isEmpty
                        ? "\(effect.parameters.count) parameter(s)"
                        : "unused: \(unused.joined(separator: ", "))"))
        }

        let (width, height) = (128, 96)
        let from = Self.pattern(width: width, height: height, seed: 1)
        let to = Self.pattern(width: width, height: height, seed: 2)
        var textures: [String: Image] = [:]
        for (k, p) in effect.parameters.enumerated() where p.type == .sampler2D {
            textures[p.name] = Self.pattern(width: 64, height: 64, seed: 3 + k)
        }
        var compiled = false
        do {
            let renderer = try TransitionRenderer(
                effect: effect, from: from, to: to, textures: textures,
                context: context, framesInFlight: 1)
            compiled = true
            findings.append(Finding(rule: "compiles", passed: true, detail: metal ? "Metal → GLSL 450 → SPIR-V" : "GLSL 450 → SPIR-V"))
            if let oneImage {
                _ = try renderer.frame(progress: 0, time: 0, duration: effect.defaultDuration)
                findings.append(Finding(rule: "draws", passed: true, detail: oneImage))
                self.findings = findings
                return
            }
            for (progress, expected, name) in [(0.0, from, "from"), (1.0, to, "to")] {
                let frame = try renderer.frame(
                    progress: progress, time: progress * effect.defaultDuration,
                    duration: effect.defaultDuration)
                let (difference, x, y) = Self.largestDifference(frame, expected)
                var detail = difference == 0 ? "identical" : "largest difference \(difference)/255 at pixel (\(x), \(y))"
                if let (cx, cy) = Self.colourAboveAlpha(frame) {
                    detail += "; the colour exceeds the alpha at pixel (\(cx), \(cy)) (the output must be premultiplied: rgb ≤ a)"
                }
                if metal, difference > Self.tolerance {
                    detail +=
                        "; as a transition by default, the removed screen runs at effect value 0 → -1 and the inserted one at 1 → 0, so the function must leave a screen unchanged at 0 and hide it at 1 and -1; give --insertion and --removal ranges that fit it ('segue info' suggests some)"
                }
                findings.append(
                    Finding(
                        rule: "progress \(Int(progress)) shows \(name)", passed: difference <= Self.tolerance,
                        detail: detail))
            }
        } catch {
            findings.append(
                Finding(rule: compiled ? (oneImage == nil ? "renders" : "draws") : "compiles", passed: false, detail: "\(error)"))
        }
        self.findings = findings
    }

    /// Checks the effect file `path`: a `.glsl` transition by every rule, or each stitchable
    /// function of a `.metal` file (`FILE.metal:NAME`: the overloads of that name) as `segue info`
    /// takes it — a transition with the default configuration when it has a `float` to animate
    /// (it compiles, and shows `from` at 0 and `to` at 1), else on one image (it compiles and draws).
    /// The file is read first: `context` is asked for only when it parses, so that a file's error
    /// is reported on a machine without a GPU too.
    /// - Throws: `EffectLookupError` for a file that cannot be read or parsed, or of another kind;
    ///   what `context` throws.
    public static func checks(file path: String, context: () throws -> GPUContext) throws -> [TransitionCheck] {
        typealias Subject = (effect: Effect, subject: String, oneImage: String?)
        let subjects: [Subject]
        if EffectCatalog.stitchablePath(path) == nil {
            let effect = try EffectCatalog.load(path: path)
            subjects = [(effect, effect.name, nil)]
        } else {
            subjects = try EffectCatalog.stitchableFunctions(path).map { (f) throws(EffectLookupError) -> Subject in
                do throws(StitchableConfigurationError) {
                    let transition = f.runsAsTransition
                    let effect: Effect
                    if transition {
                        effect = try f.effect(source: .file(f.file))
                    } else {
                        effect = try f.imageEffect(source: .file(f.file))
                    }
                    let use = transition ? "as a transition" : f.kind == .fill ? "as a fill" : "on one image"
                    let oneImage = transition ? nil : f.kind == .fill ? "one frame, drawn alone" : "one frame, applied to an image"
                    return (effect, "\(f.signatureText), \(use)", oneImage)
                } catch {
                    throw .stitchable(path: f.file, message: error.message)
                }
            }
        }
        let gpu = try context()
        return subjects.map { TransitionCheck($0.effect, subject: $0.subject, oneImage: $0.oneImage, context: gpu) }
    }

    /// Whether `name` occurs as an identifier in `glsl` outside comments.
    static func uses(_ glsl: String, _ name: String) -> Bool {
        // An occurrence outside comments with no ASCII letter, digit or underscore right before or after it.
        let bytes = Array(GLSLComments.stripped(glsl).code.utf8), needle = Array(name.utf8)
        guard !needle.isEmpty, needle.count <= bytes.count else { return false }
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
            if i > 0, SourceIdentifier.isPart(byte: bytes[i - 1]) { continue }
            if i + needle.count < bytes.count, SourceIdentifier.isPart(byte: bytes[i + needle.count]) { continue }
            return true
        }
        return false
    }

    /// An opaque, asymmetric test pattern (gradients and a seed-dependent checker).
    static func pattern(width: Int, height: Int, seed: Int) -> Image {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                bytes[i] = UInt8((x * 255) / max(width - 1, 1))
                bytes[i + 1] = UInt8((y * 255) / max(height - 1, 1))
                bytes[i + 2] = ((x / (4 + seed)) + (y / (3 + seed))) % 2 == 0 ? UInt8(40 * seed % 256) : 230
            }
        }
        return Image(width: width, height: height, premultipliedRGBA: bytes)
    }

    /// The largest channel difference between two images of the same size and where it is.
    /// Reads the bytes as they are: a rendered frame may hold colour above its alpha.
    static func largestDifference(_ a: Image, _ b: Image) -> (Int, Int, Int) {
        var worst = (0, 0, 0)
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                for i in 0..<min(p.count, q.count) {
                    let d = abs(Int(p[i]) - Int(q[i]))
                    if d > worst.0 { worst = (d, (i / 4) % a.width, (i / 4) / a.width) }
                }
            }
        }
        return worst
    }

    /// The first pixel whose colour exceeds its alpha (not premultiplied), if any.
    static func colourAboveAlpha(_ image: Image) -> (Int, Int)? {
        image.pixels.withUnsafeBufferPointer { p in
            for i in stride(from: 0, to: p.count - 3, by: 4) where max(p[i], p[i + 1], p[i + 2]) > p[i + 3] {
                return ((i / 4) % image.width, (i / 4) / image.width)
            }
            return nil
        }
    }
}
