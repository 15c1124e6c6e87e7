// SHA-256 (FIPS 180-4, section 6.2): the shader cache's key and content checksums, and the
// fingerprints of a concat plan's inputs and pieces. Written from the standard; whole 64-byte
// blocks are compressed straight from the caller's buffer, so hashing a piece of video costs
// about as much as reading it.
import SegueSystem

/// A SHA-256 digest computed incrementally.
package struct SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
    /// Bytes of an incomplete block, waiting for the rest.
    private var block: [UInt8] = []
    private var length: UInt64 = 0
    private var w = [UInt32](repeating: 0, count: 64)

    /// An empty message.
    package init() { block.reserveCapacity(64) }

    /// Adds bytes to the message.
    package mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) { return done }
        for b in bytes {
            block.append(b)
            length &+= 1
            if block.count == 64 {
                block.withUnsafeBytes { compress($0) }
                block.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Adds bytes to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes[...]
        length &+= UInt64(bytes.count)
        if !block.isEmpty {
            let take = min(64 - block.count, rest.count)
            block.append(contentsOf: rest.prefix(take))
            rest = rest.dropFirst(take)
            guard block.count == 64 else { return }
            block.withUnsafeBytes { compress($0) }
            block.removeAll(keepingCapacity: true)
        }
        while rest.count >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        block.append(contentsOf: rest)
    }

    /// Adds a field as its UTF-8 length (8 bytes, little endian) and bytes, so that a sequence
    /// of fields hashes unambiguously.
    package mutating func update(field: String) {
        let utf8 = Array(field.utf8)
        update(withUnsafeBytes(of: UInt64(utf8.count).littleEndian, Array.init))
        update(utf8)
    }

    /// The 32-byte digest (the state is consumed).
    package mutating func finalize() -> [UInt8] {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        tail += [UInt8](repeating: 0, count: (119 - block.count) % 64)
        tail += withUnsafeBytes(of: bits.bigEndian, Array.init)
        let saved = length
        tail.withUnsafeBytes { update($0) }
        length = saved
        return h.flatMap { withUnsafeBytes(of: $0.bigEndian, Array.init) }
    }

    /// The digest of `bytes`.
    package static func hash<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        var s = SHA256()
        s.update(bytes)
        return s.finalize()
    }

    private mutating func compress(_ bytes: UnsafeRawBufferPointer) {
        var schedule: [UInt32] = []
        swap(&schedule, &w)  // borrowed for the block (no copy), so `h` can change meanwhile
        defer { swap(&schedule, &w) }
        schedule.withUnsafeMutableBufferPointer { w in
            for t in 0..<16 {
                w[t] =
                    UInt32(bytes[4 * t]) << 24 | UInt32(bytes[4 * t + 1]) << 16 | UInt32(bytes[4 * t + 2]) << 8 | UInt32(bytes[4 * t + 3])
            }
            for t in 16..<64 {
                let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
                let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            SHA256.k.withUnsafeBufferPointer { k in
                for t in 0..<64 {
                    let t1 = hh &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[t] &+ w[t]
                    let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                    (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                }
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d
            h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
        }
    }

    @inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
