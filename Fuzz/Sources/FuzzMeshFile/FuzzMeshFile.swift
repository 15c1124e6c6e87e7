// Mesh file decoding (JSON, validation, size limits) of arbitrary bytes.
import Foundation
import Segue

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMeshFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let file = try? MeshFile(data: Data(bytes: data, count: size)) {
        precondition(file.mesh.vertices.count <= MeshTransform.maximumVertexCount, "a mesh past the vertex limit was accepted")
    }
    return 0
}
