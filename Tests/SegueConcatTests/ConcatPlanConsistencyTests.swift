// A plan's numbers must agree with one another when it is read: lengths with frames and the frame
// rate, copied stretches' in and out points ordered, not negative and as long as their stretch.
// A structured fuzzer perturbs the fields of a real smart plan (one or several at once, with
// values near and far) and compares `ConcatPlan(json:)` with an independent statement of those
// rules; and a join whose pieces no longer make the planned frames is refused before anything is
// published, even with their records forged to match.
import Foundation
import Segue
import SegueMath
import SegueTestSupport
import Testing

@testable import SegueConcat

@Suite("Concatenation: plans that disagree with themselves")
struct ConcatPlanConsistencyTests {
    /// Three 2 s 96×64 clips at 30 fps, H.264 with B-frames and a keyframe every 15 frames, so
    /// a smart plan copies stretches (with in and out points) between rendered transitions.
    private func smartPlan(_ dir: TemporaryDirectory) throws -> ConcatPlan {
        let paths = ["a", "b", "c"].map { dir.file("\($0).mp4") }
        for (k, path) in paths.enumerated() {
            try ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=s=96x64:r=30:d=2,hue=h=\(k * 120)", "-c:v", "libx264", "-preset", "veryfast",
                "-bf", "2", "-g", "15", "-keyint_min", "15", "-sc_threshold", "0", "-pix_fmt", "yuv420p", path,
            ])
        }
        let spec = ConcatSpec(clips: paths.map { ClipSpec(path: $0) }, transition: CutSpec(effect: "fade", duration: 0.5))
        let renderer = try ConcatRenderer(
            try Concatenation(spec: spec), output: dir.file("out.mp4"), settings: VideoSettings(preset: "ultrafast"))
        return try renderer.plan(smart: true, jobSeconds: 10, pieceStem: "p")
    }

    /// The rules, stated apart from the reader: nil when `plan` keeps them, else which it breaks.
    private func brokenRule(_ plan: ConcatPlan) -> String? {
        let fps = plan.output.fps
        func agrees(_ seconds: Double, _ frames: Int) -> Bool { abs(seconds - Double(frames) / fps) <= 1e-6 * max(1, abs(seconds)) }
        if !agrees(plan.output.seconds, plan.output.frames) { return "output.seconds" }
        for job in plan.jobs where !agrees(job.seconds, job.kind == .sound ? plan.output.frames : job.frameRange.count) {
            return "job seconds"
        }
        for entry in plan.join.video {
            let job = plan.jobs[entry.job]
            if !agrees(entry.duration, job.frameRange.count) { return "entry duration" }
            if entry.inpoint == nil, entry.outpoint == nil { continue }
            if job.kind != .copy { return "in/out on a rendered piece" }
            let start = entry.inpoint ?? 0
            if start < 0 { return "negative inpoint" }
            if let end = entry.outpoint {
                if end <= start { return "outpoint not after inpoint" }
                // At most half a frame past the stretch, at most 16.5 frames (the reorder delay) short.
                if end - start > entry.duration + 0.5 / fps || end - start < entry.duration - 16.5 / fps { return "stretch length" }
            }
        }
        return nil
    }

    /// `plan` as JSON with `edit` applied to its tree.
    private func json(_ plan: ConcatPlan, _ edit: (inout [String: Any]) -> Void) throws -> Data {
        var tree = try #require(try JSONSerialization.jsonObject(with: plan.encoded()) as? [String: Any])
        edit(&tree)
        return try JSONSerialization.data(withJSONObject: tree)
    }

    @Test(
        "the reported tampering (outpoint -1, a negative inpoint, an outpoint past the piece) and each length out of step is refused, naming the field"
    )
    func namedTampering() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let plan = try smartPlan(dir)
        #expect(brokenRule(plan) == nil)
        #expect(try ConcatPlan(json: plan.encoded()) == plan)
        let copied = try #require(plan.join.video.firstIndex { $0.outpoint != nil })
        let rendered = try #require(plan.join.video.firstIndex { plan.jobs[$0.job].kind == .render })
        func entry(_ tree: inout [String: Any], _ i: Int, _ key: String, _ value: Any) {
            var join = tree["join"] as! [String: Any]
            var video = join["video"] as! [[String: Any]]
            video[i][key] = value
            join["video"] = video
            tree["join"] = join
        }
        let cases: [(String, (inout [String: Any]) -> Void, String)] = [
            ("outpoint -1", { entry(&$0, copied, "outpoint", -1) }, "join.video[\(copied)].outpoint"),
            ("inpoint -0.5", { entry(&$0, copied, "inpoint", -0.5) }, "join.video[\(copied)].inpoint"),
            ("outpoint past the piece", { entry(&$0, copied, "outpoint", 1000) }, "join.video[\(copied)]"),
            ("an inpoint on a rendered piece", { entry(&$0, rendered, "inpoint", 0) }, "join.video[\(rendered)]"),
            ("a stretch's duration", { entry(&$0, copied, "duration", 0.1) }, "join.video[\(copied)].duration"),
            (
                "a job's seconds",
                { tree in
                    var jobs = tree["jobs"] as! [[String: Any]]
                    jobs[1]["seconds"] = 99
                    tree["jobs"] = jobs
                }, "jobs[1].seconds"
            ),
            (
                "the output's seconds",
                { tree in
                    var output = tree["output"] as! [String: Any]
                    output["seconds"] = 1
                    tree["output"] = output
                }, "output.seconds"
            ),
            (
                "a sound rate no encoder writes",
                { tree in
                    var output = tree["output"] as! [String: Any]
                    output["sampleRate"] = 7999
                    output["channels"] = 2
                    tree["output"] = output
                }, "output: the sound must be 8000 to 192000 Hz with 1 to 8 channels, got 7999 Hz, 2 channels"
            ),
        ]
        for (what, edit, field) in cases {
            #expect(throws: PlanError.self, "\(what)") { try ConcatPlan(json: json(plan, edit)) }
            do { _ = try ConcatPlan(json: json(plan, edit)) } catch {
                let message = (error as? PlanError)?.message ?? "\(error)"
                #expect(message.contains(field), "\(what): \(message)")
            }
        }
        // An integer too large for its field says so, not "not valid JSON".
        let huge = Data(
            String(decoding: plan.encoded(), as: UTF8.self)
                .replacingOccurrences(of: "\"frames\" : \(plan.output.frames)", with: "\"frames\" : 99999999999999999999999999").utf8)
        #expect(huge != plan.encoded())
        do { _ = try ConcatPlan(json: huge); Issue.record("a huge frame count was read") } catch {
            #expect(error.message == "the plan is not valid: output.frames: 1e+26 is too large", "\(error.message)")
        }
    }

    @Test("fuzzing: 600 plans with one to three fields perturbed are read exactly when they keep the rules, never trapping")
    func structuredFuzz() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let plan = try smartPlan(dir)
        var random = SplitMix64(seed: 31)
        let fps = plan.output.fps
        // Values near the right ones (a frame or half a frame off), and far (negative, zero, huge).
        func perturbed(_ value: Double) -> Double {
            let choices = [value + 1 / fps, value - 1 / fps, value + 0.4 / fps, value - 0.4 / fps, -value, 0, -1, value * 2, 1e9, value]
            return choices[Int(random.next() % UInt64(choices.count))]
        }
        var accepted = 0, refused = 0
        for _ in 0..<600 {
            var p = plan
            for _ in 0...Int(random.next() % 3) {
                let i = Int(random.next() % UInt64(p.join.video.count)), n = Int(random.next() % UInt64(p.jobs.count))
                switch random.next() % 6 {
                case 0: p.join.video[i].inpoint = perturbed(p.join.video[i].inpoint ?? 0)
                case 1: p.join.video[i].outpoint = perturbed(p.join.video[i].outpoint ?? p.join.video[i].duration)
                case 2: p.join.video[i].duration = perturbed(p.join.video[i].duration)
                case 3: p.jobs[n].seconds = perturbed(p.jobs[n].seconds)
                case 4: p.output.seconds = perturbed(p.output.seconds)
                default: (p.join.video[i].inpoint, p.join.video[i].outpoint) = (p.join.video[i].outpoint, p.join.video[i].inpoint)
                }
            }
            let rule = brokenRule(p)
            do {
                let read = try ConcatPlan(json: p.encoded())
                #expect(rule == nil, "a plan breaking '\(rule ?? "")' was read: \(p.join.video)")
                #expect(read == p)
                accepted += 1
            } catch {
                #expect(rule != nil, "a plan keeping the rules was refused: \(error.message)")
                refused += 1
            }
        }
        #expect(accepted > 20 && refused > 300, "accepted \(accepted), refused \(refused)")
    }

    @Test("a join whose pieces no longer make the planned frames is refused, even with forged records; nothing is published")
    func joinCountsFrames() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let plan = try smartPlan(dir)
        let spec = try Concatenation(spec: plan.spec)
        let renderer = try ConcatRenderer(spec, output: plan.output.path, settings: plan.settings)
        for n in plan.jobs.indices { try renderer.runJob(n, of: plan, in: dir.path) }
        // A copied piece replaced by the first rendered piece (fewer frames), its record forged.
        let copy = try #require(plan.jobs.firstIndex { $0.kind == .copy })
        let render = try #require(plan.jobs.firstIndex { $0.kind == .render })
        let piece = dir.file(plan.jobs[copy].piece)
        try FileManager.default.removeItem(atPath: piece)
        try FileManager.default.copyItem(atPath: dir.file(plan.jobs[render].piece), toPath: piece)
        let (size, hash) = try ConcatPlan.digest(ofFile: piece)
        let record = PieceRecord(version: 1, plan: plan.identity, job: copy, piece: plan.jobs[copy].piece, size: size, sha256: hash)
        try JSONEncoder().encode(record).write(to: URL(fileURLWithPath: dir.file(plan.jobs[copy].record)))
        let output = dir.file("joined.mp4")
        do {
            try plan.join(in: dir.path, output: output)
            Issue.record("a join of the wrong frames was published")
        } catch let error as MediaError {
            #expect(
                error.message.contains("frames, not the \(plan.output.frames) planned") || error.message.contains("planned"),
                "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: dir.path)).contains { $0.contains("joined.mp4.segue-tmp") })
    }
}
