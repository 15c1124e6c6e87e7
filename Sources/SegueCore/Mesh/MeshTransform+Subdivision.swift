// Subdivision (Core Animation's `subdivisionSteps`): every face becomes an n×n grid of faces,
// n = 2^steps, sampled from a smooth surface through the original vertices.
//
// `to` (the geometry) follows a bicubic Hermite patch per face with zero twist. Its corner
// tangents are Catmull–Rom tangents along the mesh's edges, found through shared edges:
// - the tangent at v along the edge v→w is (w − p)/2, where p is v's "opposite" neighbour, the
//   one neighbour of v that shares no face with the edge v–w (on a regular grid: the vertex
//   continuing the line w–v beyond v);
// - without a unique opposite (borders, irregular vertices), one-sided: (4w − 3v − u)/2 with
//   u the vertex beyond w (exact for quadratics), else the chord w − v.
// The tangent depends only on the directed edge, so both faces along an edge build the same
// boundary curve (C0 everywhere) and, on regular grids, the same cross-boundary tangents (C1).
// Linear data, and data quadratic in each grid direction (a·x² + b·y² + linear), are
// reproduced exactly on regular grids; the original vertices stay where they are.
//
// `from` (texture coordinates) is interpolated bilinearly within each face: the content mapping
// of every face is what it was without subdivision and never leaves the face's texture quad,
// so borders never sample outside [0, 1] because of an overshoot.
//
// Output order: the original vertices keep their indices; new vertices follow, face by face,
// edge points shared between faces once. Faces are n×n per original face, row-major in the
// face's (s, t) parameters (s along i0→i1, t along i0→i3), keeping orientation and texture.
// The order depends only on the faces, so compatible meshes subdivide to compatible meshes.

import SegueMath

extension MeshTransform {
    /// The largest accepted ``subdivided(steps:)`` (each face becomes 32×32 faces).
    public static let maximumSubdivisionSteps = 5
    /// The largest face count a subdivision may produce.
    public static let maximumSubdividedFaceCount = 1 << 22

    /// Checks `steps` against 0…``maximumSubdivisionSteps``.
    static func checkSubdivisionSteps(_ steps: Int) throws {
        guard (0...maximumSubdivisionSteps).contains(steps) else {
            throw MeshError(.invalidParameter, "subdivisionSteps must be between 0 and \(maximumSubdivisionSteps), got \(steps)")
        }
    }

    /// The mesh with every face split into 2^steps × 2^steps faces on a smooth surface through
    /// the original vertices (see the top of `MeshTransform+Subdivision.swift`). Steps 0 gives
    /// the mesh unchanged.
    ///
    /// - Throws: ``MeshError`` (`.invalidParameter`) when `steps` is outside
    ///   0…``maximumSubdivisionSteps`` or the result would have more than
    ///   ``maximumSubdividedFaceCount`` faces.
    public func subdivided(steps: Int) throws -> MeshTransform {
        try MeshTransform.checkSubdivisionSteps(steps)
        if steps == 0 || isZero { return self }
        let n = 1 << steps
        guard faces.count <= MeshTransform.maximumSubdividedFaceCount / (n * n) else {
            throw MeshError(
                .invalidParameter,
                "subdividing \(faces.count) faces \(steps) times would make \(faces.count * n * n) faces, more than the limit of \(MeshTransform.maximumSubdividedFaceCount); use fewer steps or a coarser mesh"
            )
        }
        var subdivider = Subdivider(mesh: self, n: n)
        return subdivider.run()
    }
}

/// The working state of one subdivision.
private struct Subdivider {
    let mesh: MeshTransform
    let n: Int
    /// Distinct edge neighbours of each vertex.
    var neighbours: [[Int]]
    /// For a directed edge v→w: v's other neighbours in the faces containing that edge.
    var sides: [UInt64: [Int]] = [:]
    var tangentCache: [UInt64: Vector3] = [:]
    var vertices: [MeshVertex]
    /// First new vertex of each undirected edge's n − 1 interior points, and the face that fills them.
    var edgePoints: [UInt64: (base: Int, owner: Int)] = [:]
    /// Hermite bases at u = i/n: h00, h01, h10, h11.
    let basis: [(Double, Double, Double, Double)]

    init(mesh: MeshTransform, n: Int) {
        self.mesh = mesh
        self.n = n
        vertices = mesh.vertices
        neighbours = Array(repeating: [], count: mesh.vertices.count)
        basis = (0...n).map { i in
            let u = Double(i) / Double(n)
            let u2 = u * u, u3 = u2 * u
            return (2 * u3 - 3 * u2 + 1, -2 * u3 + 3 * u2, u3 - 2 * u2 + u, u3 - u2)
        }
        for face in mesh.faces {
            for corner in 0..<4 {
                let v = face[corner], next = face[(corner + 1) % 4], previous = face[(corner + 3) % 4]
                if v != next {
                    if !neighbours[v].contains(next) { neighbours[v].append(next) }
                    if !neighbours[next].contains(v) { neighbours[next].append(v) }
                    sides[Subdivider.key(v, next), default: []].append(previous)
                }
                if v != previous {
                    sides[Subdivider.key(v, previous), default: []].append(next)
                }
            }
        }
    }

    static func key(_ a: Int, _ b: Int) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: a)) << 32 | UInt64(UInt32(truncatingIfNeeded: b))
    }

    /// The unique neighbour of `v` that shares no face with the edge v–w, if any.
    func opposite(of w: Int, around v: Int) -> Int? {
        let excluded = sides[Subdivider.key(v, w)] ?? []
        var found: Int?
        for candidate in neighbours[v] where candidate != w && !excluded.contains(candidate) {
            if found != nil { return nil }
            found = candidate
        }
        return found
    }

    /// The tangent of `to` at v along the edge v→w, per unit of the face parameter.
    mutating func tangent(_ v: Int, _ w: Int) -> Vector3 {
        if v == w { return .zero }
        let key = Subdivider.key(v, w)
        if let cached = tangentCache[key] { return cached }
        let pv = mesh.vertices[v].to, pw = mesh.vertices[w].to
        let result: Vector3
        if let p = opposite(of: w, around: v), p != v {
            result = (pw - mesh.vertices[p].to) * 0.5
        } else if let u = opposite(of: v, around: w), u != w, u != v {
            result = (pw * 4 - pv * 3 - mesh.vertices[u].to) * 0.5
        } else {
            result = pw - pv
        }
        tangentCache[key] = result
        return result
    }

    mutating func run() -> MeshTransform {
        let faces = mesh.faces
        let n = self.n, basis = self.basis  // read by `point` while `self` is mutated
        var newFaces: [MeshFace] = []
        newFaces.reserveCapacity(faces.count * n * n)
        var grid = [Int](repeating: 0, count: (n + 1) * (n + 1))
        for (faceIndex, face) in faces.enumerated() {
            let corner = [face.i0, face.i1, face.i2, face.i3]
            let p = corner.map { mesh.vertices[$0].to }
            let f = corner.map { mesh.vertices[$0].from }
            // Tangents along s (i0→i1, i3→i2) and t (i0→i3, i1→i2) at the four corners.
            let s0 = tangent(face.i0, face.i1), s1 = tangent(face.i1, face.i0) * -1
            let s2 = tangent(face.i2, face.i3) * -1, s3 = tangent(face.i3, face.i2)
            let t0 = tangent(face.i0, face.i3), t1 = tangent(face.i1, face.i2)
            let t2 = tangent(face.i2, face.i1) * -1, t3 = tangent(face.i3, face.i0) * -1

            func point(_ j: Int, _ k: Int) -> MeshVertex {
                let (hs0, hs1, ks0, ks1) = basis[j]
                let (ht0, ht1, kt0, kt1) = basis[k]
                var to = p[0] * (hs0 * ht0) + p[1] * (hs1 * ht0) + p[2] * (hs1 * ht1) + p[3] * (hs0 * ht1)
                to = to + s0 * (ks0 * ht0) + s1 * (ks1 * ht0) + s2 * (ks1 * ht1) + s3 * (ks0 * ht1)
                to = to + t0 * (hs0 * kt0) + t1 * (hs1 * kt0) + t2 * (hs1 * kt1) + t3 * (hs0 * kt1)
                let s = Double(j) / Double(n), t = Double(k) / Double(n)
                let from = f[0] * ((1 - s) * (1 - t)) + f[1] * (s * (1 - t)) + f[2] * (s * t) + f[3] * ((1 - s) * t)
                return MeshVertex(from: from, to: to)
            }

            for k in 0...n {
                for j in 0...n {
                    let index: Int
                    switch (j, k) {
                    case (0, 0): index = face.i0
                    case (n, 0): index = face.i1
                    case (n, n): index = face.i2
                    case (0, n): index = face.i3
                    case (_, 0): index = edgePoint(face.i0, face.i1, j, faceIndex) { point(j, k) }
                    case (_, n): index = edgePoint(face.i3, face.i2, j, faceIndex) { point(j, k) }
                    case (0, _): index = edgePoint(face.i0, face.i3, k, faceIndex) { point(j, k) }
                    case (n, _): index = edgePoint(face.i1, face.i2, k, faceIndex) { point(j, k) }
                    default:
                        index = vertices.count
                        vertices.append(point(j, k))
                    }
                    grid[k * (n + 1) + j] = index
                }
            }
            for k in 0..<n {
                for j in 0..<n {
                    let a = k * (n + 1) + j, b = a + n + 1
                    newFaces.append(MeshFace(grid[a], grid[a + 1], grid[b + 1], grid[b], texture: face.texture))
                }
            }
        }
        return MeshTransform(unchecked: vertices, faces: newFaces, depthNormalization: mesh.depthNormalization)
    }

    /// The index of the point `m` steps (of n) along the edge a→b, created (by the first face
    /// that reaches the edge) with `make`.
    mutating func edgePoint(_ a: Int, _ b: Int, _ m: Int, _ faceIndex: Int, _ make: () -> MeshVertex) -> Int {
        let key = Subdivider.key(min(a, b), max(a, b))
        let position = a <= b ? m : n - m
        if let (base, owner) = edgePoints[key] {
            if owner == faceIndex {
                vertices[base + position - 1] = make()
            }
            return base + position - 1
        }
        let base = vertices.count
        vertices.append(contentsOf: repeatElement(MeshVertex(from: .zero, to: .zero), count: n - 1))
        edgePoints[key] = (base, faceIndex)
        vertices[base + position - 1] = make()
        return base + position - 1
    }
}
