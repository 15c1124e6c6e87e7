import FoundationEssentials
import SegueCore
import SegueMedia
import SegueShaders
import SegueSystem

// What a plan may write over and what it leaves behind.
//
// A plan is written only to a `.json` name that is none of the edit's files and is either free or
// holds an earlier Segue plan (replaced atomically); its work directory must exist and be
// writable, and no piece or record name there may be one of the edit's files. Temporaries that a
// killed job left beside its piece or record (`.NAME.segue-tmp-<pid>-…`, see `AtomicPublish`)
// are removed when the job runs again, if the process that made them is gone, and by a join that
// succeeded, whatever made them (every piece is then joined, so nothing still needs them).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ConcatPlan {
    /// The edit's files, with what each is to the user, as `OutputGuard` compares them with an
    /// output (the plan itself as well when `planPath` is given).
    public func inputFiles(planPath: String? = nil) -> [OutputGuard.Input] {
        var files = Concatenation.inputFiles(of: spec)
        var named = Set(files.map(\.path))
        for input in inputs where named.insert(input.path).inserted {
            files.append(OutputGuard.Input("an input of the edit", input.path))
        }
        if let planPath { files.append(OutputGuard.Input("the plan", planPath)) }
        return files
    }

    /// Checks, before anything is written, that the plan may be written to `path`.
    /// - Throws: `PlanError` for a name without `.json`, an existing file that is not a Segue plan,
    ///   a plan's folder or work directory that is missing or not writable; `MediaError.unwritable` for a plan path,
    ///   piece or record that is one of the edit's files (or a link to one).
    public func checkDestination(_ path: String) throws {
        let files = inputFiles()
        try Self.checkDestination(path, workDirectory: workDirectory, inputs: files)
        let directory = defaultWorkDirectory(planPath: path)
        try OutputGuard.check(
            outputs: jobs.flatMap { [directory + "/" + $0.piece, directory + "/" + $0.record] },
            inputs: files + [OutputGuard.Input("the plan", path)])
    }

    /// Checks, before planning, that a plan of an edit reading `inputs` may be written to `path`
    /// with its pieces in `workDirectory` (nil: the plan's directory): `checkDestination` without
    /// the pieces' names.
    /// - Throws: as `checkDestination`.
    public static func checkDestination(_ path: String, workDirectory: String?, inputs: [OutputGuard.Input]) throws {
        let name = FileIO.lastComponent(of: path)
        guard name.lowercased().hasSuffix(".json"), name.count > 5 else {
            throw PlanError("\(path): a plan is written to a file whose name ends in .json; nothing was written")
        }
        try OutputGuard.check(output: path, inputs: inputs)
        var info = stat()
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw MediaError.unwritable(path: path, reason: "it is a directory; give a file name") }
            guard isPlan(path) else {
                throw PlanError("\(path) exists and is not a Segue plan; it was left as it is: choose another name, or remove it first")
            }
        }
        // The plan's own folder, under its own name (the pieces go there too without a work directory).
        try checkFolder(Self.directory(ofPlan: path), named: "the plan's folder", writer: "the plan is written")
        if let workDirectory { try checkWorkDirectory(workDirectory, writer: "the jobs write their pieces") }
    }

    /// Checks that a work directory exists and takes files; `writer` says what writes there
    /// ("the jobs write their pieces", "job 3 writes its piece").
    /// - Throws: `PlanError` naming the directory, what writes there and the system's reason.
    static func checkWorkDirectory(_ directory: String, writer: String) throws(PlanError) {
        try checkFolder(directory, named: "the work directory", writer: writer)
    }

    /// Checks that `directory`, called `noun` in the messages, exists and takes files.
    private static func checkFolder(_ directory: String, named noun: String, writer: String) throws(PlanError) {
        guard FileIO.isDirectory(directory) else {
            throw PlanError("\(noun) \(directory) does not exist; \(writer) there: create it first")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw PlanError("\(noun) \(directory) is not writable (\(FileIO.message(errno))); \(writer) there")
        }
    }

    /// Whether the file at `path` is a plan of some Segue (a JSON object with a format version, a
    /// Segue version and jobs), which a new plan may replace.
    static func isPlan(_ path: String) -> Bool {
        guard let bytes = try? FileIO.readAll(path: path, limit: maximumFileSize, noun: "plan"),
            case let .object(top)? = try? JSONSyntax.parse(bytes),
            case .number? = top["version"], case .string? = top["segue"], case .array? = top["jobs"]
        else { return false }
        return true
    }

    // MARK: - Leftovers

    /// Removes the temporaries left beside job `n`'s piece and record by processes that are gone
    /// (a job killed part-way); a live process's are kept.
    public func removeStaleTemporaries(ofJob n: Int, in directory: String) {
        guard jobs.indices.contains(n) else { return }
        AtomicPublish.removeTemporaries(of: [jobs[n].piece, jobs[n].record], in: directory, onlyOrphans: true)
    }

    /// Removes every temporary left beside the plan's pieces and records (after a join succeeded).
    func removeTemporaries(in directory: String) {
        AtomicPublish.removeTemporaries(of: jobs.flatMap { [$0.piece, $0.record] }, in: directory, onlyOrphans: false)
    }
}
