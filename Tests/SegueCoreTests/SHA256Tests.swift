// SHA-256 against FIPS 180-4's examples, fed whole, byte by byte and in uneven pieces.
import SegueCore
import SegueSystem
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test("the FIPS 180-4 examples, a million 'a's, and every way of splitting a message give the same digest")
    func examples() {
        #expect(SHA256.hash(Array("abc".utf8)).hexDigits == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hash([UInt8]()).hexDigits == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let million = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(SHA256.hash(million).hexDigits == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // 0…299 bytes of a pattern: split at every point, and fed through a non-contiguous sequence.
        for count in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 299] {
            let message = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let whole = SHA256.hash(message)
            var bytewise = SHA256()
            bytewise.update(message.lazy.map { $0 })  // not contiguous: the byte-at-a-time path
            #expect(bytewise.finalize() == whole, "\(count) bytes one at a time")
            for split in stride(from: 0, through: count, by: max(1, count / 7)) {
                var s = SHA256()
                s.update(Array(message[..<split]))
                s.update(Array(message[split...]))
                #expect(s.finalize() == whole, "\(count) bytes split at \(split)")
            }
        }
    }
}
