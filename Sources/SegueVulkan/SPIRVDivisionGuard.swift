// Signed integer division made total before a driver sees it. INT_MIN / −1 (and % −1) has no
// 32-bit result, and a compiler that folds it on the host divides in C and raises SIGFPE: spirv-opt
// did (`ShaderCompiler` keeps such modules from it), and lavapipe's NIR does too, for a vector
// divisor it can prove (`ivec2(INT_MIN) / ivec2(-1, 3)`), where no error handling can catch it.
//
// So in a module that may divide by −1 (`SPIRVModule.mayDivideByMinusOne`), every 32- and
// 64-bit OpSDiv, OpSRem and OpSMod `r = a ÷ b` becomes
//     m = (b == −1);  b' = m ? 1 : b;  q = a ÷ b';  r = m ? −a : q   (OpSDiv)
//                                                 r = m ? 0 : q    (OpSRem, OpSMod)
// which gives what the hardware gives (−INT_MIN wraps to INT_MIN; x % −1 is 0) and leaves no
// division by −1 to fold. The result keeps its id, so its decorations stay. Types and constants
// the rewrite needs are declared before the first function, reusing the module's bool types
// (SPIR-V forbids declaring one twice).

/// Rewrites signed divisions of a SPIR-V module as described in the file comment.
enum SPIRVDivisionGuard {
    /// `words` with every 32- and 64-bit signed division guarded, or unchanged when it has none; nil when
    /// the rewrite would pass SPIR-V's id bound.
    static func guarded(_ words: [UInt32]) -> [UInt32]? {
        guard SPIRVModule.isWellFormed(words) else { return nil }
        var ints: [UInt32: UInt32] = [:]  // OpTypeInt id → width
        var vectors: [UInt32: (component: UInt32, count: UInt32)] = [:]
        var boolType: UInt32?
        var boolVectors: [UInt32: UInt32] = [:]  // count → id
        var firstFunction: Int?
        var divisions: [Int] = []
        let instructions = SPIRVModule.instructions(words)
        for (i, op, count) in instructions {
            switch op {
            case 20 where count >= 2: boolType = words[i + 1]
            case 21 where count >= 3: ints[words[i + 1]] = words[i + 2]
            case 23 where count >= 4: vectors[words[i + 1]] = (words[i + 2], words[i + 3])
            case 54 where firstFunction == nil: firstFunction = i
            case 135 where count == 5, 138 where count == 5, 139 where count == 5: divisions.append(i)
            default: break
            }
        }
        for (id, v) in vectors where v.component == boolType { boolVectors[v.count] = id }
        guard !divisions.isEmpty, let insertAt = firstFunction else { return words }

        var bound = words[3]
        func newID() -> UInt32 {
            defer { bound += 1 }
            return bound
        }
        var declarations: [UInt32] = []
        func instruction(_ op: UInt32, _ operands: [UInt32]) -> [UInt32] { [UInt32(operands.count + 1) << 16 | op] + operands }
        func boolFor(_ count: UInt32?) -> UInt32 {
            let scalar =
                boolType
                ?? {
                    let id = newID()
                    declarations += instruction(20, [id])
                    boolType = id
                    return id
                }()
            guard let count else { return scalar }
            if let id = boolVectors[count] { return id }
            let id = newID()
            declarations += instruction(23, [id, scalar, count])
            boolVectors[count] = id
            return id
        }
        /// Constants −1, 1 and 0 of a type, declared once each (a 64-bit one in two words, low first).
        var constants: [UInt32: (minusOne: UInt32, one: UInt32, zero: UInt32)] = [:]
        func constantsOf(_ type: UInt32, scalar: UInt32, count: UInt32?) -> (minusOne: UInt32, one: UInt32, zero: UInt32) {
            if let known = constants[type] { return known }
            let values: [[UInt32]] =
                ints[scalar] == 64 ? [[0xffff_ffff, 0xffff_ffff], [1, 0], [0, 0]] : [[0xffff_ffff], [1], [0]]
            let scalars = values.map { value -> UInt32 in
                let id = newID()
                declarations += instruction(43, [scalar, id] + value)
                return id
            }
            var ids = scalars
            if let count {
                ids = scalars.map { component in
                    let id = newID()
                    declarations += instruction(44, [type, id] + Array(repeating: component, count: Int(count)))
                    return id
                }
            }
            let result = (ids[0], ids[1], ids[2])
            constants[type] = result
            return result
        }

        var replacements: [Int: [UInt32]] = [:]
        for at in divisions {
            let op = words[at] & 0xffff, type = words[at + 1], result = words[at + 2], a = words[at + 3], b = words[at + 4]
            let shape: (scalar: UInt32, count: UInt32?)
            if ints[type] != nil {
                shape = (type, nil)
            } else if let v = vectors[type], ints[v.component] != nil {
                shape = (v.component, v.count)
            } else {
                continue
            }
            // 8- and 16-bit operands are widened before a C compiler divides them: no trap.
            guard ints[shape.scalar] == 32 || ints[shape.scalar] == 64 else { continue }
            let bool = boolFor(shape.count)
            let c = constantsOf(type, scalar: shape.scalar, count: shape.count)
            let isMinusOne = newID(), divisor = newID(), quotient = newID()
            var code = instruction(170, [bool, isMinusOne, b, c.minusOne])  // OpIEqual
            code += instruction(169, [type, divisor, isMinusOne, c.one, b])  // OpSelect
            code += instruction(op, [type, quotient, a, divisor])
            if op == 135 {
                let negated = newID()
                code += instruction(126, [type, negated, a])  // OpSNegate
                code += instruction(169, [type, result, isMinusOne, negated, quotient])
            } else {
                code += instruction(169, [type, result, isMinusOne, c.zero, quotient])
            }
            replacements[at] = code
        }
        guard bound <= SPIRVModule.maxIdBound else { return nil }
        var out = Array(words[0..<5])
        out[3] = bound
        for (i, _, count) in instructions {
            if i == insertAt { out += declarations }
            out += replacements[i] ?? Array(words[i..<(i + count)])
        }
        return out
    }
}
