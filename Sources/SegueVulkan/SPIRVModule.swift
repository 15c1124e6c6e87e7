// Structural checks on SPIR-V words (SPIR-V specification 1.6, sections 2.3 "Physical Layout"
// and 3.32 "Instructions"): the header, the instruction stream, and the private memory a shader
// declares.
//
// Private memory: lavapipe compiles every Function/Private variable into registers or stack,
// so a shader declaring `float a[100000000];` makes pipeline creation run for minutes. Before a
// module reaches the driver, the sizes of its Function and Private variables are computed from
// the type declarations (OpTypeInt/Float/Bool/Vector/Matrix/Array/Struct, array lengths from
// OpConstant) and a module over `maxArrayElements` elements in one array or `maxPrivateBytes`
// in all is refused.

/// Reads just enough of a SPIR-V module to validate it before it reaches a driver.
enum SPIRVModule {
    static let magic: UInt32 = 0x0723_0203
    /// SPIR-V's universal limit on the id bound (specification 2.17). An optimised module's bound
    /// can exceed its word count (ids of removed instructions stay retired).
    static let maxIdBound: UInt32 = 4_194_303
    /// The most elements one array in Function or Private storage may have.
    static let maxArrayElements = 65_536
    /// The most bytes all Function and Private variables together may take.
    static let maxPrivateBytes = 1 << 20

    /// Each instruction after the header: where it starts, its opcode and its word count (up to
    /// the first that does not fit, in a module that is not well formed).
    static func instructions(_ words: [UInt32]) -> [(at: Int, op: UInt32, count: Int)] {
        var list: [(at: Int, op: UInt32, count: Int)] = []
        var i = 5
        while i < words.count {
            let count = Int(words[i] >> 16)
            guard count > 0, i + count <= words.count else { break }
            list.append((i, words[i] & 0xffff, count))
            i += count
        }
        return list
    }

    /// Whether a well-formed module divides signed integers (OpSDiv, OpSRem, OpSMod: GLSL's `/`
    /// and `%` on `int`s and `ivec`s) by anything but constants other than −1: spirv-opt folds a
    /// division whose operands it can prove on the host, where INT_MIN / −1 raises SIGFPE (see
    /// `ShaderCompiler`). A divisor written as a constant (`n / 10`, `ivec2(2, 2)`) is safe.
    static func mayDivideByMinusOne(_ words: [UInt32]) -> Bool {
        var scalars: [UInt32: UInt32] = [:]
        var composites: [UInt32: [UInt32]] = [:]
        var divisors: [UInt32] = []
        for (i, op, count) in instructions(words) {
            switch op {
            case 43 where count >= 4: scalars[words[i + 2]] = words[i + 3]  // OpConstant (its low word)
            case 44 where count >= 3, 80 where count >= 3:  // OpConstantComposite, OpCompositeConstruct
                composites[words[i + 2]] = Array(words[(i + 3)..<(i + count)])
            case 135 where count >= 5, 138 where count >= 5, 139 where count >= 5:  // OpSDiv, OpSRem, OpSMod
                divisors.append(words[i + 4])
            default: break
            }
        }
        func isSafe(_ id: UInt32, depth: Int) -> Bool {
            if let value = scalars[id] { return value != 0xffff_ffff }
            guard depth < 4, let parts = composites[id] else { return false }
            return parts.allSatisfy { isSafe($0, depth: depth + 1) }
        }
        return divisors.contains { !isSafe($0, depth: 0) }
    }

    /// Whether `words` has a valid header (magic, a 1.x version word, 0 < id bound ≤ 4,194,303,
    /// schema 0) and an instruction stream whose word counts tile the module exactly.
    static func isWellFormed(_ words: [UInt32]) -> Bool {
        guard words.count >= 5, words[0] == magic else { return false }
        let version = words[1]
        guard version & 0xff00_00ff == 0, (version >> 16) & 0xff == 1, (version >> 8) & 0xff <= 6 else { return false }
        guard words[3] > 0, words[3] <= maxIdBound, words[4] == 0 else { return false }
        var i = 5
        while i < words.count {
            let count = Int(words[i] >> 16)
            guard count > 0, i + count <= words.count else { return false }
            i += count
        }
        return true
    }

    /// What the module's Function and Private variables need.
    struct PrivateMemory: Equatable {
        /// Elements of the largest array (nested arrays multiply).
        var largestArray = 0
        /// Bytes of all variables together.
        var bytes = 0
    }

    /// The private memory a well-formed module declares (sizes saturate rather than overflow).
    static func privateMemory(_ words: [UInt32]) -> PrivateMemory {
        var types: [UInt32: (bytes: Int, elements: Int)] = [:]
        var constants: [UInt32: Int] = [:]
        var pointers: [UInt32: (storage: UInt32, type: UInt32)] = [:]
        var result = PrivateMemory()
        func mul(_ a: Int, _ b: Int) -> Int { let (p, o) = a.multipliedReportingOverflow(by: b); return o ? Int.max : p }
        func add(_ a: Int, _ b: Int) -> Int { let (s, o) = a.addingReportingOverflow(b); return o ? Int.max : s }
        var i = 5
        while i < words.count {
            let count = Int(words[i] >> 16), op = words[i] & 0xffff
            guard count > 0, i + count <= words.count else { break }
            let w = words[i..<(i + count)].map { $0 }
            switch op {
            case 20 where count >= 2:  // OpTypeBool
                types[w[1]] = (4, 0)
            case 21 where count >= 3, 22 where count >= 3:  // OpTypeInt, OpTypeFloat
                types[w[1]] = (max(1, Int(w[2]) / 8), 0)
            case 23 where count >= 4, 24 where count >= 4:  // OpTypeVector, OpTypeMatrix
                let e = types[w[2]] ?? (0, 0)
                types[w[1]] = (mul(e.bytes, Int(w[3])), e.elements)
            case 28 where count >= 4:  // OpTypeArray
                let e = types[w[2]] ?? (0, 0)
                let n = constants[w[3]] ?? 0
                types[w[1]] = (mul(e.bytes, n), mul(max(e.elements, 1), n))
            case 30 where count >= 2:  // OpTypeStruct
                var bytes = 0, elements = 0
                for m in w.dropFirst(2) {
                    let t = types[m] ?? (0, 0)
                    bytes = add(bytes, t.bytes)
                    elements = max(elements, t.elements)
                }
                types[w[1]] = (bytes, elements)
            case 32 where count >= 4:  // OpTypePointer
                pointers[w[1]] = (w[2], w[3])
            case 43 where count >= 4, 50 where count >= 4:  // OpConstant, OpSpecConstant (low word)
                constants[w[2]] = Int(w[3])
            case 59 where count >= 4:  // OpVariable
                if let p = pointers[w[1]], p.storage == 6 || p.storage == 7, let t = types[p.type] {  // Private, Function
                    result.bytes = add(result.bytes, t.bytes)
                    result.largestArray = max(result.largestArray, t.elements)
                }
            default:
                break
            }
            i += count
        }
        return result
    }

    /// Throws when the module's private memory exceeds the limits.
    static func checkPrivateMemory(_ words: [UInt32], fileName: String) throws(VulkanError) {
        let m = privateMemory(words)
        if m.largestArray > maxArrayElements {
            throw .shaderTooLarge(
                file: fileName, detail: "an array of \(m.largestArray) elements, more than the limit of \(maxArrayElements)")
        }
        if m.bytes > maxPrivateBytes {
            throw .shaderTooLarge(
                file: fileName,
                detail: "\(m.bytes) bytes of local and global variables, more than the limit of \(maxPrivateBytes) bytes (1 MiB)")
        }
    }
}
