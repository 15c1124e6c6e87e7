// Limits on the shape of a file that the checker enforces where they cost nothing to check, so
// that no file `segue info` accepts makes the translator, the GLSL compiler or the driver run
// for minutes or take gigabytes:
//
// - A type holds at most `maximumValues` scalars (`float k[4096][4096]` is 16 million) and an
//   array has at most `maximumArrayDimensions` dimensions: the zero value of a type is written
//   out in full in the GLSL, and glslang copies values element by element.
// - Structs nest at most `maximumStructNesting` levels (a struct of two structs of two structs …
//   doubles at each level; glslang's work on it grows with the doubling).
// - Arrays given values in the source (`constant float k[N] = {…}`, `= {}`, a struct with an
//   array member built with `S{…}`) hold at most `maximumInitializedElements` elements each and
//   `maximumInitializedElementsPerFile` in all: lavapipe turns such an array, read with an index
//   known only at run time, into code whose compile time grows faster than its length (measured
//   on a 32×32 frame: one array of 256 elements 1.5 s, of 512 6–10 s, of 1024 30 s, of 4096
//   minutes; four of 256 7 s, four of 512 74 s).
// - A stitchable function reads textures and layers (`sample`, `read`) at most
//   `maximumTextureReads` times, a helper's reads counted at each call (the driver inlines
//   helpers): lavapipe's compile time grows faster than the number of reads (measured on a 64×48
//   frame, two cores shared with other work: 150 layer samples 2.9 s, 300 8.5 s, 600 27 s, 900
//   over a minute; a transition runs the function twice, so 256 reads there took 16 s of CPU).
//   A read in a loop counts once.
import SegueCore

extension MetalChecker {
    /// The most scalar values one type may hold.
    package static let maximumValues = 65_536
    /// The most dimensions of one array.
    static let maximumArrayDimensions = 8
    /// The deepest nesting of structs in structs (a struct of scalars is 1).
    package static let maximumStructNesting = 16
    /// The most elements of one array given values in the source.
    package static let maximumInitializedElements = 256
    /// The most elements of all arrays given values in one file.
    package static let maximumInitializedElementsPerFile = 1_024

    /// The most texture and layer reads of one stitchable function, its helpers' included (a
    /// transition runs the function twice, for the inserted and the removed screen: 256 reads).
    package static let maximumTextureReads = 128
    /// The most tokens a function may grow to once every call in it is inlined (a `.glsl`
    /// file's limit: the GLSL made from Metal is about as long as the Metal).
    package static let maximumInlinedTokens = 65_536

    /// Counts a texture or layer read in the function being checked.
    mutating func countTextureRead() {
        if let f = current?.glsl { textureReads[f, default: 0] += 1 }
    }

    /// Refuses a function that grows past `maximumInlinedTokens` once inlined, and a stitchable
    /// function that reads textures and layers more than `maximumTextureReads` times, counting
    /// each call of a helper as the helper's reads (the call graph has no cycle:
    /// `checkRecursion` ran).
    func checkInlinedCost() throws(ShaderSourceError) {
        let graph = calls.mapValues { $0.map(\.callee) }
        let size = InlinedTotals.of(own: bodyTokens, calls: graph)
        // In the order written, so the helper that grows too large is the one named.
        for (name, overloads) in functions.sorted(by: { ($0.value.first?.line ?? 0) < ($1.value.first?.line ?? 0) }) {
            for f in overloads {
                if let n = size[f.glsl], n > Self.maximumInlinedTokens {
                    throw error(
                        "'\(name)' grows to \(n) tokens once the functions it calls are inlined (each call copies its function); "
                            + "the limit is \(Self.maximumInlinedTokens): call helpers fewer times, or in a loop", f.line)
                }
            }
        }
        let totals = InlinedTotals.of(own: textureReads, calls: graph)
        for f in stitchable where totals[f.glsl, default: 0] > Self.maximumTextureReads {
            throw error(
                "'\(f.name)' reads textures and layers \(totals[f.glsl, default: 0]) times (a helper's reads count at each call); the limit is "
                    + "\(Self.maximumTextureReads): read in a loop (it counts once), or the driver may compile for minutes",
                f.line)
        }
    }

    /// `a * b`, or `Int.max` when that overflows.
    package static func saturatingProduct(_ a: Int, _ b: Int) -> Int {
        let (p, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : p
    }

    /// `a + b`, or `Int.max` when that overflows.
    package static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (s, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : s
    }

    /// The scalar values a value of type `t` holds (saturating).
    func valueCount(_ t: MetalType) -> Int {
        switch t {
        case let .vector(_, n): n
        case let .matrix(_, c, r): c * r
        case let .structure(name): structs[name]?.values ?? 1
        case let .array(e, n): Self.saturatingProduct(valueCount(e), n)
        default: 1
        }
    }

    /// The array elements in a value of type `t`, arrays of arrays multiplied out (0 when it
    /// has no array).
    func arrayElements(_ t: MetalType) -> Int {
        switch t {
        case let .structure(name): structs[name]?.arrayElements ?? 0
        case let .array(e, n): Self.saturatingProduct(max(arrayElements(e), 1), n)
        default: 0
        }
    }

    /// How deeply structs nest in `t` (0 for a type without one).
    func structNesting(_ t: MetalType) -> Int {
        switch t {
        case let .structure(name): structs[name]?.nesting ?? 1
        case let .array(e, _): structNesting(e)
        default: 0
        }
    }

    /// Checks a declared type against `maximumValues`.
    func checkSize(_ t: MetalType, of name: MetalToken) throws(ShaderSourceError) {
        let values = valueCount(t)
        guard values <= Self.maximumValues else {
            throw error(
                "'\(name.text)' is too large: its type '\(t.metal)' holds \(values == Int.max ? "billions of" : "\(values)") values, "
                    + "more than the limit of \(Self.maximumValues)", name.line)
        }
    }

    /// Counts the array elements of a value of `type` written in the source (an initialiser or a
    /// struct built from its members) against the limits for one array and for the file.
    mutating func countInitializedElements(_ type: MetalType, at token: MetalToken) throws(ShaderSourceError) {
        let elements = arrayElements(type)
        guard elements > 0 else { return }
        guard elements <= Self.maximumInitializedElements else {
            throw error(
                "an initialiser of '\(type.metal)' gives \(elements) array elements values; the limit is "
                    + "\(Self.maximumInitializedElements) (GPU drivers compile large constant arrays slowly: use a texture "
                    + "argument for a table, or compute the values)", token.line)
        }
        initializedElements = Self.saturatingSum(initializedElements, elements)
        guard initializedElements <= Self.maximumInitializedElementsPerFile else {
            throw error(
                "the arrays initialised in this file have more than \(Self.maximumInitializedElementsPerFile) elements "
                    + "in all (GPU drivers compile large constant arrays slowly: use a texture argument for a table, or compute the values)",
                token.line)
        }
    }
}
