// PNG and JPEG decoding (recognised by their first bytes) of arbitrary bytes: any input must
// give an image or a MediaError, never a crash or an unbounded allocation.
import Segue

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let image = try? ImageFile.decode(data: bytes, path: "fuzz") {
        precondition(image.pixels.count == image.width * image.height * 4, "decoded image has the wrong number of bytes")
    }
    return 0
}
