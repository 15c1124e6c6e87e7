import SegueCore
import SegueMath
import SegueSystem

/// Everything that can go wrong reading or writing images and video, one error type for the
/// media layer. Every case names the file it is about, and its `description` is a sentence a user
/// can act on (the CLI prints it after `error: `).
public enum MediaError: SegueError, Sendable, Equatable, CustomStringConvertible {
    /// The input file does not exist.
    case fileNotFound(path: String)
    /// The input exists but cannot be read (a directory, no permission, an I/O error).
    case unreadable(path: String, reason: String)
    /// The input is neither a PNG nor a JPEG (judged by its first bytes, not its extension).
    case unknownFormat(path: String, reason: String)
    /// The input looked like `format` but its data is damaged or cut short; `message` is the codec's.
    case corrupt(path: String, format: String, message: String)
    /// A valid image of a kind Segue does not read (a CMYK JPEG); `reason` says what to do.
    case unsupportedImage(path: String, reason: String)
    /// The image header declares a size Segue refuses to allocate.
    case imageTooLarge(path: String, ImageSizeError)
    /// The image was to be read at a scale (pixels per point) no image may have.
    case invalidScale(path: String, ImageScaleError)
    /// The output path's extension names no format Segue writes.
    case unknownOutputFormat(path: String, supported: [String])
    /// The output cannot be created or put in place (missing directory, no permission, a
    /// directory in the way).
    case unwritable(path: String, reason: String)
    /// Writing to a stream failed part-way: standard output or a pipe closed by its reader
    /// (ffmpeg stopped reading), or an encoder stopped by its caller.
    case writeFailed(path: String, reason: String)
    /// An encoder refused the image; `message` is the codec's.
    case encodingFailed(path: String, format: String, message: String)
    /// The encoding settings do not fit the output (checked before anything is written).
    case invalidSettings(path: String, VideoSettingsError)
    /// No usable `ffmpeg` executable was found; `searched` says where Segue looked.
    case ffmpegNotFound(path: String, searched: String)
    /// `ffmpeg` ended with a non-zero status or a signal while making an output (an encoder, a
    /// stream copy); `stderr` holds its last lines.
    case ffmpegFailed(path: String, status: Int32, stderr: String)
    /// An input cannot be used as a video: ffprobe cannot read it, or it has no video stream or
    /// no frames.
    case invalidVideo(path: String, reason: String)
    /// The system refused a resource the work needs (a file descriptor, a thread, a process);
    /// `reason` says which and what to raise or free.
    case systemLimit(path: String, reason: String)
    /// A file output could not be completed: a full disk or an I/O error while Segue or ffmpeg
    /// wrote it, or a file ffmpeg wrote that is not whole; nothing was published at `path`.
    case incompleteOutput(path: String, reason: String)
    /// Not done: the work was cancelled (`Cancellation.cancel()`: a host's cancel button, a
    /// Ctrl-C). `path` is the output, or the input a decoder was reading; nothing was published.
    case cancelled(path: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case let .fileNotFound(path), let .unreadable(path, _), let .unknownFormat(path, _),
            let .corrupt(path, _, _), let .unsupportedImage(path, _), let .imageTooLarge(path, _),
            let .invalidScale(path, _), let .unknownOutputFormat(path, _),
            let .unwritable(path, _), let .writeFailed(path, _), let .encodingFailed(path, _, _),
            let .invalidSettings(path, _),
            let .ffmpegNotFound(path, _), let .ffmpegFailed(path, _, _), let .invalidVideo(path, _),
            let .systemLimit(path, _), let .incompleteOutput(path, _), let .cancelled(path):
            path
        }
    }

    /// A sentence for the user, naming the file and what to do about it.
    public var description: String {
        switch self {
        case let .fileNotFound(path):
            SystemError.fileNotFound(path: path).description
        case let .unreadable(path, reason):
            SystemError.unreadable(path: path, reason: reason).description
        case let .unknownFormat(path, reason):
            "\(path): not a PNG or JPEG image (\(reason)); Segue reads PNG and JPEG files"
        case let .unsupportedImage(path, reason):
            "\(path): \(reason)"
        case let .corrupt(path, format, message):
            "\(path): the \(format) data is corrupt or truncated: \(message)"
        case let .imageTooLarge(path, error):
            "\(path): image too large: \(error); scale it down first"
        case let .invalidScale(path, error):
            "\(path): \(error)"
        case let .unknownOutputFormat(path, supported):
            path.isEmpty
                ? SystemError.emptyPath.description
                : "\(path): cannot tell the output format from the file extension; use one of "
                    + supported.map { "." + $0 }.joined(separator: ", ")
        case let .unwritable(path, reason):
            SystemError.unwritable(path: path, reason: reason).description
        case let .writeFailed(path, reason):
            SystemError.writeFailed(path: path, reason: reason).description
        case let .encodingFailed(path, format, message):
            "\(path): \(format) encoding failed: \(message)"
        case let .invalidSettings(path, error):
            "\(path): \(error)"
        case let .ffmpegNotFound(path, searched):
            "\(path): ffmpeg is needed for video but was not found (\(searched)); "
                + "install the Debian package `ffmpeg` (apt-get install ffmpeg) or set SEGUE_FFMPEG to its path"
        case let .ffmpegFailed(path, status, stderr):
            stderr.isEmpty
                ? "\(path): ffmpeg exited with status \(status)"
                : "\(path): ffmpeg exited with status \(status):\n\(stderr)"
        case let .invalidVideo(path, reason):
            "\(path): cannot read the video: \(reason)"
        case let .systemLimit(path, reason):
            SystemError.systemLimit(path: path, reason: reason).description
        case let .incompleteOutput(path, reason):
            SystemError.incompleteOutput(path: path, reason: reason).description
        case let .cancelled(path):
            SystemError.cancelled(path: path).description
        }
    }
}

// MARK: - The system layer's errors

extension MediaError: SystemErrorConvertible {
    /// The media error that says what `error` says: each case to its namesake; a program that
    /// cannot be started (ffmpeg, ffprobe) to `.ffmpegNotFound`.
    package init(_ error: SystemError) {
        switch error {
        case let .fileNotFound(path): self = .fileNotFound(path: path)
        case let .unreadable(path, reason): self = .unreadable(path: path, reason: reason)
        case let .unwritable(path, reason): self = .unwritable(path: path, reason: reason)
        case let .writeFailed(path, reason): self = .writeFailed(path: path, reason: reason)
        case let .incompleteOutput(path, reason): self = .incompleteOutput(path: path, reason: reason)
        case let .systemLimit(path, reason): self = .systemLimit(path: path, reason: reason)
        case let .cannotStart(path, program, reason):
            self = .ffmpegNotFound(path: path, searched: "\(program) could not be started: \(reason)")
        case let .cancelled(path): self = .cancelled(path: path)
        }
    }
}

// MARK: - Staged outputs

extension MediaError {
    /// `error` as the user of a staged output should read it: a failure in the hidden folder
    /// `staging` (a frame, a preview, a concat piece, or the folder itself) is a failure of
    /// `destination`, the name they gave, which nothing reached (the staging folder goes with the
    /// error). Errors about other paths, and of other kinds, are unchanged.
    package static func naming(_ destination: String, insteadOf staging: String, _ error: Error) -> Error {
        guard let media = (error as? SystemError).map(MediaError.init) ?? error as? MediaError,
            media.path == staging || media.path.hasPrefix(staging + "/")
        else { return error }
        return switch media {
        case let .incompleteOutput(_, reason): MediaError.incompleteOutput(path: destination, reason: reason)
        case let .unwritable(_, reason): MediaError.unwritable(path: destination, reason: reason)
        case let .writeFailed(_, reason): MediaError.writeFailed(path: destination, reason: reason)
        case let .systemLimit(_, reason): MediaError.systemLimit(path: destination, reason: reason)
        case let .ffmpegNotFound(_, searched): MediaError.ffmpegNotFound(path: destination, searched: searched)
        case let .ffmpegFailed(_, status, stderr): MediaError.ffmpegFailed(path: destination, status: status, stderr: stderr)
        case let .encodingFailed(_, format, message): MediaError.encodingFailed(path: destination, format: format, message: message)
        case let .invalidSettings(_, settings): MediaError.invalidSettings(path: destination, settings)
        case .cancelled: MediaError.cancelled(path: destination)
        default: media
        }
    }
}

// MARK: - Internal helpers

extension MediaError {
    /// `.imageTooLarge` when `Image.validateSize` refuses the size, nil when it is fine.
    static func sizeProblem(width: Int, height: Int, path: String) -> MediaError? {
        do {
            try Image.validateSize(width: width, height: height)
            return nil
        } catch {
            return .imageTooLarge(path: path, error)
        }
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body that throws `MediaError` (the standard one only rethrows).
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(MediaError) -> R) throws(MediaError) -> R {
        let result: Result<R, MediaError> = withUnsafeBytes { raw in
            Result { () throws(MediaError) -> R in try body(raw) }
        }
        return try result.get()
    }
}
