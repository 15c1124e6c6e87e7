// Stand-ins for ffmpeg, for the tests of what Segue does when ffmpeg fails: one way to write
// them, and the full disk that two suites simulate.
import Foundation
import SegueSystem

/// Writes an executable stand-in ffmpeg to `path` and returns the path: a shell script in which
/// `$last` is its last argument and `$out` that argument without `file:` (the output ffmpeg would
/// write), then `body`.
@discardableResult
public func fakeFFmpeg(at path: String, _ body: String) throws -> String {
    try ("#!/bin/sh\nfor last; do :; done\nout=\"${last#file:}\"\n" + body + "\n").write(
        toFile: path, atomically: true, encoding: .utf8)
    guard chmod(path, 0o755) == 0 else { throw SetupFailure("cannot make \(path) executable") }
    return path
}

/// A stand-in at `path` that runs the real ffmpeg, except when it writes the temporary of an
/// output named `name.*`: that is cut to 2000 bytes, and ffmpeg says "No space left on device"
/// and exits with status 0, as ffmpeg 5.1 does on a full disk.
@discardableResult
public func fullDiskFFmpeg(at path: String, output name: String) throws -> String {
    guard let real = FileIO.findExecutable("ffmpeg") else { throw SetupFailure("no ffmpeg on PATH") }
    return try fakeFFmpeg(
        at: path,
        """
        case "$last" in
        *.\(name).*.segue-tmp-*)
            "\(real)" "$@" || exit $?
            truncate -s 2000 "$out"
            echo "av_interleaved_write_frame(): No space left on device" >&2
            exit 0 ;;
        esac
        exec "\(real)" "$@"
        """)
}
