// gl-transitions source parsing (header, uniforms, defaults, line ends) of arbitrary text.
import Segue

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransitionFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let effect = try? TransitionSourceParser.parse(text, name: "fuzz", source: .file("fuzz.glsl")) {
        // Resolving every parameter's default must not trap either.
        _ = try? effect.resolveParameters([])
    }
    return 0
}
