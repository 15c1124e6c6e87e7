import Foundation
import SegueMath
import Testing

/// Independent reference: the 4×4 product of two row-major arrays, by the textbook triple loop.
private func referenceProduct(_ a: [Double], _ b: [Double]) -> [Double] {
    var c = [Double](repeating: 0, count: 16)
    for i in 0..<4 {
        for j in 0..<4 {
            for k in 0..<4 {
                c[i * 4 + j] += a[i * 4 + k] * b[k * 4 + j]
            }
        }
    }
    return c
}

/// Independent reference: Rodrigues' rotation formula for a right-handed rotation.
private func rodrigues(_ v: Vector3, axis: Vector3, angle: Double) -> Vector3 {
    let k = axis.normalized
    return v * cos(angle) + k.cross(v) * sin(angle) + k * (k.dot(v) * (1 - cos(angle)))
}

private func maxDifference(_ a: [Double], _ b: [Double]) -> Double {
    zip(a, b).map { abs($0 - $1) }.max() ?? 0
}

private func isClose(_ a: Vector3, _ b: Vector3, _ tolerance: Double) -> Bool {
    (a - b).length <= tolerance
}

@Suite("Transform3D")
struct Transform3DTests {
    @Test func identityAndElementAccess() {
        let i = Transform3D.identity
        #expect(i.rowMajor == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(i.isIdentity)
        var t = Transform3D(rowMajor: Array(stride(from: 1.0, through: 16, by: 1)))
        #expect(t.m11 == 1 && t.m14 == 4 && t.m21 == 5 && t.m34 == 12 && t.m41 == 13 && t.m44 == 16)
        #expect(t[2, 3] == 12)
        #expect(t[3, 0] == 13)
        t[1, 2] = -7
        #expect(t.m23 == -7)
        #expect(!t.isIdentity)
        #expect(i.apply(to: Vector3(1, 2, 3)) == Vector4(1, 2, 3, 1))
    }

    @Test func translationAndScaleMatrices() {
        let t = Transform3D(translationX: 10, y: 20, z: 30)
        #expect(t.rowMajor == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 30, 1])
        #expect(t.project(Vector3(1, 2, 3)) == Vector3(11, 22, 33))
        let s = Transform3D(scaleX: 2, y: 3, z: 4)
        #expect(s.rowMajor == [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1])
        #expect(s.project(Vector3(1, 1, 1)) == Vector3(2, 3, 4))
    }

    @Test func rotationAboutZMatchesCATransform3DMakeRotation() {
        // CATransform3DMakeRotation(π/2, 0, 0, 1) maps (1, 0, 0) to (0, 1, 0).
        let r = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        #expect(isClose(r.project(Vector3(1, 0, 0)), Vector3(0, 1, 0), 1e-15))
        #expect(isClose(r.project(Vector3(0, 1, 0)), Vector3(-1, 0, 0), 1e-15))
        // Hand-computed entries for an angle θ about z: [[c, s], [−s, c]] in the upper-left.
        let theta = 0.3
        let rz = Transform3D(rotationAngle: theta, x: 0, y: 0, z: 1)
        let expected: [Double] = [cos(theta), sin(theta), 0, 0, -sin(theta), cos(theta), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        #expect(maxDifference(rz.rowMajor, expected) < 1e-15)
    }

    @Test func rotationsAboutXAndYAreRightHanded() {
        let rx = Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0)
        #expect(isClose(rx.project(Vector3(0, 1, 0)), Vector3(0, 0, 1), 1e-15))
        let ry = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0)
        #expect(isClose(ry.project(Vector3(0, 0, 1)), Vector3(1, 0, 0), 1e-15))
        #expect(isClose(ry.project(Vector3(1, 0, 0)), Vector3(0, 0, -1), 1e-15))
    }

    @Test func rotationAboutArbitraryAxisMatchesRodrigues() {
        let axes = [Vector3(1, 2, 3), Vector3(-0.5, 0.25, 1), Vector3(0, -3, 0.1)]
        let angles = [0.1, 1.0, -2.3, 3.0]
        let points = [Vector3(1, 0, 0), Vector3(0.3, -0.7, 2), Vector3(-5, 4, 1)]
        for axis in axes {
            for angle in angles {
                let r = Transform3D(rotationAngle: angle, x: axis.x, y: axis.y, z: axis.z)
                // Scaling the axis does not change the rotation.
                let r2 = Transform3D(rotationAngle: angle, x: axis.x * 7, y: axis.y * 7, z: axis.z * 7)
                #expect(maxDifference(r.rowMajor, r2.rowMajor) < 1e-15)
                for p in points {
                    #expect(isClose(r.project(p), rodrigues(p, axis: axis, angle: angle), 1e-13))
                }
            }
        }
        #expect(Transform3D(rotationAngle: 1, x: 0, y: 0, z: 0).isIdentity)
    }

    @Test func concatenationIsMatrixProductWithLeftAppliedFirst() {
        let a = Transform3D(rowMajor: [1, 2, 0, 0.1, 0, 1, 3, 0, 4, 0, 1, 0, 5, 6, 7, 1])
        let b = Transform3D(rowMajor: [2, 0, 1, 0, 0, 3, 0, 0.2, 1, 1, 1, 0, -1, 2, 0, 1])
        #expect(maxDifference(a.concatenating(b).rowMajor, referenceProduct(a.rowMajor, b.rowMajor)) < 1e-14)
        // Translate then scale: (1, 0, 0) → (2, 0, 0) → (4, 0, 0).
        let t = Transform3D(translationX: 1, y: 0)
        let s = Transform3D(scaleX: 2, y: 2)
        #expect(t.concatenating(s).project(Vector3(1, 0, 0)) == Vector3(4, 0, 0))
        // Scale then translate: (1, 0, 0) → (2, 0, 0) → (3, 0, 0).
        #expect(s.concatenating(t).project(Vector3(1, 0, 0)) == Vector3(3, 0, 0))
    }

    @Test func translatedScaledRotatedApplyTheNewOperationFirst() {
        let s = Transform3D(scaleX: 2, y: 2, z: 2)
        let ts = s.translated(x: 1, y: 0, z: 0)
        #expect(ts == Transform3D(translationX: 1, y: 0, z: 0).concatenating(s))
        #expect(ts.project(Vector3(0, 0, 0)) == Vector3(2, 0, 0))

        let t = Transform3D(translationX: 10, y: 0)
        let tr = t.rotated(by: .pi / 2, x: 0, y: 0, z: 1)
        #expect(isClose(tr.project(Vector3(1, 0, 0)), Vector3(10, 1, 0), 1e-14))
        #expect(tr == Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1).concatenating(t))

        let tsc = t.scaled(x: 3, y: 1, z: 1)
        #expect(tsc.project(Vector3(1, 1, 0)) == Vector3(13, 1, 0))
        #expect(tsc == Transform3D(scaleX: 3, y: 1, z: 1).concatenating(t))
    }

    @Test func inversionRoundTrips() throws {
        let m = Transform3D.identity
            .rotated(by: 0.7, x: 1, y: -2, z: 0.5)
            .scaled(x: 2, y: 0.5, z: 3)
            .translated(x: 10, y: -4, z: 2)
            .concatenating(.perspective(distance: 500))
        let inverse = try #require(m.inverted)
        let identity = Transform3D.identity.rowMajor
        #expect(maxDifference(m.concatenating(inverse).rowMajor, identity) < 1e-12)
        #expect(maxDifference(inverse.concatenating(m).rowMajor, identity) < 1e-12)
        // A general matrix that needs pivoting (zero in the top-left corner).
        let g = Transform3D(rowMajor: [0, 2, 1, 0, 3, 0, 1, 1, 1, 1, 0, 2, 4, 0, 2, 1])
        let gi = try #require(g.inverted)
        #expect(maxDifference(g.concatenating(gi).rowMajor, identity) < 1e-12)
        // Hand-computed: the inverse of a translation is the opposite translation.
        let ti = try #require(Transform3D(translationX: 3, y: -4, z: 5).inverted)
        #expect(maxDifference(ti.rowMajor, Transform3D(translationX: -3, y: 4, z: -5).rowMajor) < 1e-15)
    }

    @Test func singularMatricesHaveNoInverse() {
        #expect(Transform3D(scaleX: 0, y: 1, z: 1).inverted == nil)
        #expect(Transform3D(rowMajor: [1, 2, 3, 4, 2, 4, 6, 8, 0, 1, 0, 0, 0, 0, 0, 1]).inverted == nil)
        #expect(Transform3D.zero.inverted == nil)
    }

    @Test func perspectiveDivide() {
        let p = Transform3D.perspective(distance: 500)
        #expect(p.m34 == -1.0 / 500)
        // w' = 1 − z/500 = 0.8 for z = 100, so (100, 50, 100) → (125, 62.5, 125).
        let h = p.apply(to: Vector3(100, 50, 100))
        #expect(h == Vector4(100, 50, 100, 0.8))
        let projected = p.project(Vector3(100, 50, 100))
        #expect(isClose(projected, Vector3(125, 62.5, 125), 1e-12))
        // Points on the z = 0 plane are unchanged; points behind it shrink.
        #expect(p.project(Vector3(7, 8, 0)) == Vector3(7, 8, 0))
        #expect(isClose(p.project(Vector3(100, 0, -500)), Vector3(50, 0, -250), 1e-12))
    }

    @Test func classification() {
        #expect(Transform3D(translationX: 3, y: 4).isAffine)
        #expect(!Transform3D(translationX: 3, y: 4, z: 1).isAffine)
        #expect(Transform3D(rotationAngle: 0.5, x: 0, y: 0, z: 1).isAffine)
        #expect(!Transform3D(rotationAngle: 0.5, x: 1, y: 0, z: 0).isAffine)
        #expect(!Transform3D.perspective(distance: 100).isAffine)
        #expect(Transform3D.perspective(distance: 100).hasPerspective)
        #expect(!Transform3D(scaleX: 2, y: 2, z: 2).hasPerspective)
        #expect(!Transform3D(scaleX: 2, y: 2, z: 2).isAffine)
    }

    @Test func codableRoundTrip() throws {
        let m = Transform3D(rotationAngle: 0.4, x: 1, y: 1, z: 0).translated(x: 1, y: 2, z: 3)
        let decoded = try JSONDecoder().decode(Transform3D.self, from: JSONEncoder().encode(m))
        #expect(decoded == m)
    }

    @Test func finiteness() {
        #expect(Transform3D.identity.isFinite)
        #expect(Transform3D.perspective(distance: 500).isFinite)
        var m = Transform3D.identity
        m.m43 = .infinity
        #expect(!m.isFinite)
        m.m43 = 0
        m[1, 2] = .nan
        #expect(!m.isFinite)
    }
}
