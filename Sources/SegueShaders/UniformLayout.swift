// std140 layout of Segue's per-frame uniform block (OpenGL 4.5 / Vulkan std140 rules:
// scalars align to 4, vec2 to 8, vec3 and vec4 to 16, matrix columns are vec4-aligned arrays).
//
// An array or data argument (SwiftUI's `.floatArray`, `.colorArray`, `.data`) is a member of the
// same block, sized to its type's maximum: its element count (`int`, 16 bytes with padding), then
// its bytes as Metal lays them out — 32-bit floats, `half4` colours, bytes — in `uvec4` words
// (`arrayWords` of them, 4 KiB), zero past the value's length. The shader reads them through
// bounds-checked accessors (see `StitchableFunction`), so nothing past the value can be read.
import SegueCore

/// The per-frame values every effect receives, besides its own parameters.
public struct FrameUniforms: Sendable, Equatable {
    /// Eased progress, 0 → 1.
    public var progress: Double
    /// Seconds since the transition began.
    public var time: Double
    /// The transition's duration in seconds.
    public var duration: Double
    /// Output width in pixels.
    public var width: Int
    /// Output height in pixels.
    public var height: Int
    /// Pixels per point.
    public var scale: Double
    /// Texture-coordinate scale fitting `from` to the output (see `ResizeMode.textureScale`).
    public var fromFit: (x: Double, y: Double)
    /// Texture-coordinate scale fitting `to` to the output.
    public var toFit: (x: Double, y: Double)
    /// Size of the `from` texture in texels.
    public var fromSize: (width: Int, height: Int)
    /// Size of the `to` texture in texels.
    public var toSize: (width: Int, height: Int)

    /// Per-frame values.
    public init(
        progress: Double, time: Double, duration: Double, width: Int, height: Int, scale: Double = 1,
        fromFit: (x: Double, y: Double) = (1, 1), toFit: (x: Double, y: Double) = (1, 1),
        fromSize: (width: Int, height: Int)? = nil, toSize: (width: Int, height: Int)? = nil
    ) {
        self.progress = progress
        self.time = time
        self.duration = duration
        self.width = width
        self.height = height
        self.scale = scale
        self.fromFit = fromFit
        self.toFit = toFit
        self.fromSize = fromSize ?? (width, height)
        self.toSize = toSize ?? (width, height)
    }

    public static func == (a: FrameUniforms, b: FrameUniforms) -> Bool {
        a.progress == b.progress && a.time == b.time && a.duration == b.duration && a.width == b.width
            && a.height == b.height && a.scale == b.scale && a.fromFit == b.fromFit && a.toFit == b.toFit
            && a.fromSize == b.fromSize && a.toSize == b.toSize
    }
}

/// Byte offsets of an effect's uniform block, and packing of values into it.
public struct UniformLayout: Sendable, Equatable {
    /// A member of the block.
    public struct Member: Sendable, Equatable {
        /// GLSL name.
        public let name: String
        /// GLSL type.
        public let type: ParameterType
        /// Offset in bytes.
        public let offset: Int
    }

    /// Offset where effect parameters begin (after the fixed header).
    public static let headerSize = 64
    /// The `uvec4` words of an array or data member (4 KiB: the largest value of every array type).
    public static let arrayWords = ParameterType.arrayBlockBytes / 16

    /// Parameter members in declaration order (textures excluded).
    public let members: [Member]
    /// Total size in bytes, rounded up to 16.
    public let size: Int

    /// The layout of an effect's parameters after the fixed header.
    public init(parameters: [EffectParameter]) {
        var offset = UniformLayout.headerSize
        var members: [Member] = []
        for p in parameters where p.type != .sampler2D {
            let (align, size) = UniformLayout.alignmentAndSize(p.type)
            offset = (offset + align - 1) / align * align
            members.append(Member(name: p.name, type: p.type, offset: offset))
            offset += size
        }
        self.members = members
        self.size = (offset + 15) / 16 * 16
    }

    /// std140 base alignment and size of a type.
    static func alignmentAndSize(_ type: ParameterType) -> (Int, Int) {
        switch type {
        case .float, .int, .bool: (4, 4)
        case .vec2, .ivec2, .bvec2: (8, 8)
        case .vec3, .ivec3, .bvec3: (16, 12)
        case .vec4, .ivec4, .bvec4: (16, 16)
        case .mat2: (16, 32)
        case .mat3: (16, 48)
        case .mat4: (16, 64)
        case .sampler2D: (0, 0)
        case .floatArray, .colorArray, .data: (16, 16 + arrayWords * 16)
        }
    }

    /// The block's bytes for one frame.
    /// - Precondition: `parameters` holds a value of the right type for every member.
    public func pack(_ frame: FrameUniforms, parameters: [String: ParameterValue]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        bytes.withUnsafeMutableBytes { raw in
            func f(_ offset: Int, _ v: Double) { raw.storeBytes(of: Float(v), toByteOffset: offset, as: Float.self) }
            f(0, frame.progress)
            f(4, frame.time)
            f(8, frame.duration)
            f(12, Double(frame.width) / Double(frame.height))
            f(16, Double(frame.width))
            f(20, Double(frame.height))
            f(24, frame.scale)
            f(32, frame.fromFit.x)
            f(36, frame.fromFit.y)
            f(40, Double(frame.fromSize.width))
            f(44, Double(frame.fromSize.height))
            f(48, frame.toFit.x)
            f(52, frame.toFit.y)
            f(56, Double(frame.toSize.width))
            f(60, Double(frame.toSize.height))
            for m in members {
                guard let value = parameters[m.name] else { preconditionFailure("no value for parameter \(m.name)") }
                precondition(value.type == m.type, "parameter \(m.name) is \(m.type), value is \(value.type)")
                let c = value.components
                if m.type.isArray {
                    Self.packArray(value, into: raw, at: m.offset)
                    continue
                }
                if let dim = m.type.matrixDimension {
                    for col in 0..<dim {
                        for row in 0..<dim { f(m.offset + col * 16 + row * 4, c[col * dim + row]) }
                    }
                    continue
                }
                for (i, component) in c.enumerated() {
                    let at = m.offset + i * 4
                    switch m.type.scalar {
                    case .float: f(at, component)
                    case .int: raw.storeBytes(of: Self.int32(component), toByteOffset: at, as: Int32.self)
                    case .bool: raw.storeBytes(of: UInt32(component != 0 ? 1 : 0), toByteOffset: at, as: UInt32.self)
                    case .texture: break
                    }
                }
            }
        }
        return bytes
    }

    /// An array value at `offset`: its element count, then its bytes from `offset + 16`.
    private static func packArray(_ value: ParameterValue, into raw: UnsafeMutableRawBufferPointer, at offset: Int) {
        raw.storeBytes(of: Int32(value.elementCount), toByteOffset: offset, as: Int32.self)
        let base = offset + 16
        let c = value.components
        switch value.type {
        case .floatArray:
            for (i, v) in c.enumerated() {
                raw.storeBytes(of: Float(v).bitPattern.littleEndian, toByteOffset: base + 4 * i, as: UInt32.self)
            }
        case .colorArray:
            for (i, v) in c.enumerated() {
                raw.storeBytes(of: halfBits(Float(v)).littleEndian, toByteOffset: base + 2 * i, as: UInt16.self)
            }
        default:
            for (i, v) in c.enumerated() { raw[base + i] = UInt8(v) }
        }
    }

    /// `value` as a 32-bit int: rounded, held within Int32's range (NaN is 0). Values are checked
    /// where they are parsed; this keeps any other path from trapping.
    static func int32(_ value: Double) -> Int32 {
        guard !value.isNaN else { return 0 }
        return Int32(min(max(value.rounded(), Double(Int32.min)), Double(Int32.max)))
    }

    /// The IEEE 754 half-precision bits of `x`, rounded to nearest even (as Metal converts a
    /// colour to `half`); overflow gives an infinity.
    static func halfBits(_ x: Float) -> UInt16 {
        let b = x.bitPattern
        let sign = UInt16((b >> 16) & 0x8000)
        let exponent = Int((b >> 23) & 0xFF)
        var mantissa = b & 0x7F_FFFF
        if exponent == 0xFF { return sign | 0x7C00 | (mantissa != 0 ? 0x200 : 0) }
        let e = exponent - 127 + 15
        if e >= 31 { return sign | 0x7C00 }
        if e <= 0 {
            // A subnormal half (or zero).
            if e < -10 { return sign }
            mantissa |= 0x80_0000
            let shift = UInt32(14 - e)
            var h = mantissa >> shift
            let rest = mantissa & ((1 << shift) - 1), halfway = UInt32(1) << (shift - 1)
            if rest > halfway || (rest == halfway && h & 1 != 0) { h += 1 }
            return sign | UInt16(h)
        }
        var h = UInt32(e) << 10 | mantissa >> 13
        let rest = mantissa & 0x1FFF
        if rest > 0x1000 || (rest == 0x1000 && h & 1 != 0) { h += 1 }  // a carry rounds up to the next exponent
        return sign | UInt16(h)
    }
}
