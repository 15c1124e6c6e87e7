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

/// What a tool run left: its status, its standard output as bytes and as text, its standard error.
public struct ToolResult {
    public var status: Int32
    public var stdout: Data
    public var stderr: String
    public var text: String { String(decoding: stdout, as: UTF8.self) }

    public init(status: Int32, stdout: Data, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs `name` (found on PATH, or a path) with an environment of PATH and the entries given,
/// killing it after `timeout` seconds.
public func runTool(_ name: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 120) throws
    -> ToolResult
{
    let run = try ProgramRun(
        name, arguments, environment: ["PATH": FileIO.searchPath()].merging(environment) { $1 },
        inheriting: false, timeout: timeout)
    return ToolResult(status: run.status, stdout: Data(run.output), stderr: run.stderr)
}
