// The parameter types an effect may declare: the GLSL uniform types of the gl-transitions format,
// and the array and data arguments of SwiftUI stitchable shaders (`.floatArray`, `.colorArray`,
// `.data`), which have a length of their own up to a fixed maximum.

/// A parameter's type, spelled as in GLSL (the array types, which GLSL sources cannot declare,
/// as `float[]`, `color[]` and `bytes`).
public enum ParameterType: String, Sendable, CaseIterable, Codable {
    case float, int, bool
    case vec2, vec3, vec4
    case ivec2, ivec3, ivec4
    case bvec2, bvec3, bvec4
    case mat2, mat3, mat4
    case sampler2D
    /// SwiftUI's `.floatArray`: `device const float *values, int count`; up to
    /// `maximumElements` floats.
    case floatArray = "float[]"
    /// SwiftUI's `.colorArray`: `device const half4 *colors, int count`; up to `maximumElements`
    /// colours of 4 components (premultiplied, as the shader reads them).
    case colorArray = "color[]"
    /// SwiftUI's `.data`: `device const void *bytes, int size`; up to `maximumElements` bytes
    /// (components 0…255).
    case data = "bytes"

    /// The scalar kind of each component.
    public enum Scalar: Sendable { case float, int, bool, texture }

    /// The most array and data parameters one effect may have: each takes 4 KiB of the GPU's
    /// uniform block, which Vulkan guarantees only up to 16 KiB (`maxUniformBufferRange`).
    public static let maximumArrayParameters = 3

    /// Whether a value has a length of its own (an array or data argument).
    public var isArray: Bool { self == .floatArray || self == .colorArray || self == .data }

    /// What an array type's elements are called ("floats", "colours", "bytes"); nil for the
    /// other types.
    public var elementUnit: String? {
        switch self {
        case .floatArray: "floats"
        case .colorArray: "colours"
        case .data: "bytes"
        default: nil
        }
    }

    /// The types a GLSL source may declare (`uniform TYPE name;`): all but the array types.
    public static var glslTypes: [ParameterType] { allCases.filter { !$0.isArray } }

    /// For an array type, the components of one element (a colour has 4); 1 otherwise.
    public var elementComponents: Int { self == .colorArray ? 4 : 1 }

    /// The bytes an array argument's value has on the GPU at the most: 4 KiB.
    public static let arrayBlockBytes = 4096

    /// For an array type, the most elements a value may have: 1,024 floats, 512 colours or
    /// 4,096 bytes (`arrayBlockBytes` on the GPU: floats as 32-bit floats, colours as `half4`, as
    /// Metal lays them out); 0 otherwise.
    public var maximumElements: Int { isArray ? Self.arrayBlockBytes / elementBytes : 0 }

    /// For an array type, the bytes one element takes on the GPU (4 for a float, 8 for a
    /// `half4` colour, 1 for a byte); 0 otherwise.
    public var elementBytes: Int {
        switch self {
        case .floatArray: 4
        case .colorArray: 8
        case .data: 1
        default: 0
        }
    }

    /// The scalar kind of each component.
    public var scalar: Scalar {
        switch self {
        case .float, .vec2, .vec3, .vec4, .mat2, .mat3, .mat4, .floatArray, .colorArray: .float
        case .int, .ivec2, .ivec3, .ivec4, .data: .int
        case .bool, .bvec2, .bvec3, .bvec4: .bool
        case .sampler2D: .texture
        }
    }

    /// How many scalar components a value has (0 for a texture; for an array type 0, the
    /// length of its default, empty value).
    public var componentCount: Int {
        switch self {
        case .float, .int, .bool: 1
        case .vec2, .ivec2, .bvec2: 2
        case .vec3, .ivec3, .bvec3: 3
        case .vec4, .ivec4, .bvec4, .mat2: 4
        case .mat3: 9
        case .mat4: 16
        case .sampler2D, .floatArray, .colorArray, .data: 0
        }
    }

    /// For matrices, the number of columns (and rows); nil otherwise.
    public var matrixDimension: Int? {
        switch self {
        case .mat2: 2
        case .mat3: 3
        case .mat4: 4
        default: nil
        }
    }
}
