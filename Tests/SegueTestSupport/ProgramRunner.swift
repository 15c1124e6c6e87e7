// Running a program as the host tests do (a C program, melt, gst-launch-1.0, the installed segue):
// captured stdout and stderr, the exit status or the signal, and a watchdog that kills a run that
// outlives its time.
import Foundation

/// What a finished program left.
public struct ProgramResult {
    /// The exit status, or 128 + the signal that ended it.
    public let status: Int32
    /// The signal that ended it, if one did (a crash: SIGSEGV, SIGABRT, …).
    public let signal: Int32?
    /// What it wrote to standard output and standard error.
    public let stdout: String, stderr: String
}

/// Runs `executable` (a path, or a name looked up on PATH) with `arguments`; `environment` entries
/// are added for the child only. A run outliving `timeout` seconds is killed (SIGKILL).
public func runProgram(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                       timeout: Double = 300) throws -> ProgramResult {
    let p = Process()
    if executable.contains("/") {
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
    } else {
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [executable] + arguments
    }
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let watchdog = DispatchWorkItem { [p] in if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }
    final class Box: @unchecked Sendable { var data = Data() }
    let errors = Box()
    let group = DispatchGroup()
    group.enter()
    let errHandle = err.fileHandleForReading
    DispatchQueue.global().async { errors.data = errHandle.readDataToEndOfFile(); group.leave() }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    p.waitUntilExit()
    let signaled = p.terminationReason == .uncaughtSignal
    return ProgramResult(status: signaled ? 128 + p.terminationStatus : p.terminationStatus, signal: signaled ? p.terminationStatus : nil,
                         stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: errors.data, as: UTF8.self))
}
