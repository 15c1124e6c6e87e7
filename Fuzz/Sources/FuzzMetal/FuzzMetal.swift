// The Metal (stitchable) front end: lexing, type checking and translation of arbitrary text,
// then building an effect from every function it finds.
import Segue

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetal(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let module = try? StitchableTranslator.translate(text, file: "fuzz.metal") {
        for function in module.functions { _ = try? function.effect(source: .file("fuzz.metal")) }
    }
    return 0
}
