// Shader limits: huge private arrays are refused before they reach the driver (lavapipe would
// spend minutes creating the pipeline), and a uniform block larger than the device can bind is
// refused instead of reading zeros.
import Foundation
import SegueCore
import SegueTestSupport
import Testing

@testable import SegueVulkan

@Suite("Shader limits")
struct ShaderLimitTests {
    @Test(
        "a local or global array of 100 000 000 floats is refused, naming the limit",
        arguments: [
            ("local", "", "float a[100000000];\n a[int(vUV.x * 7.0)] = u.progress;\n color = vec4(a[int(vUV.y * 5.0)]);"),
            ("global", "float g[100000000];", "g[int(vUV.x * 7.0)] = u.progress;\n color = vec4(g[int(vUV.y * 5.0)]);"),
            ("nested", "", "vec4 a[1000][1000];\n a[int(vUV.x * 7.0)][int(vUV.y * 3.0)] = vec4(u.progress);\n color = a[2][1];"),
        ])
    func hugeArrays(kind: String, globals: String, body: String) throws {
        let context = try TestGPU.context()
        let source = fragmentShader(body, globals: globals)
        do {
            _ = try renderFullScreen(context, source, fileName: "\(kind).frag", progress: 0.5)
            Issue.record("a \(kind) array of 100 000 000 elements was accepted")
        } catch let error as VulkanError {
            guard case let .shaderTooLarge(file, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(file == "\(kind).frag")
            #expect(error.message.contains("more than the limit of 65536"), "\(error.message)")
            #expect(error.message.hasPrefix("shader '\(kind).frag' declares an array of "), "\(error.message)")
        }
    }

    @Test("many arrays under the element limit but over 1 MiB together are refused; modest arrays render")
    func privateBytes() throws {
        let context = try TestGPU.context()
        // Five arrays of 60 000 vec4 (960 000 bytes each).
        let decls = (0..<5).map { "vec4 a\($0)[60000];" }.joined(separator: " ")
        let uses = (0..<5).map { "a\($0)[int(vUV.x * 9.0)] = vec4(u.progress); s += a\($0)[int(vUV.y * 3.0)];" }.joined(separator: "\n")
        let big = fragmentShader("vec4 s = vec4(0.0);\n \(uses)\n color = s;", globals: decls)
        #expect(throws: VulkanError.self) { try renderFullScreen(context, big, fileName: "bytes.frag", progress: 0.5) }
        do {
            _ = try renderFullScreen(context, big, fileName: "bytes.frag", progress: 0.5)
        } catch let error as VulkanError {
            #expect(
                error.message.contains("bytes of local and global variables, more than the limit of 1048576 bytes (1 MiB)"),
                "\(error.message)")
        }
        // 9 coefficients, as blur kernels use, render as before.
        let modest = fragmentShader(
            """
            float k[9];
            for (int i = 0; i < 9; i++) k[i] = float(i) / 8.0;
            color = vec4(vec3(k[int(vUV.x * 8.99)] * 0.0 + u.progress), 1.0);
            """)
        let pixels = try renderFullScreen(context, modest, fileName: "modest.frag", progress: 0.5)
        #expect(abs(Int(pixels[0]) - 128) <= 1 && pixels[3] == 255)
    }

    @Test(
        "a signed division that may be by −1 is found in compiled SPIR-V (such modules skip spirv-opt); by other constants, unsigned or float it is not"
    )
    func signedDivision() throws {
        let compiler = ShaderCompiler(cache: nil)
        let cases: [(String, Bool)] = [
            ("int i = int(vUV.x * 9.0) / 3; color = vec4(float(i));", false),
            ("int i = int(vUV.x * 9.0) % 4; color = vec4(float(i));", false),
            ("ivec2 i = ivec2(vUV * 9.0) / ivec2(2, 2); color = vec4(vec2(i), 0.0, 1.0);", false),
            ("ivec2 i = ivec2(vUV * 9.0) / ivec2(2, -1); color = vec4(vec2(i), 0.0, 1.0);", true),
            ("int i = int(vUV.x * 9.0) / -1; color = vec4(float(i));", true),
            ("int z = int(vUV.y * 3.0); int i = int(vUV.x * 9.0) / z; color = vec4(float(i));", true),
            ("int z = -1; int i = int(vUV.x * 9.0) % z; color = vec4(float(i));", true),
            ("uint i = uint(vUV.x * 9.0) / 3u; color = vec4(float(i));", false),
            ("color = vec4(vUV.x / 3.0);", false),
        ]
        for (body, divides) in cases {
            let words = try compiler.compile(fragmentShader(body), stage: .fragment, fileName: "d.frag")
            #expect(SPIRVModule.mayDivideByMinusOne(words) == divides, "\(body)")
        }
        // INT_MIN / −1 on a value spirv-opt can prove: its folder divided on the host and raised
        // SIGFPE, killing the process. Compiled without it, the shader renders.
        let fold = fragmentShader("int y = -2147483647 - 1; y /= -1; int z = y % -1; color = vec4(u.progress) + vec4(float(y + z) * 0.0);")
        let pixels = try renderFullScreen(try TestGPU.context(), fold, fileName: "fold.frag", progress: 0.5)
        #expect(abs(Int(pixels[0]) - 128) <= 1)
    }

    @Test("signed divisions a driver can prove are made total first: INT_MIN / (-1, 3) gives (INT_MIN, -715827882), x % -1 gives 0")
    func guardedDivision() throws {
        // lavapipe folded this vector division on the host, in C, and raised SIGFPE.
        let source = fragmentShader(
            """
            ivec2 a = ivec2(-2147483647 - 1); ivec2 m = ivec2(-1, 3); ivec2 q = a / m; ivec2 r = a % m;
            int s = (-2147483647 - 1) / m.x;
            color = vec4(q.x == -2147483647 - 1 ? 1.0 : 0.0, q.y == -715827882 ? 1.0 : 0.0, r.x == 0 ? 1.0 : 0.0,
                s == -2147483647 - 1 ? 1.0 : 0.0);
            """)
        let words = try ShaderCompiler(cache: nil).compile(source, stage: .fragment, fileName: "guard.frag")
        // Each of the three divisions is now behind a test of its divisor against -1 (OpIEqual),
        // besides the four comparisons written.
        let opcodes = SPIRVModule.instructions(words).map(\.op)
        #expect(opcodes.filter { [135, 139].contains($0) }.count == 3, "\(opcodes)")
        #expect(opcodes.filter { $0 == 170 }.count == 3 + 4, "\(opcodes)")
        let pixels = try renderFullScreen(try TestGPU.context(), source, fileName: "guard.frag", progress: 0.5)
        #expect(Array(pixels.prefix(4)) == [255, 255, 255, 255])
    }

    @Test("the guard declares a bool type where the module has none, and guards 64-bit divisions with two-word constants")
    func guardedDivisionTypes() throws {
        // No comparison anywhere: the module's first bool is the guard's.
        let noBool = fragmentShader(
            "int z = int(vUV.y * 0.0) - 1; int q = (-2147483647 - 1) / z; color = vec4(vec3(float(q) / -2147483648.0), 1.0);")
        let pixels = try renderFullScreen(try TestGPU.context(), noBool, fileName: "nobool.frag", progress: 0.5)
        #expect(Array(pixels.prefix(4)) == [255, 255, 255, 255])
        let wide = fragmentShader(
            "int64_t z = int64_t(vUV.y * 3.0) - 1l; int64_t q = int64_t(vUV.x * 9.0) / z; color = vec4(float(q));",
            globals: "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require")
        let words = try ShaderCompiler(cache: nil).compile(wide, stage: .fragment, fileName: "wide.frag")
        let instructions = SPIRVModule.instructions(words)
        let constants = instructions.filter { $0.op == 43 }.map { Array(words[($0.at + 3)..<($0.at + $0.count)]) }
        let equalities = instructions.filter { $0.op == 170 }.count
        #expect(equalities == 1)
        #expect(constants.contains([0xffff_ffff, 0xffff_ffff]) && constants.contains([1, 0]))
    }

    @Test("the private-memory count of compiled SPIR-V: arrays multiply, structs add")
    func privateMemoryCount() throws {
        let context = try TestGPU.context()
        let words = try context.compiler.compile(
            fragmentShader(
                """
                float a[1000];
                vec3 b[10][20];
                a[int(vUV.x * 999.0)] = u.progress;
                b[int(vUV.x * 9.0)][int(vUV.y * 19.0)] = vec3(u.progress);
                color = vec4(b[3][4], a[7]);
                """), stage: .fragment, fileName: "count.frag")
        let memory = SPIRVModule.privateMemory(words)
        #expect(memory.largestArray == 1000)
        #expect(memory.bytes == 1000 * 4 + 200 * 12)
    }

    @Test("a uniform block larger than maxUniformBufferRange is refused with its size and the limit")
    func uniformBlockTooLarge() throws {
        let context = try TestGPU.context()
        let limit = Int(context.limits.maxUniformBufferRange)
        let textures = [try GPUTexture(context: context, image: Image(width: 1, height: 1, fill: .black))]
        let size = limit + 16
        let glsl = """
            #version 450
            layout(set = 0, binding = 0) uniform U { vec4 v[\(size / 16)]; } u;
            layout(location = 0) out vec4 color;
            void main() { color = u.v[\(size / 16 - 1)]; }
            """
        #expect(throws: VulkanError.uniformBlockTooLarge(bytes: size, limit: limit)) {
            try FrameRenderer(
                context: context, fragmentGLSL: glsl, fileName: "ubo.frag", uniformSize: size, textures: textures,
                width: 1, height: 1, framesInFlight: 1)
        }
        #expect(
            VulkanError.uniformBlockTooLarge(bytes: 65600, limit: 65536).message
                == "the effect's parameters take 65600 bytes, more than this device's limit of 65536 bytes for a uniform block (maxUniformBufferRange); declare fewer or smaller parameters"
        )
    }
}
