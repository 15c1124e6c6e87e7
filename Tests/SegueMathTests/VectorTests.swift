import Foundation
import SegueMath
import Testing

@Suite("Vectors")
struct VectorTests {
    @Test func vector2Arithmetic() {
        let a = Vector2(1, 2)
        let b = Vector2(x: 3, y: -5)
        #expect(a + b == Vector2(4, -3))
        #expect(a - b == Vector2(-2, 7))
        #expect(-a == Vector2(-1, -2))
        #expect(a * 2 == Vector2(2, 4))
        #expect(3 * a == Vector2(3, 6))
        #expect(b / 2 == Vector2(1.5, -2.5))
        #expect(a.dot(b) == 3 - 10)
        #expect(Vector2(3, 4).length == 5)
        #expect(Vector2(3, 4).normalized == Vector2(0.6, 0.8))
        #expect(Vector2.zero.normalized == .zero)
        var c = a
        c += b
        c *= 2
        c /= 4
        c -= Vector2(1, 1)
        #expect(c == Vector2(1, -2.5))
        #expect(Vector2.lerp(a, b, 0.25) == Vector2(1.5, 0.25))
        #expect(Vector2.lerp(a, b, 1) == b)
    }

    @Test func vector3ArithmeticAndCross() {
        let x = Vector3(1, 0, 0)
        let y = Vector3(0, 1, 0)
        let z = Vector3(0, 0, 1)
        #expect(x.cross(y) == z)
        #expect(y.cross(z) == x)
        #expect(z.cross(x) == y)
        #expect(y.cross(x) == -z)
        let a = Vector3(1, 2, 3)
        let b = Vector3(-4, 5, 6)
        // Hand-computed: (2·6 − 3·5, 3·(−4) − 1·6, 1·5 − 2·(−4)) = (−3, −18, 13)
        #expect(a.cross(b) == Vector3(-3, -18, 13))
        #expect(a.cross(b).dot(a) == 0)
        #expect(a.dot(b) == -4 + 10 + 18)
        #expect(Vector3(2, 3, 6).length == 7)
        #expect(abs(Vector3(2, 3, 6).normalized.length - 1) < 1e-15)
        #expect(a + b == Vector3(-3, 7, 9))
        #expect(a - b == Vector3(5, -3, -3))
        #expect(a * 2 == Vector3(2, 4, 6))
        #expect(a / 2 == Vector3(0.5, 1, 1.5))
        #expect(Vector3.lerp(a, b, 0.5) == Vector3(-1.5, 3.5, 4.5))
        #expect(Vector3(Vector2(1, 2), z: 3) == a)
        #expect(a.xy == Vector2(1, 2))
    }

    @Test func vector4Arithmetic() {
        let a = Vector4(1, 2, 3, 4)
        let b = Vector4(4, 3, 2, 1)
        #expect(a + b == Vector4(5, 5, 5, 5))
        #expect(a - b == Vector4(-3, -1, 1, 3))
        #expect(a.dot(b) == 4 + 6 + 6 + 4)
        #expect(Vector4(1, 1, 1, 1).length == 2)
        #expect(Vector4(Vector3(1, 2, 3), w: 4) == a)
        #expect(a.xyz == Vector3(1, 2, 3))
        #expect(Vector4.lerp(a, b, 0.5) == Vector4(2.5, 2.5, 2.5, 2.5))
        #expect(-a * 0.5 == Vector4(-0.5, -1, -1.5, -2))
    }

    @Test func codableRoundTrip() throws {
        let values = (Vector2(1.5, -2), Vector3(1, 2, 3), Vector4(0.25, 0.5, 0.75, 1))
        let data2 = try JSONEncoder().encode(values.0)
        let data3 = try JSONEncoder().encode(values.1)
        let data4 = try JSONEncoder().encode(values.2)
        #expect(try JSONDecoder().decode(Vector2.self, from: data2) == values.0)
        #expect(try JSONDecoder().decode(Vector3.self, from: data3) == values.1)
        #expect(try JSONDecoder().decode(Vector4.self, from: data4) == values.2)
    }
}
