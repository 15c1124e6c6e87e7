// Concat plans as data: how an edit is split into jobs, the JSON round trip, and strict reading —
// a truncated, damaged, oversized or mistyped plan, or one of another format or Segue version, is
// a `PlanError` naming what is wrong, never a trap or a plan quietly taken.
import Foundation
import Segue
import SegueMath
import SegueTestSupport
import Testing

@testable import SegueConcat

@Suite("Concatenation: plans")
struct ConcatPlanTests {
    /// Two 2 s clips of different sizes (so the edit is a full render) with sound.
    private func makePlan(
        _ dir: TemporaryDirectory, jobSeconds: Double = 1, output: String = "out.mp4",
        transition: CutSpec = CutSpec(effect: "fade", duration: 0.5)
    ) throws -> ConcatPlan {
        let a = dir.file("a.mp4"), b = dir.file("b.mp4")
        if !FileManager.default.fileExists(atPath: a) {
            try makeClip(a, color: "red", width: 64, height: 48, fps: 25, seconds: 2)
            try makeClip(b, color: "blue", width: 48, height: 48, fps: 25, seconds: 2)
        }
        let concatenation = try Concatenation(spec: ConcatSpec(clips: [ClipSpec(path: a), ClipSpec(path: b)], transition: transition))
        let renderer = try ConcatRenderer(
            concatenation, output: dir.file(output), settings: VideoSettings(preset: output.hasSuffix(".gif") ? nil : "ultrafast"))
        return try renderer.plan(smart: false, jobSeconds: jobSeconds, pieceStem: "p")
    }

    @Test("a full render: segments cut at the transition, none longer than the job length, and the sound")
    func segments() throws {
        let dir = try TemporaryDirectory()
        let plan = try makePlan(dir)
        // 3.5 s at 25 fps = 88 frames (87.5 rounded); the fade covers 1.5…2 s = frames 38…50.
        #expect(plan.output.frames == 88 && plan.output.width == 64 && plan.output.height == 48)
        // The sound first: one encoder thread for the whole length, started first by schedulers
        // that take jobs in order.
        #expect(plan.jobs.map(\.kind) == [.sound, .segment, .segment, .segment, .segment, .segment])
        #expect(plan.jobs.map(\.frames) == [nil, [0, 19], [19, 38], [38, 50], [50, 69], [69, 88]])
        #expect(plan.jobs.map(\.piece) == (0..<6).map { "p.job-000\($0).mp4" })
        #expect(plan.jobs.map(\.record) == (0..<6).map { "p.job-000\($0).json" })
        #expect(plan.join.method == "concat" && plan.join.video.map(\.job) == [1, 2, 3, 4, 5] && plan.join.sound == 0)
        #expect(plan.join.video.map(\.duration) == [0.76, 0.76, 0.48, 0.76, 0.76])
        #expect(plan.inputs.map(\.path) == [dir.file("a.mp4"), dir.file("b.mp4")])
        let size = try #require(FileManager.default.attributesOfItem(atPath: dir.file("a.mp4"))[.size] as? Int)
        #expect(plan.inputs[0].size == Int64(size) && plan.inputs[0].hash.count == 64)
        // Ten-second jobs: one segment per stretch.
        #expect(try makePlan(dir, jobSeconds: 10).jobs.map(\.frames) == [nil, [0, 38], [38, 50], [50, 88]])
        // Jobs of a hundredth of a second: parts of 8 frames at least (a shorter piece has no
        // B-frame delay to join with), so the 12-frame fade is one.
        let tiny = try makePlan(dir, jobSeconds: 0.01).jobs.compactMap(\.frames)
        #expect(tiny.allSatisfy { $0[1] - $0[0] >= 8 } && tiny.contains([38, 50]) && tiny.first?[0] == 0 && tiny.last?[1] == 88, "\(tiny)")
        // A GIF: one job rendering everything, published.
        let gif = try makePlan(dir, output: "out.gif")
        #expect(gif.jobs.map(\.kind) == [.render] && gif.jobs[0].frames == [0, 88] && gif.jobs[0].piece == "p.job-0000.gif")
        #expect(gif.join.method == "publish" && gif.join.sound == nil)
        // VP9 and ProRes segments in their own containers.
        #expect(
            try makePlan(dir, output: "out.webm").jobs.map { ($0.piece as NSString).pathExtension } == [
                "webm", "webm", "webm", "webm", "webm", "webm",
            ])
        let mov = try ConcatRenderer(
            Concatenation(spec: ConcatSpec(clips: [ClipSpec(path: dir.file("a.mp4"))])), output: dir.file("o.mov"),
            settings: VideoSettings(codec: .prores)
        ).plan(smart: false, pieceStem: "p")
        #expect(mov.jobs.map(\.piece) == ["p.job-0000.mov", "p.job-0001.mov"])
    }

    @Test("the fingerprint hashes the first and the last MiB; a file of up to 2 MiB whole")
    func fingerprint() throws {
        let dir = try TemporaryDirectory()
        let small = dir.file("small"), large = dir.file("large")
        let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        try Data(bytes.prefix(1000)).write(to: URL(fileURLWithPath: small))
        try Data(bytes).write(to: URL(fileURLWithPath: large))
        #expect(try ConcatPlan.fingerprint(small).hash == SHA256.hash(bytes.prefix(1000)).hexDigits)
        let ends = Array(bytes.prefix(1 << 20)) + Array(bytes.suffix(1 << 20))
        let print = try ConcatPlan.fingerprint(large)
        #expect(print.hash == SHA256.hash(ends).hexDigits && print.size == Int64(bytes.count))
    }

    @Test("encoded and read back, a plan is the same plan; its identity is stable")
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        var plan = try makePlan(dir, transition: CutSpec(effect: "wipe", duration: 0.5, params: ["smoothness": "0.2"], timing: "ease-in"))
        plan.workDirectory = "/somewhere/pieces"
        let read = try ConcatPlan(json: plan.encoded())
        #expect(read == plan)
        #expect(read.identity == plan.identity && read.encoded() == plan.encoded())
        // Not written while its work directory does not exist (the jobs could not write there).
        #expect(throws: PlanError.self) { try plan.write(to: dir.file("p.json")) }
        #expect(!FileManager.default.fileExists(atPath: dir.file("p.json")))
        let pieces = dir.file("pieces")
        try FileManager.default.createDirectory(atPath: pieces, withIntermediateDirectories: true)
        plan.workDirectory = pieces
        try plan.write(to: dir.file("p.json"))
        #expect(try ConcatPlan.read(path: dir.file("p.json")) == plan)
        #expect(plan.defaultWorkDirectory(planPath: dir.file("p.json")) == pieces)
        plan.workDirectory = nil
        #expect(plan.defaultWorkDirectory(planPath: dir.file("p.json")) == dir.path)
        #expect(ConcatPlan.pieceStem(planPath: "/x/edit.JSON") == "edit" && ConcatPlan.pieceStem(planPath: "plan") == "plan")
    }

    @Test("every truncation and random damage of a plan is an error, never a trap or a plan taken")
    func truncatedAndDamaged() throws {
        let dir = try TemporaryDirectory()
        let plan = try makePlan(dir)
        let bytes = [UInt8](plan.encoded())
        // Every cut point (a JSON document cut anywhere before its last brace is invalid).
        for cut in 0..<(bytes.count - 1) {
            #expect(throws: PlanError.self, "cut at \(cut) of \(bytes.count)") { try ConcatPlan(json: Data(bytes[..<cut])) }
        }
        // Damage: bytes overwritten at random places (seeded), which must never trap; whatever still
        // decodes must be a plan that passes the checks.
        var random = SplitMix64(seed: 20)
        var refused = 0
        for _ in 0..<400 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            do { try ConcatPlan(json: Data(damaged)).check() } catch { refused += 1 }
        }
        #expect(refused > 300, "most damage is refused: \(refused) of 400")
        #expect(
            throws: PlanError(
                "the plan is not valid JSON at line 1, column 1: unexpected character byte 255 (cut short or damaged?); plan again")
        ) {
            try ConcatPlan(json: Data([0xFF, 0xFE, 0, 1]))
        }
        #expect(throws: PlanError("the plan is not a JSON object; plan again")) { try ConcatPlan(json: Data("[1, 2]".utf8)) }
        #expect(throws: PlanError("the plan has no format version; it is not a Segue plan")) {
            try ConcatPlan(json: Data("{\"clips\": []}".utf8))
        }
    }

    @Test("another format, another Segue, a missing or mistyped field, numbers that do not fit: each names what is wrong")
    func strict() throws {
        let dir = try TemporaryDirectory()
        let plan = try makePlan(dir)
        func edited(_ change: (inout [String: Any]) -> Void) throws -> Data {
            var object = try #require(try JSONSerialization.jsonObject(with: plan.encoded()) as? [String: Any])
            change(&object)
            return try JSONSerialization.data(withJSONObject: object)
        }
        func expectError(_ message: String, _ change: (inout [String: Any]) -> Void) throws {
            let data = try edited(change)
            #expect(throws: PlanError(message)) { try ConcatPlan(json: data) }
        }
        try expectError("the plan is in format 2; this Segue (\(SegueVersion.current)) reads format 1: plan again") { $0["version"] = 2 }
        try expectError(
            "the plan was made by Segue 9.9.9, this is Segue \(SegueVersion.current): plan again with this Segue, or run every job and the join with Segue 9.9.9"
        ) {
            $0["segue"] = "9.9.9"
        }
        try expectError("the plan is not valid: jobs: missing") { $0["jobs"] = nil }
        try expectError(#"the plan is not valid: output.fps: expected a number, found the string "fast""#) {
            var o = $0["output"] as? [String: Any] ?? [:]; o["fps"] = "fast"; $0["output"] = o
        }
        try expectError("the plan is not valid: jobs[2].frames: expected [start, end) within 0 to 88") {
            var jobs = $0["jobs"] as? [[String: Any]] ?? []; jobs[2]["frames"] = [50, 38]; $0["jobs"] = jobs
        }
        try expectError("the plan is not valid: join.video[1]: job 3 starts at frame 38, not 19") {
            var join = $0["join"] as? [String: Any] ?? [:]
            var video = join["video"] as? [[String: Any]] ?? []
            video.remove(at: 1); join["video"] = video; $0["join"] = join
        }
        try expectError("the plan is not valid: jobs[1]: '../x.mp4' is not a file name of its own") {
            var jobs = $0["jobs"] as? [[String: Any]] ?? []; jobs[1]["piece"] = "../x.mp4"; $0["jobs"] = jobs
        }
        try expectError("the plan is not valid: inputs[0].hash: expected 64 hexadecimal digits") {
            var inputs = $0["inputs"] as? [[String: Any]] ?? []; inputs[0]["hash"] = "abc"; $0["inputs"] = inputs
        }
        try expectError("the plan is not valid: output: crf (quality) for h264 must be from 0 to 51, got 99") {
            var o = $0["output"] as? [String: Any] ?? [:]; o["crf"] = 99; $0["output"] = o
        }
        let huge = Data(count: ConcatPlan.maximumFileSize + 1)
        #expect(throws: PlanError("the plan is \(huge.count) bytes; the limit is \(ConcatPlan.maximumFileSize)")) {
            try ConcatPlan(json: huge)
        }
    }

    @Test("a job number out of range names the range; an input changed since planning names the file")
    func jobNumbersAndInputs() throws {
        let dir = try TemporaryDirectory()
        let plan = try makePlan(dir)
        #expect(throws: PlanError("there is no job 6: the plan has jobs 0 to 5")) { try plan.checkJobNumber(6) }
        #expect(throws: PlanError("there is no job -1: the plan has jobs 0 to 5")) { try plan.checkJobNumber(-1) }
        try plan.checkInputs()
        let date = Date(timeIntervalSince1970: plan.inputs[1].modified + 60)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: dir.file("b.mp4"))
        #expect(throws: PlanError("\(dir.file("b.mp4")) changed since planning (it was modified after planning); plan again")) {
            try plan.checkInputs()
        }
        try FileManager.default.removeItem(atPath: dir.file("a.mp4"))
        #expect(throws: PlanError.self) { try plan.checkInputs() }
    }
}
