import FoundationEssentials
import SegueCore
import SegueMath
import SegueMedia
import SegueSystem

// A concat plan (`segue concat … --plan PLAN.json`): an edit split into independent jobs whose
// pieces a join puts together by stream copy. It names everything a job needs to do its part on
// another machine — the spec with absolute paths, the output's settings — and fingerprints of the
// inputs, so a job refuses inputs that changed since planning:
//
// {
//   "version": 1, "segue": "0.1.0",
//   "inputs": [ {"path": "/media/a.mp4", "size": 1234, "modified": 1712345678.25, "hash": "<SHA-256>"} ],
//   "spec": { …ConcatSpec… },
//   "output": {"path": "/media/out.mp4", "container": "mp4", "codec": "h264", "preset": "veryfast", "crf": 20,
//              "audioBitrate": 192, "width": 1920, "height": 1080, "fps": 30, "frames": 1800, "seconds": 60,
//              "sampleRate": 48000, "channels": 2, "smart": false, "jobSeconds": 10},
//   "jobs": [ {"kind": "sound", "seconds": 60, "piece": "p.job-0000.mp4", "record": "p.job-0000.json"},
//             {"kind": "segment", "frames": [0, 270], "seconds": 9, "piece": "p.job-0001.mp4", "record": "p.job-0001.json"} ],
//   "join": {"method": "concat", "video": [ {"job": 1, "duration": 9} ], "sound": 0}
// }
//
// Input hash: SHA-256 of the file's first MiB followed by its last MiB (the whole file when it is
// at most 2 MiB). Job kinds: "copy" (a source's video stream remuxed alone; the join copies its
// stretch between `inpoint` and `outpoint`), "render" (output frames rendered with the sources'
// H.264 parameters, to join copied stretches; or, for a join that only publishes, the whole
// output), "segment" (output frames of a full render, a closed GOP from a keyframe), "sound" (the
// whole mixed sound, encoded once; job 0 when there is sound, because one encoder thread for the
// whole length is often the longest job, and schedulers that start jobs in order start it
// first). Join methods: "concat" (the video pieces in order through ffmpeg's concat demuxer, with
// the sound, both copied) and "publish" (one job made the whole output, which is checked and
// published: GIF and APNG cannot be joined by stream copy).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a plan cannot be read or followed: a corrupt plan, another version's, a changed input, a
/// missing piece.
public struct PlanError: SegueError, Sendable, Hashable {
    /// What is wrong, for the user.
    public let message: String

    /// An error with a message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

/// An edit split into independent jobs and how their pieces are joined.
public struct ConcatPlan: Sendable, Hashable, Codable {
    /// The plan format this Segue writes and reads.
    public static let formatVersion = 1
    /// The largest plan file read, in bytes.
    public static let maximumFileSize = 64 << 20
    /// The most jobs a plan may have.
    public static let maximumJobCount = 1_000_000
    /// Seconds of output a segment lasts at most, unless told otherwise.
    public static let defaultJobSeconds = 10.0
    /// The bytes hashed at each end of an input.
    public static let fingerprintSpan = 1 << 20

    /// A file the edit reads, as it was when planned.
    public struct Input: Sendable, Hashable, Codable {
        /// Absolute path.
        public var path: String
        /// Bytes.
        public var size: Int64
        /// Modification time, seconds since 1970.
        public var modified: Double
        /// SHA-256 (hex) of the first MiB followed by the last MiB.
        public var hash: String
    }

    /// The output and how it is encoded.
    public struct Output: Sendable, Hashable, Codable {
        /// Where `--join` writes it unless told otherwise (absolute).
        public var path: String
        /// The container (`VideoFormat`'s name: mp4, mov, mkv, webm, gif, apng).
        public var container: String
        /// The video codec's name, nil for the container's default.
        public var codec: String?
        /// The x264/x265 preset, nil for the default.
        public var preset: String?
        /// The quality, nil for the codec's default.
        public var crf: Int?
        /// The sound's bit rate in kbit/s.
        public var audioBitrate: Int
        /// Frame size.
        public var width: Int, height: Int
        /// Frames per second.
        public var fps: Double
        /// Frames in all.
        public var frames: Int
        /// Seconds in all (frames / fps).
        public var seconds: Double
        /// The sound's sample rate and channels; nil for a container without sound.
        public var sampleRate: Int?, channels: Int?
        /// Whether untouched stretches are copied (`--smart`).
        public var smart: Bool
        /// Why a smart plan renders everything, nil when it copies (or was not asked to).
        public var note: String?
        /// The most seconds of output a segment job renders.
        public var jobSeconds: Double

        /// The encoders' settings (deterministic: the same pieces on any machine).
        public var settings: VideoSettings {
            VideoSettings(
                codec: codec.flatMap(VideoCodec.init(name:)), preset: preset, crf: crf, audioBitrate: audioBitrate, deterministic: true)
        }

        /// The sound's layout, nil for none.
        public var audioLayout: AudioLayout? {
            guard let sampleRate, let channels else { return nil }
            return AudioLayout(sampleRate: sampleRate, channels: channels)
        }
    }

    /// What a job does.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Remuxes a source's video stream alone.
        case copy
        /// Renders output frames with the sources' H.264 parameters (or, joined by publishing, the whole output).
        case render
        /// Renders output frames of a full render.
        case segment
        /// Mixes and encodes the whole sound.
        case sound
    }

    /// One independent piece of work.
    public struct Job: Sendable, Hashable, Codable {
        /// What it does.
        public var kind: Kind
        /// Output frames [start, end) it makes (the stretch the join takes, for a copy).
        public var frames: [Int]?
        /// Seconds of output it makes.
        public var seconds: Double
        /// The piece's file name (in the work directory).
        public var piece: String
        /// The file name of the record written when the piece is complete.
        public var record: String
        /// The clip whose source a copy job remuxes (0-based).
        public var clip: Int?
        /// A render job after a copied stretch: the clip whose frame at its start is a keyframe.
        public var keyframeClip: Int?

        /// `frames` as a range (empty when absent).
        public var frameRange: Range<Int> {
            guard let f = frames, f.count == 2, f[0] <= f[1] else { return 0..<0 }
            return f[0]..<f[1]
        }
    }

    /// One video piece in the join's order.
    public struct JoinEntry: Sendable, Hashable, Codable {
        /// The job whose piece it is.
        public var job: Int
        /// Seconds into the piece where its stretch starts (copied stretches).
        public var inpoint: Double?
        /// Seconds into the piece just before the stretch's end (copied stretches).
        public var outpoint: Double?
        /// Seconds the stretch lasts in the output.
        public var duration: Double
    }

    /// How the pieces become the output.
    public struct Join: Sendable, Hashable, Codable {
        /// "concat" (stream copy of the video pieces and the sound) or "publish" (one piece is the output).
        public var method: String
        /// The video pieces in order.
        public var video: [JoinEntry]
        /// The sound job, nil for none.
        public var sound: Int?
    }

    /// The plan format (`formatVersion`).
    public var version: Int
    /// The Segue that planned it (`SegueVersion.current`); jobs and the join refuse another.
    public var segue: String
    /// The files the edit reads.
    public var inputs: [Input]
    /// The edit, every path absolute.
    public var spec: ConcatSpec
    /// The output.
    public var output: Output
    /// The jobs, numbered from 0.
    public var jobs: [Job]
    /// The join.
    public var join: Join
    /// Where the pieces go when a job or the join is not told (absolute); nil: the plan's own directory.
    public var workDirectory: String?

    /// A plan of these parts (unchecked: `ConcatRenderer.plan` makes plans).
    init(
        version: Int, segue: String, inputs: [Input], spec: ConcatSpec, output: Output, jobs: [Job], join: Join,
        workDirectory: String? = nil
    ) {
        self.workDirectory = workDirectory
        self.version = version
        self.segue = segue
        self.inputs = inputs
        self.spec = spec
        self.output = output
        self.jobs = jobs
        self.join = join
    }

    /// The container.
    public var format: VideoFormat { VideoFormat(rawValue: output.container) ?? .mp4 }

    /// The encoding settings (deterministic, as every piece is made).
    public var settings: VideoSettings { output.settings }

    /// The sound's layout, nil for none.
    public var audioLayout: AudioLayout? { output.audioLayout }

    // MARK: - Files

    /// Where the pieces of the plan read from `planPath` go unless told: its `workDirectory`, else
    /// the plan's own directory.
    public func defaultWorkDirectory(planPath: String) -> String {
        workDirectory ?? Self.directory(ofPlan: planPath)
    }

    /// The absolute directory of the plan file at `planPath`.
    static func directory(ofPlan planPath: String) -> String {
        let directory = FileIO.directory(of: planPath)
        return directory == "." ? FileIO.currentDirectory : ConcatPaths.absolute(directory)
    }

    /// The pieces of a plan written to `planPath` are named after it: its file name without `.json`.
    public static func pieceStem(planPath: String) -> String {
        let name = FileIO.lastComponent(of: planPath)
        let stem = name.lowercased().hasSuffix(".json") ? String(name.dropLast(5)) : name
        return stem.isEmpty || stem.hasPrefix(".") ? "plan" + stem : stem
    }

    /// The plan as JSON (keys sorted, so the same plan is the same bytes).
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every field is a plain value: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The plan's identity: SHA-256 (hex) of `encoded()`. A piece's record names it, so a piece
    /// of another plan that happens to have the same name is refused.
    public var identity: String { SHA256.hash([UInt8](encoded())).hexDigits }

    /// Writes the plan to `path` atomically, after `checkDestination(path)`: only to a `.json`
    /// name that is none of the edit's files and is free or holds a Segue plan, with a writable
    /// work directory.
    /// - Throws: `PlanError`, `MediaError.unwritable`; nothing is then written.
    public func write(to path: String) throws {
        try checkDestination(path)
        let bytes = [UInt8](encoded())
        try MediaError.converting { () throws(SystemError) in try StagedOutput.write(bytes, to: path) }
    }

    /// Reads and checks a plan file.
    /// - Throws: `PlanError` naming the file and what is wrong: too large, not JSON, another plan
    ///   format or Segue version, a missing or mistyped field (with its key path), numbers that do
    ///   not fit together; `MediaError` for a missing or unreadable file.
    public static func read(path: String) throws -> ConcatPlan {
        let data = try readFile(path: path, limit: maximumFileSize, noun: "plan") { size in
            PlanError("\(path): the plan is \(size) bytes; the limit is \(maximumFileSize)")
        }
        do { return try ConcatPlan(json: data) } catch { throw PlanError("\(path): \(error.message)") }
    }

    /// The bytes of a spec or plan file through `FileIO.readAll` (a named pipe or a device is
    /// refused at once, never waited on); `tooLarge` words a file over `limit`.
    /// - Throws: `MediaError` (missing, unreadable, not a file), what `tooLarge` makes.
    static func readFile(path: String, limit: Int, noun: String, tooLarge: (Int) -> any Error) throws -> Data {
        var large: Int?
        do {
            return Data(
                try FileIO.readAll(path: path, limit: limit, head: { (_) throws(MediaError) in }) { failure in
                    if case let .tooLarge(size) = failure { large = size }
                    return MediaError(FileIO.systemError(failure, path: path, limit: limit, noun: noun))
                })
        } catch {
            if let large { throw tooLarge(large) }
            throw error
        }
    }

    /// Decodes and checks a plan's bytes.
    /// - Throws: `PlanError` (what is wrong, without the file's name).
    public init(json data: Data) throws(PlanError) {
        let tree: JSONValue
        do throws(JSONSyntax.DocumentProblem) { tree = try JSONSyntax.document(data, "the plan", limit: Self.maximumFileSize) } catch {
            throw PlanError(error.isSyntax ? error.message + " (cut short or damaged?); plan again" : error.message)
        }
        guard case let .object(top) = tree else { throw PlanError("the plan is not a JSON object; plan again") }
        guard case let .number(version)? = top["version"] else {
            throw PlanError("the plan has no format version; it is not a Segue plan")
        }
        guard version == Double(Self.formatVersion) else {
            throw PlanError(
                "the plan is in format \(MessageText.number(version)); this Segue (\(SegueVersion.current)) reads format \(Self.formatVersion): plan again"
            )
        }
        guard case let .string(segue)? = top["segue"] else { throw PlanError("the plan does not say which Segue made it; plan again") }
        guard segue == SegueVersion.current else {
            throw PlanError(
                "the plan was made by Segue \(segue), this is Segue \(SegueVersion.current): plan again with this Segue, or run every job and the join with Segue \(segue)"
            )
        }
        do { self = try ConcatSpec.decode(ConcatPlan.self, from: data, in: tree) } catch {
            throw PlanError(error.problem.map { "the plan is not valid: \($0)" } ?? "the plan is not valid")
        }
        try check()
    }

    /// Checks that the numbers fit together.
    /// - Throws: `PlanError` naming the field.
    func check() throws(PlanError) {
        func fail(_ what: String) -> PlanError { PlanError("the plan is not valid: \(what)") }
        do { try spec.validate() } catch { throw fail("spec: \(error.message)") }
        for (i, input) in inputs.enumerated() {
            guard input.path.hasPrefix("/") else { throw fail("inputs[\(i)].path: '\(input.path)' is not an absolute path") }
            guard input.size >= 0, input.modified.isFinite else { throw fail("inputs[\(i)]: size and modified must be numbers ≥ 0") }
            guard input.hash.utf8.count == 64, input.hash.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                throw fail("inputs[\(i)].hash: expected 64 hexadecimal digits")
            }
        }
        let o = output
        guard let format = VideoFormat(rawValue: o.container) else {
            throw fail("output.container: '\(o.container)' is not one of \(VideoFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let codec = o.codec, VideoCodec(name: codec) == nil { throw fail("output.codec: unknown codec '\(codec)'") }
        do { try settings.validate(for: format) } catch { throw fail("output: \(error.message)") }
        guard FrameRate.problem(o.fps) == nil else { throw fail("output.fps: \(MessageText.number(o.fps)) is not a frame rate") }
        guard (1...Concatenation.maximumFrameCount).contains(o.frames) else {
            throw fail("output.frames: \(o.frames) is not from 1 to \(Concatenation.maximumFrameCount)")
        }
        guard (try? Image.validateSize(width: o.width, height: o.height)) != nil else {
            throw fail("output: \(o.width)x\(o.height) is not a frame size")
        }
        if let rate = o.sampleRate, let channels = o.channels {
            if let problem = AudioLayout(sampleRate: rate, channels: channels).problem { throw fail("output: \(problem)") }
        } else if o.sampleRate != nil || o.channels != nil {
            throw fail("output: sampleRate and channels go together")
        }
        if let w = workDirectory, !w.hasPrefix("/") { throw fail("workDirectory: '\(w)' is not an absolute path") }
        guard o.jobSeconds.isFinite, o.jobSeconds > 0 else { throw fail("output.jobSeconds must be more than 0") }
        guard (1...Self.maximumJobCount).contains(jobs.count) else {
            throw fail("jobs: expected 1 to \(Self.maximumJobCount) jobs, found \(jobs.count)")
        }
        var names: Set<String> = []
        for (n, job) in jobs.enumerated() {
            for name in [job.piece, job.record] {
                guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), names.insert(name).inserted else {
                    throw fail("jobs[\(n)]: '\(name)' is not a file name of its own")
                }
            }
            if job.kind != .sound {
                guard let f = job.frames, f.count == 2, 0 <= f[0], f[0] < f[1], f[1] <= o.frames else {
                    throw fail("jobs[\(n)].frames: expected [start, end) within 0 to \(o.frames)")
                }
            }
            if job.kind == .copy {
                guard let k = job.clip, spec.clips.indices.contains(k) else { throw fail("jobs[\(n)].clip: no such clip") }
            }
            if let k = job.keyframeClip, !spec.clips.indices.contains(k) { throw fail("jobs[\(n)].keyframeClip: no such clip") }
            guard VideoFormat(pathExtensionOf: job.piece) != nil else {
                throw fail("jobs[\(n)].piece: '\(job.piece)' is not a video file name")
            }
        }
        guard ["concat", "publish"].contains(join.method) else {
            throw fail("join.method: expected 'concat' or 'publish', found \(JSONValue.string(join.method).described)")
        }
        var cursor = 0
        for (i, entry) in join.video.enumerated() {
            guard jobs.indices.contains(entry.job), jobs[entry.job].kind != .sound else {
                throw fail("join.video[\(i)].job: no such video job")
            }
            let frames = jobs[entry.job].frameRange
            guard frames.lowerBound == cursor else {
                throw fail("join.video[\(i)]: job \(entry.job) starts at frame \(frames.lowerBound), not \(cursor)")
            }
            cursor = frames.upperBound
        }
        guard cursor == o.frames else { throw fail("join.video: the pieces end at frame \(cursor), not \(o.frames)") }
        try checkTimes()
        if join.method == "publish" {
            guard join.video.count == 1, join.sound == nil else { throw fail("join: publishing takes one piece") }
        }
        if let sound = join.sound {
            guard jobs.indices.contains(sound), jobs[sound].kind == .sound else {
                throw fail("join.sound: job \(sound) is not a sound job")
            }
        }
    }

    /// The most frames a copied stretch's end may lie before its next keyframe's presentation:
    /// the out point is that keyframe's decoding time, earlier by the reorder delay (H.264
    /// allows 16 frames), less half a frame.
    static let maximumReorderFrames = 16.0

    /// Checks that every length agrees with the frames and the frame rate, and that each copied
    /// stretch's in and out points are ordered, not negative and as long as the stretch.
    /// - Throws: `PlanError` naming the field and the numbers.
    func checkTimes() throws(PlanError) {
        func fail(_ what: String) -> PlanError { PlanError("the plan is not valid: \(what)") }
        let o = output, frame = 1 / o.fps
        func agrees(_ seconds: Double, _ frames: Int) -> Bool {
            seconds.isFinite && abs(seconds - Double(frames) / o.fps) <= 1e-6 * max(1, seconds)
        }
        func number(_ value: Double) -> String { MessageText.number(value) }
        guard agrees(o.seconds, o.frames) else {
            throw fail("output.seconds: \(number(o.seconds)) is not \(o.frames) frames at \(number(o.fps)) fps")
        }
        for (n, job) in jobs.enumerated() {
            let frames = job.kind == .sound ? o.frames : job.frameRange.count
            guard agrees(job.seconds, frames) else {
                throw fail("jobs[\(n)].seconds: \(number(job.seconds)) is not the \(frames) frames it makes at \(number(o.fps)) fps")
            }
        }
        for (i, entry) in join.video.enumerated() {
            let job = jobs[entry.job], frames = job.frameRange.count
            guard agrees(entry.duration, frames) else {
                throw fail(
                    "join.video[\(i)].duration: \(number(entry.duration)) is not the \(frames) frames of job \(entry.job) at \(number(o.fps)) fps"
                )
            }
            guard entry.inpoint != nil || entry.outpoint != nil else { continue }
            guard job.kind == .copy else {
                throw fail("join.video[\(i)]: in and out points belong to copied stretches, and job \(entry.job) renders")
            }
            let start = entry.inpoint ?? 0
            guard start.isFinite, start >= 0 else {
                throw fail("join.video[\(i)].inpoint: \(number(start)) is not a time in the piece (≥ 0)")
            }
            guard let end = entry.outpoint else { continue }
            guard end.isFinite, end > start else {
                throw fail("join.video[\(i)].outpoint: \(number(end)) is not after the in point \(number(start))")
            }
            let span = end - start, shortest = entry.duration - (Self.maximumReorderFrames + 0.5) * frame
            guard span <= entry.duration + frame / 2, span >= shortest else {
                throw fail(
                    "join.video[\(i)]: the stretch from \(number(start)) to \(number(end)) s is not the \(frames) frames (\(number(entry.duration)) s) it stands for"
                )
            }
        }
    }

    // MARK: - Inputs

    /// The fingerprint of the file at `path` now.
    /// - Throws: `MediaError` (missing, unreadable).
    public static func fingerprint(_ path: String) throws -> Input {
        try MediaProbe.checkReadable(path)
        guard let (size, modified) = FileIO.sizeAndModificationTime(path), let handle = FileStream(forReadingAtPath: path) else {
            throw MediaError.unreadable(path: path, reason: "it cannot be opened")
        }
        defer { handle.close() }
        var hash = SHA256()
        let span = Int64(fingerprintSpan)
        do {
            if size <= 2 * span {
                hash.update(try handle.readToEnd())
            } else {
                hash.update(try handle.read(upToCount: fingerprintSpan))
                try handle.seek(toOffset: UInt64(size - span))
                hash.update(try handle.read(upToCount: fingerprintSpan))
            }
        } catch {
            throw MediaError.unreadable(path: path, reason: "reading it failed")
        }
        return Input(path: path, size: size, modified: modified, hash: hash.finalize().hexDigits)
    }

    /// Checks that every input is as it was when planned.
    /// - Throws: `PlanError` naming the first file that changed (its size, time or content) or
    ///   is gone.
    public func checkInputs() throws {
        for input in inputs {
            let now: Input
            do { now = try Self.fingerprint(input.path) } catch {
                throw PlanError("\(input.path) changed since planning: \((error as? SegueError)?.message ?? "\(error)"); plan again")
            }
            var what: String?
            if now.size != input.size {
                what = "its size is \(now.size) bytes, planned \(input.size)"
            } else if abs(now.modified - input.modified) > 1e-3 {
                what = "it was modified after planning"
            } else if now.hash != input.hash {
                what = "its content differs"
            }
            if let what { throw PlanError("\(input.path) changed since planning (\(what)); plan again") }
        }
    }
}
