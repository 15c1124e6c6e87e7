// Running another program to its end, for the benchmarks that time hosts (melt, gst-launch) and
// for the tests that drive programs (a C host, the installed segue): captured standard error,
// standard output kept or drained, the exit status or the signal, the wall time, and a watchdog
// that kills a run outliving its time. (The library's own ffmpeg children go through SegueMedia's
// ToolProcess, which registers them with a Cancellation.)
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program run to its end: what it left.
///
/// ```swift
/// let run = try ProgramRun("melt", ["project.mlt", "-consumer", "null"], timeout: 60)
/// print(run.status, run.seconds, run.stderr)
/// ```
public struct ProgramRun: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    public let status: Int32
    /// The signal that ended it, if one did (a crash: SIGSEGV, SIGABRT, …; SIGKILL when timed out).
    public let signal: Int32?
    /// Its standard output (empty when drained).
    public let output: Data
    /// Its standard error.
    public let stderr: String
    /// Wall-clock seconds from its start to its end.
    public let seconds: Double
    /// Whether the watchdog killed it.
    public let timedOut: Bool

    /// Its standard output as text.
    public var stdout: String { String(decoding: output, as: UTF8.self) }

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments` and waits for it.
    /// - Parameters:
    ///   - environment: entries added to this process's environment for the child only, or its
    ///     whole environment when `inheriting` is false.
    ///   - directory: its working directory (default: this process's).
    ///   - timeout: seconds after which it is killed (SIGKILL).
    ///   - keepingOutput: false to read and discard its standard output (a host writing frames).
    /// - Throws: what starting it throws (a missing executable).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], inheriting: Bool = true,
                directory: String? = nil, timeout: Double = 300, keepingOutput: Bool = true) throws {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        process.environment = inheriting ? ProcessInfo.processInfo.environment.merging(environment) { $1 } : environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let start = DispatchTime.now()
        try process.run()
        final class Box: @unchecked Sendable {
            var data = Data()
            var killed = false
        }
        let box = Box()
        let watchdog = DispatchWorkItem { [process] in
            if process.isRunning { box.killed = true; kill(process.processIdentifier, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        // Standard error on another thread, so that neither pipe can fill up and block the child.
        let group = DispatchGroup()
        group.enter()
        let errorHandle = err.fileHandleForReading
        DispatchQueue.global().async { box.data = errorHandle.readDataToEndOfFile(); group.leave() }
        var output = Data()
        if keepingOutput {
            output = out.fileHandleForReading.readDataToEndOfFile()
        } else {
            TransitionBenchmark.drain(out.fileHandleForReading.fileDescriptor)
        }
        group.wait()
        process.waitUntilExit()
        watchdog.cancel()
        seconds = TransitionBenchmark.seconds(since: start)
        let signaled = process.terminationReason == .uncaughtSignal
        status = signaled ? 128 + process.terminationStatus : process.terminationStatus
        signal = signaled ? process.terminationStatus : nil
        self.output = output
        stderr = String(decoding: box.data, as: UTF8.self)
        timedOut = box.killed
    }
}
