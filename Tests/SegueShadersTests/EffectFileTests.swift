// Issue 22 item 15: effect files that are directories, named pipes, unreadable or not UTF-8 all
// said "not readable UTF-8 text", and a named pipe without a writer blocked the open for ever.
import Foundation
import SegueTestSupport
import Testing

@testable import SegueShaders

@Suite("Effect files")
struct EffectFileTests {
    private func reason(_ path: String) -> String? {
        do {
            _ = try EffectFile.read(path)
            return nil
        } catch {
            guard case let .unreadable(p, reason) = error, p == path else { return "unexpected \(error)" }
            return reason
        }
    }

    @Test("a directory, a missing file, a file under a file and a too large file say what they are")
    func kinds() throws {
        let scratch = try TemporaryDirectory("effect-file"), dir = scratch.path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/shader.metal", withIntermediateDirectories: true)
        #expect(reason(dir + "/shader.metal") == "it is a directory, not a file")
        #expect(reason(dir + "/missing.glsl") == "no such file")
        try "x".write(toFile: dir + "/plain", atomically: true, encoding: .utf8)
        #expect(reason(dir + "/plain/t.glsl") == "a part of the path is not a directory")
        try Data(count: EffectFile.maximumSize + 1).write(to: URL(fileURLWithPath: dir + "/big.glsl"))
        #expect(
            reason(dir + "/big.glsl")
                == "it is \(EffectFile.maximumSize + 1) bytes; effect files are limited to \(EffectFile.maximumSize) bytes")
        #expect(EffectFile.reason(EACCES) == "permission denied")
        #expect(EffectFile.reason(ENFILE) == "too many open files in the system; close some programs and try again")
        #expect(EffectFile.wording(.grewPastLimit) == "it is more than 1048576 bytes; effect files are limited to 1048576 bytes")
        #expect(EffectFile.wording(.notRegular(S_IFCHR)) == "it is a device, not a regular file")
        #expect(EffectFile.wording(.notRegular(S_IFSOCK)) == "it is not a regular file")
        // Through the catalog, with the path.
        #expect(throws: EffectLookupError.unreadable(path: dir + "/shader.metal", reason: "it is a directory, not a file")) {
            try EffectCatalog.effect(dir + "/shader.metal")
        }
    }

    @Test("a named pipe with no writer is refused at once, not waited on")
    func fifo() throws {
        let scratch = try TemporaryDirectory("effect-file"), dir = scratch.path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/pipe.glsl"
        #expect(mkfifo(path, 0o600) == 0)
        final class Box: @unchecked Sendable { var reason: String? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        // On a thread of its own, so a blocking open fails the test instead of hanging it.
        Thread {
            box.reason = self.reason(path); done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 10) == .success, "reading a FIFO blocked")
        #expect(box.reason == "it is a pipe (FIFO), not a regular file; save the effect to a file first")
    }

    @Test("bytes that are not UTF-8 are named with their line; valid text reads back")
    func encoding() throws {
        let scratch = try TemporaryDirectory("effect-file"), dir = scratch.path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var bytes = Array("// é is fine\nvec4 transition(vec2 uv) {\n  return vec4(".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array(");\n}\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/latin.glsl"))
        #expect(reason(dir + "/latin.glsl") == "it is not UTF-8 text (the first invalid byte is on line 3)")
        try "// é\nvec4 transition(vec2 uv) { return vec4(1.0); }\n".write(toFile: dir + "/ok.glsl", atomically: true, encoding: .utf8)
        #expect(try EffectFile.read(dir + "/ok.glsl") == "// é\nvec4 transition(vec2 uv) { return vec4(1.0); }\n")
        #expect(try EffectCatalog.effect(dir + "/ok.glsl").name == "ok")
        // A byte-order mark opens the text and is not part of it (glslang read it as a token).
        try Data([0xEF, 0xBB, 0xBF] + Array("vec4 transition(vec2 uv) { return vec4(1.0); }\n".utf8))
            .write(to: URL(fileURLWithPath: dir + "/bom.glsl"))
        #expect(try EffectFile.read(dir + "/bom.glsl") == "vec4 transition(vec2 uv) { return vec4(1.0); }\n")
    }
}
