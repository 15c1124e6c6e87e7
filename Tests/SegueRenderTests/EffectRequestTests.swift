// The library's errors for a request an effect cannot take speak of settings, not of the
// command's flags (a C host or a Python script has none): the command line words them itself
// (ErrorPathCLITests checks its wording).
import Foundation
import Segue
import Testing

@Suite("EffectRequest errors")
struct EffectRequestTests {
    @Test("stitchable settings on a full-screen effect: the case and words without flags")
    func stitchableSettingsOnAnotherKind() throws {
        let request = EffectRequest(effect: "fade", stitchable: StitchableRequest(insertion: (-1, 0)))
        let error = try #require(throws: StitchableConfigurationError.self) { try request.resolve() }
        #expect(error.reason == .notStitchable(effect: "fade", kind: "full-screen"))
        #expect(
            error.message
                == "a function, arguments, an animated argument, insertion and removal ranges, a removal function and a maximum sample offset apply to stitchable shader effects (.metal files, shift); 'fade' is a full-screen effect: set its parameters instead"
        )
    }

    @Test("a value for the animated argument: the case names the argument, the words no flag")
    func animatedArgumentAssigned() throws {
        let path = fixture("Distortions.metal")
        let request = EffectRequest(
            effect: path + ":flagWave", stitchable: StitchableRequest(arguments: [(name: "effectValue", value: "0.5")]))
        let error = try #require(throws: StitchableConfigurationError.self) { try request.resolve() }
        #expect(error.reason == .animatedArgumentAssigned(name: "effectValue"))
        #expect(error.message == "'effectValue' is the animated argument; set its insertion and removal ranges instead of a value")
    }
}
