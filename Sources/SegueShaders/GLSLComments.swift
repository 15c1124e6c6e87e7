// GLSL's comments, read as the compiler reads them: left to right, so that `/*` inside a `//`
// comment opens nothing and `//` inside a `/* */` comment ends nothing. The template's scope
// scan, the transition parser's statement joining and `segue check`'s name search all read code
// through here.

/// GLSL source without its comments.
package enum GLSLComments {
    /// `source` with every comment replaced by one space (a `//` comment's newline is kept, and
    /// so are the newlines inside a `/* */` comment, so that line numbers stay); `unclosed` is
    /// true when a `/*` comment runs to the end of the text.
    package static func stripped(_ source: String) -> (code: String, unclosed: Bool) {
        let bytes = Array(source.utf8)
        var code: [UInt8] = []
        code.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let next: UInt8? = i + 1 < bytes.count ? bytes[i + 1] : nil
            if bytes[i] == UInt8(ascii: "/"), next == UInt8(ascii: "/") {
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                code.append(UInt8(ascii: " "))
            } else if bytes[i] == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                code.append(UInt8(ascii: " "))
                i += 2
                while i < bytes.count, !(bytes[i] == UInt8(ascii: "*") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/")) {
                    if bytes[i] == UInt8(ascii: "\n") { code.append(UInt8(ascii: "\n")) }
                    i += 1
                }
                if i >= bytes.count { return (String(decoding: code, as: UTF8.self), true) }
                i += 2
            } else {
                code.append(bytes[i])
                i += 1
            }
        }
        return (String(decoding: code, as: UTF8.self), false)
    }
}
