// Transform3D follows Core Animation's CATransform3D exactly:
// - points are ROW vectors multiplied on the left: [x' y' z' w'] = [x y z 1] · M,
//   so the translation lives in the fourth row (m41, m42, m43) and perspective in the fourth
//   column (m14, m24, m34, m44);
// - `a.concatenating(b)` is CATransform3DConcat(a, b) = a · b: `a` is applied first;
// - `t.translated(...)`, `t.scaled(...)`, `t.rotated(...)` are CATransform3DTranslate/Scale/Rotate:
//   the new operation is applied FIRST, i.e. `Transform3D(translationX:...).concatenating(t)`;
// - rotations use CATransform3DMakeRotation's convention (a positive angle about +z maps
//   (1, 0, 0) to (0, 1, 0)).
// Inversion is Gauss–Jordan elimination with partial pivoting.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A 4×4 homogeneous transform with Core Animation's `CATransform3D` semantics (row vectors,
/// `[x' y' z' w'] = [x y z 1] · M`, perspective through `m34 = −1/d`).
public struct Transform3D: Sendable, Hashable, Codable {
    /// Row 1, column 1.
    public var m11: Double
    /// Row 1, column 2.
    public var m12: Double
    /// Row 1, column 3.
    public var m13: Double
    /// Row 1, column 4.
    public var m14: Double
    /// Row 2, column 1.
    public var m21: Double
    /// Row 2, column 2.
    public var m22: Double
    /// Row 2, column 3.
    public var m23: Double
    /// Row 2, column 4.
    public var m24: Double
    /// Row 3, column 1.
    public var m31: Double
    /// Row 3, column 2.
    public var m32: Double
    /// Row 3, column 3.
    public var m33: Double
    /// Row 3, column 4 (perspective: `−1/d` for an eye at distance `d`).
    public var m34: Double
    /// Row 4, column 1 (translation x).
    public var m41: Double
    /// Row 4, column 2 (translation y).
    public var m42: Double
    /// Row 4, column 3 (translation z).
    public var m43: Double
    /// Row 4, column 4.
    public var m44: Double

    // MARK: - Construction

    /// Creates a transform from its sixteen entries, row by row.
    public init(
        m11: Double, m12: Double, m13: Double, m14: Double,
        m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double,
        m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// Creates a transform from 16 entries in row-major order (`m11, m12, …, m44`).
    ///
    /// - Precondition: `rowMajor.count == 16`.
    public init(rowMajor: [Double]) {
        precondition(rowMajor.count == 16, "Transform3D(rowMajor:) needs 16 entries, got \(rowMajor.count)")
        self.init(
            m11: rowMajor[0], m12: rowMajor[1], m13: rowMajor[2], m14: rowMajor[3],
            m21: rowMajor[4], m22: rowMajor[5], m23: rowMajor[6], m24: rowMajor[7],
            m31: rowMajor[8], m32: rowMajor[9], m33: rowMajor[10], m34: rowMajor[11],
            m41: rowMajor[12], m42: rowMajor[13], m43: rowMajor[14], m44: rowMajor[15]
        )
    }

    /// The sixteen entries in row-major order (`m11, m12, …, m44`).
    public var rowMajor: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// The identity transform (CATransform3DIdentity).
    public static let identity = Transform3D(
        m11: 1, m12: 0, m13: 0, m14: 0,
        m21: 0, m22: 1, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1
    )

    /// A translation by `(tx, ty, tz)` (CATransform3DMakeTranslation).
    public init(translationX tx: Double, y ty: Double, z tz: Double = 0) {
        self = .identity
        m41 = tx
        m42 = ty
        m43 = tz
    }

    /// A scale by `(sx, sy, sz)` about the origin (CATransform3DMakeScale).
    public init(scaleX sx: Double, y sy: Double, z sz: Double = 1) {
        self = .identity
        m11 = sx
        m22 = sy
        m33 = sz
    }

    /// A rotation by `angle` radians about the axis `(x, y, z)` through the origin
    /// (CATransform3DMakeRotation). A positive angle about +z maps (1, 0, 0) to (0, 1, 0).
    /// The axis need not be normalized; a zero axis gives the identity.
    public init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0 else {
            self = .identity
            return
        }
        let (ax, ay, az) = (x / length, y / length, z / length)
        let c = cos(angle)
        let s = sin(angle)
        let t = 1 - c
        self.init(
            m11: t * ax * ax + c, m12: t * ax * ay + az * s, m13: t * ax * az - ay * s, m14: 0,
            m21: t * ax * ay - az * s, m22: t * ay * ay + c, m23: t * ay * az + ax * s, m24: 0,
            m31: t * ax * az + ay * s, m32: t * ay * az - ax * s, m33: t * az * az + c, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1
        )
    }

    // MARK: - Element access

    /// The entry at a zero-based `row` and `column` (`self[0, 3]` is `m14`).
    public subscript(row: Int, column: Int) -> Double {
        get {
            precondition((0..<4).contains(row) && (0..<4).contains(column), "Transform3D index out of range")
            switch row * 4 + column {
            case 0: return m11
            case 1: return m12
            case 2: return m13
            case 3: return m14
            case 4: return m21
            case 5: return m22
            case 6: return m23
            case 7: return m24
            case 8: return m31
            case 9: return m32
            case 10: return m33
            case 11: return m34
            case 12: return m41
            case 13: return m42
            case 14: return m43
            default: return m44
            }
        }
        set {
            precondition((0..<4).contains(row) && (0..<4).contains(column), "Transform3D index out of range")
            switch row * 4 + column {
            case 0: m11 = newValue
            case 1: m12 = newValue
            case 2: m13 = newValue
            case 3: m14 = newValue
            case 4: m21 = newValue
            case 5: m22 = newValue
            case 6: m23 = newValue
            case 7: m24 = newValue
            case 8: m31 = newValue
            case 9: m32 = newValue
            case 10: m33 = newValue
            case 11: m34 = newValue
            case 12: m41 = newValue
            case 13: m42 = newValue
            case 14: m43 = newValue
            default: m44 = newValue
            }
        }
    }

    // MARK: - Composition

    /// The matrix product `self · other` (CATransform3DConcat(self, other)): `self` is applied
    /// first, then `other`.
    public func concatenating(_ other: Transform3D) -> Transform3D {
        let a = self
        let b = other
        return Transform3D(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
            m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
            m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
            m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
            m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
            m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
            m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
            m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44
        )
    }

    /// This transform with a translation applied first (CATransform3DTranslate).
    public func translated(x tx: Double, y ty: Double, z tz: Double = 0) -> Transform3D {
        Transform3D(translationX: tx, y: ty, z: tz).concatenating(self)
    }

    /// This transform with a scale applied first (CATransform3DScale).
    public func scaled(x sx: Double, y sy: Double, z sz: Double = 1) -> Transform3D {
        Transform3D(scaleX: sx, y: sy, z: sz).concatenating(self)
    }

    /// This transform with a rotation applied first (CATransform3DRotate).
    public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
    }

    // MARK: - Inversion

    /// The inverse transform, or `nil` when the matrix is singular (a pivot smaller than
    /// 1e-14 times the largest entry during elimination). CATransform3DInvert returns the
    /// original matrix in that case; Segue makes the failure visible instead.
    public var inverted: Transform3D? {
        var a = rowMajor
        var inv = Transform3D.identity.rowMajor
        let scale = a.reduce(0) { max($0, abs($1)) }
        guard scale > 0, scale.isFinite else { return nil }
        let tolerance = scale * 1e-14
        for column in 0..<4 {
            // Partial pivoting: the row with the largest entry in this column.
            var pivotRow = column
            for row in (column + 1)..<4 where abs(a[row * 4 + column]) > abs(a[pivotRow * 4 + column]) {
                pivotRow = row
            }
            let pivot = a[pivotRow * 4 + column]
            guard abs(pivot) > tolerance else { return nil }
            if pivotRow != column {
                for j in 0..<4 {
                    a.swapAt(pivotRow * 4 + j, column * 4 + j)
                    inv.swapAt(pivotRow * 4 + j, column * 4 + j)
                }
            }
            for j in 0..<4 {
                a[column * 4 + j] /= pivot
                inv[column * 4 + j] /= pivot
            }
            for row in 0..<4 where row != column {
                let factor = a[row * 4 + column]
                guard factor != 0 else { continue }
                for j in 0..<4 {
                    a[row * 4 + j] -= factor * a[column * 4 + j]
                    inv[row * 4 + j] -= factor * inv[column * 4 + j]
                }
            }
        }
        return Transform3D(rowMajor: inv)
    }

    // MARK: - Classification

    /// Whether this is exactly the identity (CATransform3DIsIdentity).
    public var isIdentity: Bool { self == .identity }

    /// Whether the transform is a 2D affine transform of the x–y plane, exactly representable
    /// by a `CGAffineTransform` (CATransform3DIsAffine): no z terms, no perspective.
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0
            && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0
            && m43 == 0 && m44 == 1
    }

    /// Whether all sixteen entries are finite numbers.
    public var isFinite: Bool {
        rowMajor.allSatisfy(\.isFinite)
    }

    /// Whether the transform has a perspective component (a fourth column other than (0, 0, 0, 1)).
    public var hasPerspective: Bool {
        m14 != 0 || m24 != 0 || m34 != 0 || m44 != 1
    }
}
