import SegueMath

/// The error thrown by SegueCore's mesh types: a mesh that breaks a construction rule, two
/// meshes that cannot be animated into each other, a parameter out of range, or a mesh file
/// that cannot be read.
///
/// Every error names the rule it broke and the offending entry, e.g. "face 3 uses vertex 40,
/// but the mesh has 36 vertices (0…35)".
public typealias MeshError = KindedError<MeshErrorKind>

/// Which rule a ``MeshError`` says was broken (`MeshError.Kind`).
public enum MeshErrorKind: Sendable, Hashable, CaseIterable {
    /// A face refers to a vertex index outside the vertex array.
    case faceIndexOutOfRange
    /// A vertex coordinate (or another number) is NaN or infinite.
    case nonFiniteValue
    /// The mesh has no faces.
    case noFaces
    /// Compatibility: the two meshes have different vertex counts.
    case vertexCountMismatch
    /// Compatibility: the two meshes have different face counts.
    case faceCountMismatch
    /// Compatibility: a face has different vertex indices in the two meshes.
    case faceIndicesMismatch
    /// Compatibility: a face shows a different texture in the two meshes.
    case faceTextureMismatch
    /// Compatibility: the two meshes have different depth normalizations.
    case depthNormalizationMismatch
    /// A parameter (subdivision steps, light direction, a reference mesh's size…) is out
    /// of its range.
    case invalidParameter
    /// A mesh file could not be read from disk.
    case unreadableFile
    /// A mesh file is not valid JSON.
    case invalidJSON
    /// A mesh file is valid JSON but breaks the mesh file format.
    case invalidFile
}

extension KindedError where Kind == MeshErrorKind {
    /// Whether the error is one of the compatibility rules of ``MeshTransform/checkCompatible(with:)``.
    public var isIncompatibility: Bool {
        switch kind {
        case .vertexCountMismatch, .faceCountMismatch, .faceIndicesMismatch, .faceTextureMismatch,
            .depthNormalizationMismatch:
            return true
        default:
            return false
        }
    }
}
