/// A quad face of a ``MeshTransform``, spanned by four vertex indices.
///
/// The renderer splits it into the triangles `{i0, i1, i2}` and `{i2, i3, i0}` and textures it
/// with ``texture``. For a face of ``MeshTransform/identity(rows:columns:)`` the order is
/// top-left, top-right, bottom-right, bottom-left, which faces the viewer.
public struct MeshFace: Sendable, Hashable, Codable {
    /// Which of a transition's two textures a face shows.
    public enum Texture: String, Sendable, Hashable, Codable, CaseIterable {
        /// The `from` texture (the only one for a plain mesh transform of one layer).
        case from
        /// The `to` texture, so that one mesh can show both sides of a transition (a cube,
        /// a fold).
        case to

        /// The value passed to the GPU: 0 for `from`, 1 for `to`.
        public var index: Int { self == .from ? 0 : 1 }
    }

    /// The first vertex index.
    public var i0: Int
    /// The second vertex index.
    public var i1: Int
    /// The third vertex index.
    public var i2: Int
    /// The fourth vertex index.
    public var i3: Int
    /// The texture the face shows (default ``Texture/from``).
    public var texture: Texture

    /// Creates a face from four vertex indices.
    public init(_ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int, texture: Texture = .from) {
        self.i0 = i0
        self.i1 = i1
        self.i2 = i2
        self.i3 = i3
        self.texture = texture
    }

    /// Creates a face from an array of four vertex indices.
    ///
    /// - Precondition: `indices.count == 4`.
    public init(indices: [Int], texture: Texture = .from) {
        precondition(indices.count == 4, "a mesh face has 4 vertex indices, got \(indices.count)")
        self.init(indices[0], indices[1], indices[2], indices[3], texture: texture)
    }

    /// The four indices in order.
    public var indices: [Int] { [i0, i1, i2, i3] }

    /// The index at corner `corner` (0…3).
    public subscript(corner: Int) -> Int {
        get {
            switch corner {
            case 0: return i0
            case 1: return i1
            case 2: return i2
            case 3: return i3
            default: preconditionFailure("a mesh face has corners 0…3, not \(corner)")
            }
        }
        set {
            switch corner {
            case 0: i0 = newValue
            case 1: i1 = newValue
            case 2: i2 = newValue
            case 3: i3 = newValue
            default: preconditionFailure("a mesh face has corners 0…3, not \(corner)")
            }
        }
    }

    /// Whether the two faces use the same vertex indices in the same order (textures aside).
    func hasSameIndices(as other: MeshFace) -> Bool {
        i0 == other.i0 && i1 == other.i1 && i2 == other.i2 && i3 == other.i3
    }
}
