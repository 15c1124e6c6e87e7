// The parameter types an effect may declare: the GLSL uniform types of the gl-transitions format.

/// A parameter's type, spelled as in GLSL.
public enum ParameterType: String, Sendable, CaseIterable, Codable {
    case float, int, bool
    case vec2, vec3, vec4
    case ivec2, ivec3, ivec4
    case bvec2, bvec3, bvec4
    case mat2, mat3, mat4
    case sampler2D

    /// The scalar kind of each component.
    public enum Scalar: Sendable { case float, int, bool, texture }

    /// The scalar kind of each component.
    public var scalar: Scalar {
        switch self {
        case .float, .vec2, .vec3, .vec4, .mat2, .mat3, .mat4: .float
        case .int, .ivec2, .ivec3, .ivec4: .int
        case .bool, .bvec2, .bvec3, .bvec4: .bool
        case .sampler2D: .texture
        }
    }

    /// How many scalar components a value has (0 for a texture).
    public var componentCount: Int {
        switch self {
        case .float, .int, .bool: 1
        case .vec2, .ivec2, .bvec2: 2
        case .vec3, .ivec3, .bvec3: 3
        case .vec4, .ivec4, .bvec4, .mat2: 4
        case .mat3: 9
        case .mat4: 16
        case .sampler2D: 0
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
