// The one reading of SEGUE_GPU_TIMEOUT (the executable's environment dictionary and libsegue's
// getenv both go through it) and the bound on the wait: a number too large for Vulkan's 64-bit
// nanoseconds trapped in the conversion, and the message's whole-second text trapped in Int().
// Configurations are made from dictionaries; the process environment is never touched.
import SegueVulkan
import Testing

@Suite("GPU timeout setting")
struct GPUTimeoutTests {
    typealias Configuration = GPUContext.Configuration

    @Test("SEGUE_GPU_TIMEOUT longer than a day is a day; what is not a positive finite number is the default")
    func environmentValues() {
        #expect(Configuration.maximumGPUTimeout == 86_400)
        let expected: [(String, Double)] = [
            ("2.5", 2.5), ("86400", 86_400), ("86400.5", 86_400), ("1e12", 86_400), ("1e300", 86_400),
            ("1.8446744073709552e10", 86_400), ("0.000000001", 1e-9), ("0", 60), ("-5", 60), ("inf", 60), ("1e400", 60),
            ("nan", 60), ("", 60), ("x", 60),
        ]
        for (text, seconds) in expected {
            #expect(Configuration(environment: ["SEGUE_GPU_TIMEOUT": text]).gpuTimeout == seconds, "\(text)")
            #expect(Configuration.gpuTimeout(environmentValue: text) == seconds, "\(text)")
        }
        #expect(Configuration(environment: [:]).gpuTimeout == 60)
        #expect(Configuration.gpuTimeout(environmentValue: nil) == 60)
    }

    @Test("a timeout given in code is bounded the same way, at creation and when set later")
    func boundedInCode() {
        #expect(Configuration(gpuTimeout: 1e300).gpuTimeout == 86_400)
        #expect(Configuration(gpuTimeout: -1).gpuTimeout == 60)
        var configuration = Configuration(gpuTimeout: 5)
        configuration.gpuTimeout = 1e19
        #expect(configuration.gpuTimeout == 86_400)
        configuration.gpuTimeout = .nan
        #expect(configuration.gpuTimeout == 60)
        configuration.gpuTimeout = 0.25
        #expect(configuration.gpuTimeout == 0.25)
    }

    @Test("the timeout's message words any number of seconds without trapping")
    func message() {
        func limit(_ seconds: Double) -> String {
            let text = VulkanError.gpuTimeout(seconds: seconds, work: "'fade'").description
            let start = text.range(of: "'fade'")!.upperBound, end = text.range(of: " (a shader")!.lowerBound
            return String(text[start..<end])
        }
        #expect(limit(60) == " within 60 s")
        #expect(limit(0.5) == " within 0.5 s")
        #expect(limit(86_400) == " within 86400 s")
        #expect(limit(1e300) == " within 1e+300 s")
        #expect(limit(.infinity) == " in time")
    }
}
