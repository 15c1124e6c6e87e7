// What a GLSL source's functions cost once inlined (see `InlinedTotals`): glslang and spirv-opt
// inline every call, and lavapipe compiles what they make, so a helper calling the one before
// twice doubles the code at each level (13 such helpers of one line each kept spirv-opt busy for
// over a minute, 16 took 2.8 GB), and texture reads cost lavapipe's compiler time growing faster
// than their number (100 reads 1.4 s to the first frame, 250 4 s, 500 14 s, 1,000 40 s or more).
//
// One pass over the expanded tokens finds the function definitions (a name, its parameter list
// and a body at the top level), and in each body counts its tokens, its texture reads (calls of
// `getFromColor`, `getToColor` and GLSL's texture functions) and its calls of other names.
import SegueMetal

/// The inlined size and texture reads of each function of a GLSL source.
struct GLSLCallCost {
    /// The most tokens a function may grow to once every call in it is inlined.
    static let maximumInlinedTokens = MetalChecker.maximumInlinedTokens
    /// The most texture reads a function may make, its helpers' counted at each call.
    /// (`transition` runs once a pixel; a stitchable function twice, so its limit is half.)
    static let maximumTextureReads = 2 * MetalChecker.maximumTextureReads

    /// GLSL's functions that read a texture, and the template's reading the two screens.
    static let readers: Set<String> = [
        "getFromColor", "getToColor", "texture", "textureLod", "textureGrad", "textureOffset", "textureLodOffset",
        "textureGradOffset", "textureProj", "textureProjLod", "textureProjOffset", "textureGather", "textureGatherOffset",
        "texelFetch", "texelFetchOffset",
    ]

    /// Each function's name token, in the order defined.
    private(set) var definitions: [MetalToken] = []
    private var tokens: [String: Int] = [:]
    private var reads: [String: Int] = [:]
    private var calls: [String: [String]] = [:]

    init(_ source: [MetalToken]) {
        var depth = 0, parentheses = 0
        var candidate: MetalToken?
        var current: String?
        for (k, t) in source.enumerated() {
            let next = k + 1 < source.count ? source[k + 1].text : nil
            switch t.text {
            case "(":
                parentheses += 1
            case ")":
                parentheses = max(parentheses - 1, 0)
            case "{":
                if depth == 0, k > 0, source[k - 1].text == ")", let name = candidate {
                    current = name.text
                    definitions.append(name)
                }
                depth += 1
            case "}":
                depth = max(depth - 1, 0)
                if depth == 0 { current = nil }
            default:
                if t.kind == .identifier, next == "(" {
                    // A definition's name, not a call in its parameter list (`float a[int(2)]`).
                    if depth == 0, parentheses == 0 { candidate = t }
                    if let current {
                        if Self.readers.contains(t.text) {
                            reads[current, default: 0] += 1
                        } else {
                            calls[current, default: []].append(t.text)
                        }
                    }
                }
            }
            if let current { tokens[current, default: 0] += 1 }
        }
    }

    /// Refuses a function that grows past `maximumInlinedTokens` or reads textures more than
    /// `maximumTextureReads` times once inlined, naming the first such in the file.
    func check(file: String) throws(ShaderSourceError) {
        let defined = Set(definitions.map(\.text))
        let graph = calls.mapValues { $0.filter(defined.contains) }
        let size = InlinedTotals.of(own: tokens, calls: graph)
        let read = InlinedTotals.of(own: reads, calls: graph)
        for name in definitions {
            if let n = size[name.text], n > Self.maximumInlinedTokens {
                throw ShaderSourceError(
                    file: file, line: name.line,
                    message: "'\(name.text)' grows to \(n) tokens once the functions it calls are inlined (each call copies its "
                        + "function); the limit is \(Self.maximumInlinedTokens): call helpers fewer times, or in a loop")
            }
            if let n = read[name.text], n > Self.maximumTextureReads {
                throw ShaderSourceError(
                    file: file, line: name.line,
                    message: "'\(name.text)' reads textures \(n) times (getFromColor, getToColor, texture…; a helper's reads count "
                        + "at each call); the limit is \(Self.maximumTextureReads): read in a loop (it counts once), or the driver "
                        + "may compile for minutes")
            }
        }
    }
}
