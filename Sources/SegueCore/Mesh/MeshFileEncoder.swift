import SegueMath
import SegueSystem

/// Writes a ``MeshFile`` as JSON text: stable key order, one vertex or face per line, whole
/// numbers without a fraction, other numbers in Swift's shortest round-trip form.
enum MeshFileEncoder {
    static func encode(_ file: MeshFile) -> String {
        let mesh = file.mesh
        let appearance = file.appearance
        var lines = ["{"]
        lines.append("  \"depthNormalization\": \"\(mesh.depthNormalization.rawValue)\",")
        lines.append("  \"vertices\": [")
        for (index, vertex) in mesh.vertices.enumerated() {
            let comma = index == mesh.vertices.count - 1 ? "" : ","
            lines.append(
                "    {\"from\": \(list([vertex.from.x, vertex.from.y])), \"to\": \(list([vertex.to.x, vertex.to.y, vertex.to.z]))}\(comma)")
        }
        lines.append("  ],")
        lines.append("  \"faces\": [")
        for (index, face) in mesh.faces.enumerated() {
            let comma = index == mesh.faces.count - 1 ? "" : ","
            let indices = "[\(face.indices.map(String.init).joined(separator: ", "))]"
            switch face.texture {
            case .from: lines.append("    \(indices)\(comma)")
            case .to: lines.append("    {\"indices\": \(indices), \"texture\": \"to\"}\(comma)")
            }
        }
        lines.append("  ],")
        let l = appearance.lightDirection
        lines.append("  \"lightDirection\": \(list([l.x, l.y, l.z])),")
        lines.append("  \"diffuseLightFactor\": \(String(exactNumber: appearance.diffuseLightFactor)),")
        lines.append("  \"supplementaryTransform\": \(list(appearance.supplementaryTransform.rowMajor)),")
        lines.append("  \"subdivisionSteps\": \(appearance.subdivisionSteps)")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static func list(_ values: [Double]) -> String {
        "[" + values.map(String.init(exactNumber:)).joined(separator: ", ") + "]"
    }
}
