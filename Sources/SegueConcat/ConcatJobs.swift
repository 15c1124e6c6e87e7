import FoundationEssentials
import SegueAnimation
import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueSystem
import SegueVulkan

// Doing a plan's jobs and joining their pieces — in this process (`ConcatRenderer.render`, every
// job at once into a private directory beside the output) or one job per process on many machines
// (`segue concat --job`, then `--join`): the same code either way, so the outputs are the same.
//
// A job publishes its piece atomically, then a record beside it (the job, the plan's identity,
// the piece's size and SHA-256), also atomically; a re-run first removes the old record. A job
// stopped part-way therefore leaves no record, and the join, which checks every piece against its
// record, refuses it. The join writes an ffconcat list of the video pieces (copied stretches with
// `inpoint`/`outpoint`, every piece with its exact `duration`, so timestamps run on without gaps)
// and copies it with the sound piece into the output; for GIF and APNG it checks and publishes the
// one piece.
//
// In one process, the pieces need no records (the jobs that made them ran here and succeeded)
// and are not read back with ffprobe (the join reads every piece in full, and its output is
// probed); the sound job starts before planning, on a thread of its own; smart planning's remuxed
// sources are linked as the copy jobs' pieces.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A piece's record: written when the piece is complete.
struct PieceRecord: Codable, Hashable {
    /// The record format.
    var version: Int
    /// The plan's identity (`ConcatPlan.identity`).
    var plan: String
    /// The job.
    var job: Int
    /// The piece's file name.
    var piece: String
    /// Bytes.
    var size: Int64
    /// SHA-256 (hex) of the whole piece.
    var sha256: String
}

extension ConcatPlan {
    /// Checks that the plan has job `n`.
    /// - Throws: `PlanError` naming the jobs there are.
    public func checkJobNumber(_ n: Int) throws(PlanError) {
        guard jobs.indices.contains(n) else {
            throw PlanError("there is no job \(n): the plan has jobs 0 to \(jobs.count - 1)")
        }
    }

    /// Checks every piece in `directory` against its record.
    /// - Throws: `PlanError` naming the first job whose piece is missing, incomplete, changed or of
    ///   another plan (and the other jobs not ready).
    public func checkPieces(in directory: String) throws {
        let identity = identity
        var problems: [(job: Int, message: String)] = []
        for (n, job) in jobs.enumerated() {
            let piece = directory + "/" + job.piece, record = directory + "/" + job.record
            let again = "; run job \(n) again"
            guard FileIO.exists(record) else {
                problems.append(
                    (
                        n,
                        FileIO.exists(piece)
                            ? "job \(n) did not finish: \(piece) has no record (stopped part-way?)\(again)"
                            : "job \(n) has not been done: \(piece) is missing\(again)"
                    ))
                continue
            }
            // Read as every small file is (a named pipe in its place is refused, never waited on).
            guard let bytes = try? FileIO.readAll(path: record, limit: 64 << 10, noun: "piece record"),
                let saved = try? JSONDecoder().decode(PieceRecord.self, from: Data(bytes)), saved.job == n, saved.piece == job.piece
            else {
                problems.append((n, "job \(n)'s record \(record) is damaged\(again)"))
                continue
            }
            guard saved.plan == identity else {
                problems.append((n, "\(piece) was made for another plan\(again)"))
                continue
            }
            guard FileIO.exists(piece) else { problems.append((n, "job \(n)'s piece \(piece) is missing\(again)")); continue }
            do {
                let (size, hash) = try Self.digest(ofFile: piece)
                if size != saved.size {
                    problems.append(
                        (n, "job \(n)'s piece \(piece) is \(size) bytes, but its record says \(saved.size) (cut short?)\(again)"))
                } else if hash != saved.sha256 {
                    problems.append((n, "job \(n)'s piece \(piece) does not match its record (SHA-256 differs)\(again)"))
                }
            } catch {
                problems.append((n, "job \(n)'s piece \(piece) cannot be read: \((error as? SegueError)?.message ?? "\(error)")\(again)"))
            }
        }
        guard let first = problems.first else { return }
        let others = problems.dropFirst().map { String($0.job) }
        let more =
            others.isEmpty
            ? ""
            : " (not ready either: job\(others.count == 1 ? "" : "s") \(others.prefix(10).joined(separator: ", "))\(others.count > 10 ? ", …" : ""))"
        throw PlanError(first.message + more)
    }

    /// Joins the pieces in `directory` into `output` (by stream copy), after checking them all;
    /// then removes any temporaries left beside the pieces (by jobs killed part-way).
    /// - Parameters:
    ///   - planPath: the plan's file, which `output` must not be.
    ///   - cancellation: its `cancel()` stops the join (ffmpeg killed, nothing published).
    /// - Throws: `MediaError.unwritable` for an output that is one of the edit's files, the plan,
    ///   a piece or a record (or a link to one), before anything is read; `PlanError` (a piece not
    ///   ready, a joined video whose frames or length differ from the plan's), `MediaError` (the
    ///   join failed, a full disk, `.cancelled`); `output` is then as it was.
    public func join(in directory: String, output: String, planPath: String? = nil, cancellation: Cancellation? = nil) throws {
        let pieces = jobs.enumerated().flatMap { n, job in
            [
                OutputGuard.Input("job \(n)'s piece", directory + "/" + job.piece),
                OutputGuard.Input("job \(n)'s record", directory + "/" + job.record),
            ]
        }
        try OutputGuard.check(output: output, inputs: inputFiles(planPath: planPath) + pieces)
        try checkPieces(in: directory)
        try joinChecked(in: directory, output: output, cancellation: cancellation)
        removeTemporaries(in: directory)
    }

    /// Joins pieces that are known to be complete: the jobs that made them ran in this process and
    /// succeeded, so they have no records to check (the records guard pieces that travel between
    /// processes and machines; the bytes joined are the same).
    func joinChecked(in directory: String, output: String, cancellation: Cancellation?) throws {
        let format = VideoFormat(pathExtensionOf: output) ?? .mp4
        guard VideoFormat(pathExtensionOf: output) == self.format else {
            throw PlanError("the plan makes a .\(self.output.container) file, not \(output)")
        }
        let duration = Double(self.output.frames) / self.output.fps
        if join.method == "publish" {
            let piece = directory + "/" + jobs[join.video[0].job].piece
            guard let handle = FileStream(forReadingAtPath: piece) else {
                throw MediaError.unreadable(path: piece, reason: "it cannot be opened")
            }
            defer { handle.close() }
            try StagedOutput.write(to: output) { (file) throws(MediaError) in
                while true {
                    let chunk: [UInt8]
                    do { chunk = try handle.read(upToCount: 1 << 20) } catch {
                        throw MediaError.unreadable(path: piece, reason: "reading it failed")
                    }
                    if chunk.isEmpty { break }
                    try MediaError.converting { () throws(SystemError) in try file.write([UInt8](chunk)) }
                }
            }
            return
        }
        let scratch = try MediaError.converting { () throws(SystemError) in
            try FileIO.makeScratchDirectory(prefix: "segue-join", cancellation: cancellation)
        }
        defer { FileIO.removeScratchDirectory(scratch, cancellation: cancellation) }
        var list = "ffconcat version 1.0\n"
        for entry in join.video {
            list += FFmpeg.concatListEntry(directory + "/" + jobs[entry.job].piece) + "\n"
            if let inpoint = entry.inpoint { list += "inpoint \(FFmpeg.secondsRoundedUp(inpoint))\n" }
            if let outpoint = entry.outpoint { list += "outpoint \(FFmpeg.seconds(outpoint))\n" }
            list += "duration \(FFmpeg.seconds(entry.duration))\n"
        }
        let listPath = scratch + "/pieces.ffconcat"
        try StagedOutput.write(Array(list.utf8), to: listPath, cancellation: cancellation)
        let encoder = try VideoEncoder(
            path: output, width: self.output.width, height: self.output.height, fps: self.output.fps, format: format,
            settings: settings, input: .copy(inputArguments: ["-f", "concat", "-safe", "0", "-i", FFmpeg.fileArgument(listPath)]),
            copiedSound: join.sound.map { directory + "/" + jobs[$0].piece }, duration: duration,
            frames: self.output.frames, cancellation: cancellation)
        try encoder.finish()
    }

    /// The size and SHA-256 (hex) of a file, read in MiB blocks.
    static func digest(ofFile path: String) throws -> (size: Int64, hash: String) {
        guard let handle = FileStream(forReadingAtPath: path) else {
            throw MediaError.unreadable(path: path, reason: "it cannot be opened")
        }
        defer { handle.close() }
        var hash = SHA256()
        var size: Int64 = 0
        while true {
            let chunk: [UInt8]
            do { chunk = try handle.read(upToCount: 1 << 20) } catch {
                throw MediaError.unreadable(path: path, reason: "reading it failed")
            }
            if chunk.isEmpty { break }
            size += Int64(chunk.count)
            hash.update(chunk)
        }
        return (size, hash.finalize().hexDigits)
    }
}

extension ConcatRenderer {
    /// Does job `n` of `plan` (made from this renderer's concatenation, settings and sound layout),
    /// publishing its piece and then its record in `directory`; a piece there before is replaced.
    /// `progress` counts the job's frames rendered.
    /// - Parameter recorded: false for a job whose piece this process joins itself: no record
    ///   (hashing every piece twice buys nothing there), and the piece is not read back with
    ///   ffprobe unless the join only publishes it (a stream-copy join reads every piece in full,
    ///   and its output is probed).
    /// - Throws: `PlanError` (no such job), what rendering throws; no record is then written.
    @discardableResult
    public func runJob(
        _ n: Int, of plan: ConcatPlan, in directory: String, recorded: Bool = true,
        progress: (Int) -> Void = { _ in }
    ) throws -> ConcatTimings {
        try runJob(n, of: plan, in: directory, recorded: recorded, sourceCopies: nil, progress: progress)
    }

    /// `runJob`, taking a copy job's piece from `sourceCopies` (where this process's smart
    /// planning left the clip's remuxed video, the same bytes) when it is there.
    func runJob(
        _ n: Int, of plan: ConcatPlan, in directory: String, recorded: Bool, sourceCopies: String?,
        progress: (Int) -> Void
    ) throws -> ConcatTimings {
        try plan.checkJobNumber(n)
        let c = concatenation
        guard c.frameCount == plan.output.frames, c.width == plan.output.width, c.height == plan.output.height, c.fps == plan.output.fps
        else {
            throw PlanError(
                "the inputs no longer make the planned output (\(plan.output.width)x\(plan.output.height), \(plan.output.frames) frames); plan again"
            )
        }
        let job = plan.jobs[n]
        let piece = directory + "/" + job.piece, record = directory + "/" + job.record
        if recorded {
            // A job of a plan on disk: its work directory must take files, it must not write over
            // the edit's files, and what a killed run of it left behind goes.
            try ConcatPlan.checkWorkDirectory(directory, writer: "job \(n) writes its piece")
            for path in [piece, record] { try OutputGuard.check(output: path, inputs: plan.inputFiles()) }
            plan.removeStaleTemporaries(ofJob: n, in: directory)
        }
        if unlink(record) != 0, errno != ENOENT {
            throw MediaError.unwritable(path: record, reason: "the old record cannot be removed: \(FileIO.message(errno))")
        }
        let settings = plan.settings
        let probed = recorded || plan.join.method == "publish"
        var timings = ConcatTimings()
        switch job.kind {
        case .copy:
            guard let k = job.clip else { throw PlanError("job \(n) copies no clip") }
            // A hard link of the remux made while planning, or the remux again.
            if let copies = sourceCopies, link(Self.sourceCopy(k, in: copies), piece) == 0 { break }
            try remuxVideo(of: k, to: piece, probed: probed)
        case .sound:
            try renderSound(to: piece, output: plan.output, probed: probed)
        case .segment, .render:
            var pieceSettings = settings
            pieceSettings.codec = settings.codec(for: format)
            let whole = plan.join.method == "publish"
            if job.kind == .render, !whole { pieceSettings.matching = MatchedVideo(c.clips[0].video) }
            let layout = pictureLayout(for: pieceSettings)
            let encoder = try VideoEncoder(
                path: piece, width: c.width, height: c.height, fps: c.fps, format: VideoFormat(pathExtensionOf: job.piece),
                settings: pieceSettings, input: layout == .yuv420p ? .yuv420 : .opaqueRGBA,
                audio: whole ? plan.audioLayout : nil, cancellation: cancellation)
            try withSound(encoder, probed: probed) {
                timings = try renderPicture(
                    into: encoder, frames: job.frameRange, layout: layout, keyframeClip: job.keyframeClip, progress: progress)
            }
        }
        guard recorded else { return timings }
        let (size, hash) = try ConcatPlan.digest(ofFile: piece)
        let saved = PieceRecord(version: 1, plan: plan.identity, job: n, piece: job.piece, size: size, sha256: hash)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = [UInt8](try encoder.encode(saved))
        try MediaError.converting { () throws(SystemError) in try StagedOutput.write(bytes, to: record, cancellation: cancellation) }
        return timings
    }

    /// The sound job: the whole sound mixed and encoded into `piece` (its container from its
    /// extension), as `output` says; `token` stops it (by default the renderer's cancellation).
    /// - Throws: `PlanError` when the output has no sound or the piece no known container.
    func renderSound(to piece: String, output: ConcatPlan.Output, probed: Bool, stoppedBy token: Cancellation? = nil) throws {
        guard let layout = output.audioLayout, let format = VideoFormat(pathExtensionOf: piece) else {
            throw PlanError("the output has no sound to make \(FileIO.lastComponent(of: piece)) from")
        }
        let c = concatenation
        let token = token ?? cancellation
        let encoder = try VideoEncoder(
            path: piece, width: c.width, height: c.height, fps: c.fps, format: format, settings: output.settings,
            input: .soundOnly, audio: layout, cancellation: token)
        try withSound(encoder, probed: probed, stoppedBy: token) {}
    }

    /// Plans, does every job at once in a private directory beside the output, and joins.
    /// `progress` counts the frames rendered of those the plan renders.
    ///
    /// The sound job (job 0) starts on a thread of its own before planning, which it does not
    /// depend on: it is one encoder thread for the whole output, and left to its turn after the
    /// picture jobs (whose encoders use every core) it would run alone at the end. Its token is a
    /// child of the renderer's, so planning or a picture job failing stops it at once (and the
    /// render reports that failure). A smart plan's remuxed sources stay in the directory, so the
    /// copy jobs link them instead of remuxing each clip again.
    func renderPlanned(smart: Bool, progress: (ConcatProgress) -> Void) throws -> PlannedRender {
        timings = ConcatTimings()
        try Self.checkJobSeconds(jobSeconds)
        // Beside the output: the pieces fill the disk the output goes to, and fail as it would.
        if FileIO.isDirectory(output) { throw MediaError.unwritable(path: output, reason: "it is a directory; give a file name") }
        let staged = try MediaError.converting { () throws(SystemError) in try StagedOutput(directory: output, cancellation: cancellation) }
        defer { staged.discard() }  // never published: only the joined file is
        let directory = staged.temporaryPath
        let stem = "render", soundOutput = planOutput(smart: smart, jobSeconds: jobSeconds)
        let failed = Locked(false)
        let soundToken = cancellation?.child() ?? Cancellation()
        func noteFailure<T>(_ outcome: Result<T, Error>) -> Result<T, Error> {
            if case .failure = outcome {
                failed.withLock { $0 = true }
                soundToken.cancel()  // the render is over (for the sound's own failure, a no-op)
            }
            return outcome
        }
        let soundPiece = soundPiece(pieceStem: stem).map { directory + "/" + $0 }
        let (sound, pictures) = alongside(
            for: output,
            { [self] in
                soundPiece.map { piece in
                    noteFailure(Result { try renderSound(to: piece, output: soundOutput, probed: false, stoppedBy: soundToken) })
                }
            },
            { () -> Result<(PlannedRender, [Result<ConcatTimings, Error>?]), Error> in
                noteFailure(
                    Result {
                        let planned = try makePlan(smart: smart, jobSeconds: jobSeconds, pieceStem: stem, sourceCopies: directory)
                        let plan = planned.plan
                        let picture = plan.jobs.indices.filter { plan.jobs[$0].kind != .sound }
                        let frameTotal = picture.reduce(0) {
                            $0 + ([.render, .segment].contains(plan.jobs[$1].kind) ? plan.jobs[$1].frameRange.count : 0)
                        }
                        let done = Locked(0)
                        let outcomes = concurrentMap(picture.indices) { i -> Result<ConcatTimings, Error>? in
                            if failed.withLock({ $0 }) { return nil }  // another job failed: the render is over
                            var previous = 0
                            return noteFailure(
                                Result {
                                    try runJob(picture[i], of: plan, in: directory, recorded: false, sourceCopies: directory) { count in
                                        done.withLock { total in  // one report at a time, under the lock
                                            total += count - previous
                                            progress(ConcatProgress(framesDone: total, frameCount: frameTotal))
                                        }
                                        previous = count
                                    }
                                })
                        }
                        return (planned, outcomes)
                    })
            })
        // Planning's or a picture job's failure first: it stops the sound, whose error is then
        // only that.
        do {
            let (planned, outcomes) = try pictures.get()
            for outcome in outcomes { if case let .failure(error)? = outcome { throw error } }
            try sound?.get()
            for case let .success(t)? in outcomes { timings.add(t) }
            var clock = Stopwatch()
            try planned.plan.joinChecked(in: directory, output: output, cancellation: cancellation)
            timings.smartJoin = clock.lap()
            return planned
        } catch {
            // A private piece failing (a full disk, no ffmpeg) is the output failing.
            throw MediaError.naming(output, insteadOf: directory, error)
        }
    }
}
