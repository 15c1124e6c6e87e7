// Issue 22 item 9: an error's length must not grow with the file. A shader with hundreds of
// errors gets the compiler's first lines and a count of the rest, each line cut to a readable length.
import Foundation
import SegueTestSupport
import Testing

@testable import SegueVulkan

@Suite("Shader compiler messages")
struct ShaderCompilerLogTests {
    @Test("300 errors: the first lines and a count of the rest")
    func manyErrors() throws {
        let context = try TestGPU.context()
        let body = (0..<300).map { "float a\($0) = undeclared\($0);" }.joined(separator: "\n") + "\ncolor = vec4(1.0);"
        let result = Result { () throws(VulkanError) -> [UInt32] in
            try context.compiler.compile(fragmentShader(body), stage: .fragment, fileName: "errors.frag")
        }
        guard case let .failure(.shaderCompilation(file, log)) = result else {
            Issue.record("expected a compilation error, got \(result)")
            return
        }
        #expect(file == "errors.frag")
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == ShaderCompiler.maximumLogLines + 1, "\(lines.count) lines")
        #expect(lines[0].hasPrefix("errors.frag:"), "\(lines[0])")
        #expect(lines[0].contains("'undeclared0' : undeclared identifier"), "\(lines[0])")
        #expect(lines.last?.hasPrefix("… and ") == true && lines.last?.hasSuffix(" more lines") == true, "\(lines.last ?? "")")
    }

    @Test("a log is kept as it is when short; long lines are cut")
    func trimming() {
        #expect(ShaderCompiler.trimmedLog("a.frag:1: error: x\na.frag:2: error: y") == "a.frag:1: error: x\na.frag:2: error: y")
        let long = String(repeating: "z", count: 2_000)
        #expect(ShaderCompiler.trimmedLog(long) == String(repeating: "z", count: ShaderCompiler.maximumLogLineLength) + "…")
        let many = (1...100).map { "line \($0)" }.joined(separator: "\n")
        #expect(
            ShaderCompiler.trimmedLog(many) == (1...ShaderCompiler.maximumLogLines).map { "line \($0)" }.joined(separator: "\n")
                + "\n… and \(100 - ShaderCompiler.maximumLogLines) more lines")
    }
}
