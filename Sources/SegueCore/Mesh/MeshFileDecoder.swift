// The checked walk over a mesh file's JSON tree. Every value is read through `JSONEntry`,
// which knows its JSON path, so each error names the offending entry: `vertices[12].to:
// expected 3 numbers, found a list of 2 items`, `faces[3][2]: vertex index 40 out of range (36 vertices)`.

import SegueMath

/// A JSON value and its path from the root (`""` for the root).
struct JSONEntry {
    let value: JSONValue
    let path: String

    func fail(_ message: String) -> MeshError {
        MeshError(.invalidFile, path.isEmpty ? message : "\(path): \(message)")
    }

    func child(_ key: String, _ value: JSONValue) -> JSONEntry {
        JSONEntry(value: value, path: path.isEmpty ? key : "\(path).\(key)")
    }

    var isObject: Bool {
        if case .object = value { return true }
        return false
    }

    var isArray: Bool {
        if case .array = value { return true }
        return false
    }

    // MARK: - Typed reads

    /// The object's members, after refusing keys outside `allowed`.
    func object(allowed: [String]) throws -> [String: JSONEntry] {
        guard case .object(let dictionary) = value else {
            throw fail("expected an object, found \(value.described)")
        }
        if let unknown = JSONValue.unknownKey(in: dictionary, place: path.isEmpty ? "the mesh file" : path, known: allowed) {
            throw MeshError(.invalidFile, unknown)
        }
        return dictionary.reduce(into: [:]) { result, member in
            result[member.key] = child(member.key, member.value)
        }
    }

    /// The array's entries.
    func array() throws -> [JSONEntry] {
        guard case .array(let array) = value else {
            throw fail("expected a list, found \(value.described)")
        }
        return array.enumerated().map { JSONEntry(value: $1, path: "\(path)[\($0)]") }
    }

    /// A finite number.
    func number() throws -> Double {
        guard case .number(let number) = value else {
            throw fail("expected a number, found \(value.described)")
        }
        guard number.isFinite else { throw fail("must be finite, got \(MessageText.number(number))") }
        return number
    }

    /// A whole number.
    func wholeNumber() throws -> Int {
        let number = try number()
        guard number == number.rounded(), abs(number) < 1e15 else {
            throw fail("expected a whole number, found \(value.described)")
        }
        return Int(number)
    }

    /// A string.
    func string() throws -> String {
        guard case .string(let string) = value else {
            throw fail("expected a string, found \(value.described)")
        }
        return string
    }

    /// An array of numbers whose count is one of `counts`.
    func numbers(_ counts: [Int]) throws -> [Double] {
        let expected = counts.map(String.init).joined(separator: " or ") + " numbers"
        guard case .array(let array) = value, counts.contains(array.count) else {
            throw fail("expected \(expected), found \(value.described)")
        }
        return try self.array().map { try $0.number() }
    }

    /// One of `choices`.
    func choice(_ choices: [String]) throws -> String {
        let text = try string()
        guard choices.contains(text) else {
            throw fail("expected one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")), found \(value.described)")
        }
        return text
    }
}

/// Builds a ``MeshFile`` from a JSON tree.
enum MeshFileDecoder {
    static func decode(_ root: JSONValue) throws -> MeshFile {
        let top = JSONEntry(value: root, path: "")
        guard top.isObject else {
            throw top.fail("a mesh file's top level must be an object, found \(root.described)")
        }
        let members = try top.object(allowed: MeshFile.topLevelKeys)
        if let comment = members["comment"] { _ = try comment.string() }

        var normalization: DepthNormalization?
        if let entry = members["depthNormalization"] {
            normalization = DepthNormalization(rawValue: try entry.choice(DepthNormalization.allCases.map(\.rawValue)))
        }

        let mesh: MeshTransform
        if let identity = members["identity"] {
            if members["vertices"] != nil || members["faces"] != nil {
                throw identity.fail("cannot be combined with \"vertices\" or \"faces\"; give either the identity shortcut or both lists")
            }
            let size = try identity.object(allowed: ["rows", "columns"])
            let rows = try count(size["rows"], in: identity, name: "rows")
            let columns = try count(size["columns"], in: identity, name: "columns")
            // Checked before building: (rows + 1)(columns + 1) vertices, rows × columns faces.
            guard rows <= MeshTransform.maximumFaceCount, columns <= MeshTransform.maximumFaceCount else {
                throw identity.fail(
                    "\(rows) × \(columns) faces is more than a mesh may have (at most \(MeshTransform.maximumVertexCount) vertices and \(MeshTransform.maximumFaceCount) faces)"
                )
            }
            do { try MeshTransform.checkSize(vertices: (rows + 1) * (columns + 1), faces: rows * columns) } catch {
                throw identity.fail("\(rows) × \(columns) faces: \(error.message)")
            }
            mesh = MeshTransform.identity(rows: rows, columns: columns).withDepthNormalization(normalization ?? .average)
        } else {
            guard let verticesEntry = members["vertices"], let facesEntry = members["faces"] else {
                let missing =
                    members["vertices"] == nil ? (members["faces"] == nil ? "\"vertices\" and \"faces\"" : "\"vertices\"") : "\"faces\""
                throw top.fail(
                    "missing \(missing): a mesh file needs \"vertices\" and \"faces\", or \"identity\": {\"rows\": r, \"columns\": c}")
            }
            let vertexEntries = try verticesEntry.array()
            let faceEntries = try facesEntry.array()
            do { try MeshTransform.checkSize(vertices: vertexEntries.count, faces: faceEntries.count) } catch {
                throw top.fail(error.message)
            }
            let vertices = try vertexEntries.map(vertex)
            guard !faceEntries.isEmpty else {
                throw facesEntry.fail("a mesh needs at least one face, got an empty list")
            }
            let faces = try faceEntries.map { try face($0, vertexCount: vertices.count) }
            mesh = try MeshTransform(vertices: vertices, faces: faces, depthNormalization: normalization ?? .none)
        }

        var appearance = MeshAppearance()
        if let entry = members["lightDirection"] {
            let l = try entry.numbers([3])
            guard l.contains(where: { $0 != 0 }) else { throw entry.fail("must not be the zero vector") }
            appearance.lightDirection = Vector3(l[0], l[1], l[2])
        }
        if let entry = members["diffuseLightFactor"] {
            appearance.diffuseLightFactor = try entry.number()
        }
        if let entry = members["supplementaryTransform"] {
            appearance.supplementaryTransform = try transform(entry)
        }
        if let entry = members["subdivisionSteps"] {
            let steps = try entry.wholeNumber()
            guard (0...MeshTransform.maximumSubdivisionSteps).contains(steps) else {
                throw entry.fail("must be between 0 and \(MeshTransform.maximumSubdivisionSteps), got \(steps)")
            }
            appearance.subdivisionSteps = steps
        }
        return MeshFile(mesh: mesh, appearance: appearance)
    }

    private static func count(_ entry: JSONEntry?, in parent: JSONEntry, name: String) throws -> Int {
        guard let entry else { throw parent.fail("missing \"\(name)\"") }
        let value = try entry.wholeNumber()
        guard value >= 1 else { throw entry.fail("must be at least 1, got \(value)") }
        return value
    }

    private static func vertex(_ entry: JSONEntry) throws -> MeshVertex {
        let members = try entry.object(allowed: ["from", "to"])
        guard let fromEntry = members["from"] else { throw entry.fail("missing \"from\": [x, y]") }
        guard let toEntry = members["to"] else { throw entry.fail("missing \"to\": [x, y, z]") }
        let from = try fromEntry.numbers([2])
        let to = try toEntry.numbers([3])
        return MeshVertex(from: Vector2(from[0], from[1]), to: Vector3(to[0], to[1], to[2]))
    }

    private static func face(_ entry: JSONEntry, vertexCount: Int) throws -> MeshFace {
        let indicesEntry: JSONEntry
        var texture = MeshFace.Texture.from
        if entry.isObject {
            let members = try entry.object(allowed: ["indices", "texture"])
            guard let indices = members["indices"] else { throw entry.fail("missing \"indices\": [i0, i1, i2, i3]") }
            indicesEntry = indices
            if let textureEntry = members["texture"] {
                texture = MeshFace.Texture(rawValue: try textureEntry.choice(MeshFace.Texture.allCases.map(\.rawValue)))!
            }
        } else if entry.isArray {
            indicesEntry = entry
        } else {
            throw entry.fail(
                "expected 4 vertex indices [i0, i1, i2, i3] or {\"indices\": [...], \"texture\": \"to\"}, found \(entry.value.described)")
        }
        let items = try indicesEntry.array()
        guard items.count == 4 else { throw indicesEntry.fail("expected 4 vertex indices, found \(indicesEntry.value.described)") }
        let indices = try items.map { item in
            let index = try item.wholeNumber()
            guard (0..<vertexCount).contains(index) else {
                throw item.fail("vertex index \(index) out of range (\(vertexCount) vertices)")
            }
            return index
        }
        return MeshFace(indices: indices, texture: texture)
    }

    /// 16 numbers (row-major), or a list of operations applied as successive
    /// CATransform3DTranslate/Scale/Rotate calls: the last operation acts on the points first.
    private static func transform(_ entry: JSONEntry) throws -> Transform3D {
        let items = try entry.array()
        if !items.isEmpty, items.allSatisfy({ !$0.isObject }) {
            let entries = try entry.numbers([16])
            return Transform3D(rowMajor: entries)
        }
        var result = Transform3D.identity
        for item in items {
            guard case .object(let dictionary) = item.value, dictionary.count == 1, let name = dictionary.keys.first else {
                throw item.fail(
                    "expected an operation with exactly one key (perspective, rotate, translate, scale, matrix), found \(item.value.described)"
                )
            }
            let operation = try item.object(allowed: ["perspective", "rotate", "translate", "scale", "matrix"])[name]!
            result = try matrix(for: name, operation).concatenating(result)
        }
        return result
    }

    private static func matrix(for name: String, _ entry: JSONEntry) throws -> Transform3D {
        switch name {
        case "perspective":
            let distance = try entry.number()
            guard distance > 0 else { throw entry.fail("the eye distance must be positive, got \(MessageText.number(distance))") }
            return .perspective(distance: distance)
        case "rotate":
            if entry.isObject {
                let members = try entry.object(allowed: ["angle", "axis"])
                guard let angle = members["angle"] else { throw entry.fail("missing \"angle\" (degrees)") }
                let degrees = try angle.number()
                let axis = try members["axis"]?.numbers([3]) ?? [0, 0, 1]
                guard axis.contains(where: { $0 != 0 }) else { throw members["axis"]!.fail("must not be the zero vector") }
                return Transform3D(rotationAngle: degrees * .pi / 180, x: axis[0], y: axis[1], z: axis[2])
            }
            return Transform3D(rotationAngle: try entry.number() * .pi / 180, x: 0, y: 0, z: 1)
        case "translate":
            let t = try entry.numbers([2, 3])
            return Transform3D(translationX: t[0], y: t[1], z: t.count == 3 ? t[2] : 0)
        case "scale":
            let s = try entry.numbers([2, 3])
            return Transform3D(scaleX: s[0], y: s[1], z: s.count == 3 ? s[2] : 1)
        default:  // "matrix"
            return Transform3D(rowMajor: try entry.numbers([16]))
        }
    }
}
