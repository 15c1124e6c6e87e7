// The Metal (stitchable) front end: lexing, type checking and translation of arbitrary text,
// then building an effect from every function it finds; and the text forms of array and data
// values (`--arg values=0.1,0.5`), read from the input's last line (never as `@FILE`: the fuzzer
// reads no files).
import Segue

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetal(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let module = try? StitchableTranslator.translate(text, file: "fuzz.metal") {
        for function in module.functions {
            _ = try? function.effect(source: .file("fuzz.metal"))
            _ = try? function.imageEffect(source: .file("fuzz.metal"))
        }
    }
    let value = text.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    if !value.contains("@") {
        for type in [ParameterType.floatArray, .colorArray, .data] { _ = try? ParameterValue.parse(value, as: type, name: "v") }
    }
    return 0
}
