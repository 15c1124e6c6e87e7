// Running a program as the host tests do (a C program, melt, gst-launch-1.0, the installed segue):
// SegueTools' `ProgramRun` (captured output, the exit status or the signal, a watchdog), with
// this process's environment and the entries given.
import Foundation
import SegueSystem
import SegueTools

/// What a finished program left.
public typealias ProgramResult = ProgramRun

/// Runs `executable` (a path, or a name looked up on PATH) with `arguments`; `environment` entries
/// are added for the child only. A run outliving `timeout` seconds is killed (SIGKILL).
public func runProgram(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    timeout: Double = 300
) throws -> ProgramResult {
    try ProgramRun(executable, arguments, environment: environment, timeout: timeout)
}
