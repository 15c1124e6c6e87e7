// Meshes in SegueAnimation's engine.
//
// The engine needs a vector space (`Interpolatable`: zero, +, −, scaled(by:), distance(to:)).
// A mesh's coordinates form one: `+`, `−` and `scaled(by:)` act vertex by vertex on from.xy and
// to.xyz, keeping the (shared) faces and depth normalization. Two choices make that work:
// - `zero` is a special mesh without vertices or faces that stands for "all coordinates zero,
//   with the other operand's structure". The engine uses it as the base of additive
//   animations (`current + value`), and a static `zero` cannot know a vertex count.
// - Combining two meshes that are not compatible (different vertex counts, faces, textures or
//   depth normalizations) is a programmer error and traps with the rule broken, never a silent
//   jump. Callers check first with `checkCompatible(with:)` or use the throwing helpers below,
//   which validate every mesh an animation involves before it is added.

import SegueAnimation
import SegueMath

extension MeshTransform: Interpolatable {
    /// Vertex-by-vertex sum of from.xy and to.xyz; faces and depth normalization of the
    /// operands (which must be compatible; ``zero`` is compatible with every mesh).
    public static func + (lhs: MeshTransform, rhs: MeshTransform) -> MeshTransform {
        combine(lhs, rhs, "add") { $0 + $1 }
    }

    /// Vertex-by-vertex difference of from.xy and to.xyz (operands compatible).
    public static func - (lhs: MeshTransform, rhs: MeshTransform) -> MeshTransform {
        combine(lhs, rhs, "subtract") { $0 - $1 }
    }

    /// Every coordinate multiplied by `factor`; ``zero`` stays ``zero``.
    public func scaled(by factor: Double) -> MeshTransform {
        if isZero { return self }
        return MeshTransform(unchecked: vertices.map { $0 * factor }, faces: faces, depthNormalization: depthNormalization)
    }

    /// Per-vertex linear interpolation in from.xy and to.xyz (exact at fractions 0 and 1).
    ///
    /// - Precondition: the meshes are compatible (see ``checkCompatible(with:)``).
    public func interpolated(to other: MeshTransform, fraction: Double) -> MeshTransform {
        return MeshTransform.combine(self, other, "interpolate") { MeshVertex.lerp($0, $1, fraction) }
    }

    /// The Euclidean norm of the difference of all coordinates (from.xy and to.xyz of every
    /// vertex), used to pace keyframes.
    ///
    /// - Precondition: the meshes are compatible.
    public func distance(to other: MeshTransform) -> Double {
        let difference = other - self
        return difference.vertices.reduce(0) { $0 + $1.from.lengthSquared + $1.to.lengthSquared }.squareRoot()
    }

    /// Applies `operation` vertex by vertex, treating ``zero`` as zeros shaped like the other mesh.
    private static func combine(
        _ a: MeshTransform, _ b: MeshTransform, _ verb: String, _ operation: (MeshVertex, MeshVertex) -> MeshVertex
    ) -> MeshTransform {
        let zeroVertex = MeshVertex(from: .zero, to: .zero)
        switch (a.isZero, b.isZero) {
        case (true, true):
            return .zero
        case (true, false):
            return MeshTransform(
                unchecked: b.vertices.map { operation(zeroVertex, $0) }, faces: b.faces, depthNormalization: b.depthNormalization)
        case (false, true):
            return MeshTransform(
                unchecked: a.vertices.map { operation($0, zeroVertex) }, faces: a.faces, depthNormalization: a.depthNormalization)
        case (false, false):
            if let error = a.incompatibility(with: b) {
                preconditionFailure(
                    "cannot \(verb) meshes: \(error.message). Check meshes with checkCompatible(with:) or build animations with MeshTransform's throwing animation helpers"
                )
            }
            var result = a.vertices
            b.vertices.withUnsafeBufferPointer { other in
                for index in result.indices {
                    result[index] = operation(result[index], other[index])
                }
            }
            return MeshTransform(unchecked: result, faces: a.faces, depthNormalization: a.depthNormalization)
        }
    }
}

// MARK: - Checked animations

extension MeshTransform {
    /// Checks that all `meshes` are pairwise compatible (``zero`` and `nil` entries are skipped).
    ///
    /// - Parameter names: how to call each mesh in a message (e.g. `"fromValue"`,
    ///   `"values[3]"`); defaults to `mesh 0`, `mesh 1`, ….
    /// - Throws: ``MeshError`` with the first failing rule, prefixed by the two meshes' names.
    public static func checkCompatible(_ meshes: [MeshTransform?], names: [String]? = nil) throws {
        let named = meshes.enumerated().compactMap { index, mesh -> (String, MeshTransform)? in
            guard let mesh, !mesh.isZero else { return nil }
            return (names.map { $0[index] } ?? "mesh \(index)", mesh)
        }
        guard let (firstName, first) = named.first else { return }
        for (name, mesh) in named.dropFirst() {
            if let error = first.incompatibility(with: mesh) {
                throw MeshError(error.kind, "\(firstName) and \(name): \(error.message)")
            }
        }
    }

    /// A basic animation between meshes, after checking that `from`, `to` and `by` are
    /// compatible. See `BasicAnimation` for the from/to/by combinations.
    ///
    /// - Throws: ``MeshError`` naming the failing compatibility rule.
    public static func animation(
        from: MeshTransform? = nil, to: MeshTransform? = nil, by: MeshTransform? = nil,
        timing: MediaTiming = MediaTiming(), isAdditive: Bool = false, isCumulative: Bool = false,
        isRemovedOnCompletion: Bool = true
    ) throws -> BasicAnimation<MeshTransform> {
        try checkCompatible([from, to, by], names: ["fromValue", "toValue", "byValue"])
        return BasicAnimation(
            fromValue: from, toValue: to, byValue: by, timing: timing, isAdditive: isAdditive,
            isCumulative: isCumulative, isRemovedOnCompletion: isRemovedOnCompletion)
    }

    /// A spring animation between meshes: ``animation(from:to:by:timing:isAdditive:isCumulative:isRemovedOnCompletion:)``
    /// paced by `spring`.
    ///
    /// - Throws: ``MeshError`` naming the failing compatibility rule.
    public static func springAnimation(
        spring: Spring, from: MeshTransform? = nil, to: MeshTransform? = nil, by: MeshTransform? = nil,
        timing: MediaTiming = MediaTiming(), isAdditive: Bool = false, isCumulative: Bool = false,
        isRemovedOnCompletion: Bool = true
    ) throws -> SpringAnimation<MeshTransform> {
        let basic = try animation(
            from: from, to: to, by: by, timing: timing, isAdditive: isAdditive, isCumulative: isCumulative,
            isRemovedOnCompletion: isRemovedOnCompletion)
        return SpringAnimation(spring: spring, animation: basic)
    }

    /// A keyframe animation through meshes, after checking that all values are compatible.
    ///
    /// - Throws: ``MeshError`` naming the failing rule and keyframes, or `AnimationError` for
    ///   invalid key times, timing functions or spline parameters.
    public static func keyframeAnimation(
        values: [MeshTransform], keyTimes: [Double]? = nil, timingFunctions: [TimingFunction]? = nil,
        calculationMode: KeyframeCalculationMode = .linear, timing: MediaTiming = MediaTiming(),
        isAdditive: Bool = false, isCumulative: Bool = false, isRemovedOnCompletion: Bool = true
    ) throws -> KeyframeAnimation<MeshTransform> {
        try checkCompatible(values, names: values.indices.map { "values[\($0)]" })
        return try KeyframeAnimation(
            values: values, keyTimes: keyTimes, timingFunctions: timingFunctions,
            calculationMode: calculationMode, timing: timing, isAdditive: isAdditive,
            isCumulative: isCumulative, isRemovedOnCompletion: isRemovedOnCompletion)
    }
}

extension AnimatableProperty where Value == MeshTransform {
    /// Sets the model mesh (running the property's action, e.g. an implicit animation from the
    /// current presentation mesh) after checking that it is compatible with the model and
    /// presentation meshes.
    ///
    /// - Throws: ``MeshError`` naming the failing rule; the property is left unchanged.
    public func setMesh(_ mesh: MeshTransform) throws {
        try MeshTransform.checkCompatible(
            [modelValue, presentationValue, mesh],
            names: ["the current mesh", "the presented mesh", "the new mesh"])
        value = mesh
    }

    /// Adds a mesh animation after checking that every mesh it holds (from/to/by values or
    /// keyframe values) is compatible with the property's model mesh.
    ///
    /// - Throws: ``MeshError`` naming the failing rule; nothing is added.
    public func addMeshAnimation(
        _ animation: some PropertyAnimation<MeshTransform>, forKey key: String?,
        completion: ((_ finished: Bool) -> Void)? = nil
    ) throws {
        var meshes: [MeshTransform?] = [modelValue]
        var names = ["the property's mesh"]
        if let basic = animation as? BasicAnimation<MeshTransform> {
            meshes += [basic.fromValue, basic.toValue, basic.byValue]
            names += ["fromValue", "toValue", "byValue"]
        } else if let spring = animation as? SpringAnimation<MeshTransform> {
            meshes += [spring.fromValue, spring.toValue, spring.byValue]
            names += ["fromValue", "toValue", "byValue"]
        } else if let keyframes = animation as? KeyframeAnimation<MeshTransform> {
            meshes += keyframes.values
            names += keyframes.values.indices.map { "values[\($0)]" }
        }
        try MeshTransform.checkCompatible(meshes, names: names)
        addAnimation(animation, forKey: key, completion: completion)
    }
}
