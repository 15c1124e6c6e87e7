import SegueMath
import Testing

@Suite("Interpolatable")
struct InterpolatableTests {
    @Test func doubleInterpolationIsExactAtTheEnds() {
        let pairs: [(Double, Double)] = [(0.1, 0.3), (-7, 1e9), (3, 3), (1e-300, -2.5)]
        for (a, b) in pairs {
            #expect(a.interpolated(to: b, fraction: 0) == a)
            #expect(a.interpolated(to: b, fraction: 1) == b)
        }
        #expect(2.0.interpolated(to: 6, fraction: 0.25) == 3)
        #expect(2.0.interpolated(to: 6, fraction: 1.5) == 8)
        #expect(2.0.interpolated(to: 6, fraction: -0.5) == 0)
        #expect(2.0.distance(to: -3) == 5)
        #expect(2.0.scaled(by: -1.5) == -3)
        #expect(Double.zero == 0)
    }

    @Test func vectorConformances() {
        let a = Vector2(0, 0)
        let b = Vector2(3, 4)
        #expect(a.distance(to: b) == 5)
        #expect(a.interpolated(to: b, fraction: 0.5) == Vector2(1.5, 2))
        #expect(Vector3(1, 2, 2).distance(to: .zero) == 3)
        #expect(Vector3(1, 2, 2).scaled(by: 2) == Vector3(2, 4, 4))
        #expect(Vector4(1, 1, 1, 1).distance(to: .zero) == 2)
        #expect(Vector4(0, 0, 0, 0).interpolated(to: Vector4(4, 8, 12, 16), fraction: 0.25) == Vector4(1, 2, 3, 4))
    }

    @Test func transformInterpolationIsEntrywise() {
        let a = Transform3D(translationX: 0, y: 0)
        let b = Transform3D(translationX: 10, y: -20, z: 4)
        #expect(a.interpolated(to: b, fraction: 0.5) == Transform3D(translationX: 5, y: -10, z: 2))
        let s1 = Transform3D(scaleX: 1, y: 1)
        let s2 = Transform3D(scaleX: 3, y: 5)
        #expect(s1.interpolated(to: s2, fraction: 0.25) == Transform3D(scaleX: 1.5, y: 2))
        // Frobenius distances: identity to zero is √4 = 2; the translation above is √(100+400+16).
        #expect(Transform3D.identity.distance(to: .zero) == 2)
        #expect(a.distance(to: b) == (516.0).squareRoot())
        #expect((b - a) + a == b)
        #expect(Transform3D.identity.scaled(by: 2).m44 == 2)
        #expect(Transform3D.zero.rowMajor.allSatisfy { $0 == 0 })
    }

    @Test func colorConformance() {
        let a = AnimatableColor(red: 1, green: 0, blue: 0, alpha: 1)
        let b = AnimatableColor(red: 0, green: 0, blue: 1, alpha: 0)
        #expect(a.interpolated(to: b, fraction: 0.5) == AnimatableColor(red: 0.5, green: 0, blue: 0.5, alpha: 0.5))
        #expect(a.distance(to: b) == (3.0).squareRoot())
        #expect(a + b == AnimatableColor(red: 1, green: 0, blue: 1, alpha: 1))
        #expect(a - a == AnimatableColor.zero)
        #expect(AnimatableColor.white.scaled(by: 0.5) == AnimatableColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5))
    }
}
