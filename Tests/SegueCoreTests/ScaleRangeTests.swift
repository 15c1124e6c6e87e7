// The one check of a scale (pixels per point) a caller gives, against the range a use allows, with
// one wording of what is allowed; images refuse a scale that no use allows before they are made.
import SegueCore
import Testing

@Suite("Scale ranges")
struct ScaleRangeTests {
    @Test("any image: a finite number above 0")
    func positive() {
        for scale in [1e-9, 0.5, 1, 3, 1e9] { #expect(ScaleRange.positive.problem(scale) == nil) }
        #expect(ScaleRange.positive.problem(0) == "must be a positive number, got 0")
        #expect(ScaleRange.positive.problem(-1) == "must be a positive number, got -1")
        #expect(ScaleRange.positive.problem(.nan) == "must be a positive number, got NaN")
        #expect(ScaleRange.positive.problem(.infinity) == "must be a positive number, got infinity")
    }

    @Test("a use's range: up to a maximum (0 excluded), or from a minimum; its bounds are in it")
    func bounded() {
        let window = ScaleRange(maximum: 8), gallery = ScaleRange(minimum: 0.1, maximum: 2)
        #expect(window.description == "in (0, 8]" && gallery.description == "in [0.1, 2]")
        #expect(ScaleRange(minimum: 0.5).description == "at least 0.5")
        #expect(ScaleRange.positive.description == "a positive number")
        for scale in [1e-9, 8] { #expect(window.contains(scale)) }
        for scale in [0, 8.000001, .infinity, .nan] { #expect(!window.contains(scale)) }
        #expect(window.problem(9) == "must be in (0, 8], got 9")
        #expect(window.problem(0) == "must be in (0, 8], got 0")
        for scale in [0.1, 2] { #expect(gallery.problem(scale) == nil) }
        #expect(gallery.problem(0.05) == "must be in [0.1, 2], got 0.05")
        #expect(gallery.problem(-.infinity) == "must be in [0.1, 2], got -infinity")
    }

    @Test("Image.validateScale throws what is wrong, naming the scale; never a trap")
    func validate() throws {
        try Image.validateScale(2)
        #expect(throws: ImageScaleError(scale: 0, range: .positive)) { try Image.validateScale(0) }
        #expect(throws: ImageScaleError(scale: 5, range: ScaleRange(maximum: 4))) { try Image.validateScale(5, in: ScaleRange(maximum: 4)) }
        #expect(ImageScaleError(scale: .nan, range: .positive).description == "scale must be a positive number, got NaN")
    }
}
