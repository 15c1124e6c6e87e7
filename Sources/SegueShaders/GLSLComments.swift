// GLSL's comments, read as the compiler reads them: left to right, so that `/*` inside a `//`
// comment opens nothing and `//` inside a `/* */` comment ends nothing. The template's scope
// scan, the transition parser's declarations and statement joining and `segue check`'s name
// search all read code through here.

/// GLSL source without its comments.
package enum GLSLComments {
    /// `source` with every byte of every comment replaced by a space, newlines kept, so that
    /// line numbers and byte offsets stay; `unclosed` is true when a `/*` comment runs to the end
    /// of the text.
    package static func stripped(_ source: String) -> (code: String, unclosed: Bool) {
        let bytes = Array(source.utf8)
        var code: [UInt8] = []
        code.reserveCapacity(bytes.count)
        func blank(_ byte: UInt8) { code.append(byte == UInt8(ascii: "\n") ? byte : UInt8(ascii: " ")) }
        var i = 0
        while i < bytes.count {
            let next: UInt8? = i + 1 < bytes.count ? bytes[i + 1] : nil
            if bytes[i] == UInt8(ascii: "/"), next == UInt8(ascii: "/") {
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") {
                    blank(bytes[i])
                    i += 1
                }
            } else if bytes[i] == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                blank(bytes[i])
                blank(bytes[i + 1])
                i += 2
                while i < bytes.count, !(bytes[i] == UInt8(ascii: "*") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/")) {
                    blank(bytes[i])
                    i += 1
                }
                if i >= bytes.count { return (String(decoding: code, as: UTF8.self), true) }
                blank(bytes[i])
                blank(bytes[i + 1])
                i += 2
            } else {
                code.append(bytes[i])
                i += 1
            }
        }
        return (String(decoding: code, as: UTF8.self), false)
    }
}
