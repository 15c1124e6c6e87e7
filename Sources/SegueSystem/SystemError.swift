// What the building blocks of SegueSystem report: files that cannot be read or written, programs
// that cannot be started, resources the system refuses, and work a caller cancelled. Each case
// names the path it is about; the wording is the one the media layer has always used
// (`MediaError` maps these cases one to one, so a message reads the same whichever layer saw it).

/// An error of the system layer: file I/O, child processes, threads, cancellation.
public enum SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input file does not exist.
    case fileNotFound(path: String)
    /// The input exists but cannot be read (a directory, no permission, an I/O error).
    case unreadable(path: String, reason: String)
    /// The output cannot be created or put in place (missing directory, no permission, a
    /// directory in the way).
    case unwritable(path: String, reason: String)
    /// Writing to a stream failed part-way (a pipe closed by its reader).
    case writeFailed(path: String, reason: String)
    /// A file output could not be completed (a full disk, an I/O error); nothing was published.
    case incompleteOutput(path: String, reason: String)
    /// The system refused a resource (a file descriptor, a thread, a process).
    case systemLimit(path: String, reason: String)
    /// `program` could not be started (missing, not executable); `path` is what it was run for.
    case cannotStart(path: String, program: String, reason: String)
    /// Not done: the work was cancelled (`Cancellation.cancel()`). `path` is the output, or the
    /// input a decoder was reading; no output was published either way.
    case cancelled(path: String)

    /// An output given as the empty path (`-o ''`): the one wording of its refusal, wherever
    /// an output is made.
    package static let emptyPath = SystemError.unwritable(path: "''", reason: "the path is empty")

    /// The file (or program) the error is about.
    public var path: String {
        switch self {
        case let .fileNotFound(path), let .unreadable(path, _), let .unwritable(path, _), let .writeFailed(path, _),
            let .incompleteOutput(path, _), let .systemLimit(path, _), let .cannotStart(path, _, _), let .cancelled(path):
            path
        }
    }

    /// What went wrong, without the path (the reason the description gives).
    public var reason: String {
        switch self {
        case .fileNotFound: "no such file"
        case let .unreadable(_, reason), let .unwritable(_, reason), let .writeFailed(_, reason), let .incompleteOutput(_, reason),
            let .systemLimit(_, reason), let .cannotStart(_, _, reason):
            reason
        case .cancelled: "the work was stopped"
        }
    }

    /// A sentence for the user, naming the file and what to do about it.
    public var description: String {
        switch self {
        case let .fileNotFound(path): "\(path): no such file; check the path"
        case let .unreadable(path, reason): "\(path): cannot read the file: \(reason)"
        case let .unwritable(path, reason): "\(path): cannot write the output: \(reason)"
        case let .writeFailed(path, reason): "\(path): writing failed: \(reason)"
        case let .incompleteOutput(path, reason): "\(path): the output could not be completed: \(reason); nothing was written to \(path)"
        case let .systemLimit(path, reason): "\(path): \(reason)"
        case let .cannotStart(path, program, reason): "\(path): \(program) could not be started: \(reason)"
        case let .cancelled(path): "\(path): stopped: the work was cancelled (nothing was written)"
        }
    }
}
