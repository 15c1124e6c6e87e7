// A child process (ffmpeg, ffprobe) with piped stdin/stdout and a captured stderr.
//
// Deadlock avoidance: stderr is drained on a background thread from the moment the process
// starts, so the child can never block on a full stderr pipe while we block writing its stdin
// or reading its stdout. Only the last `stderrLimit` bytes are kept.
//
// Foundation's Process (Linux) closes every other descriptor in the child and starts it in its
// own process group, so two encoders never hold each other's pipes open and a terminal's Ctrl-C
// reaches only Segue (whose interrupt handler kills registered children).

import Foundation

/// A running tool. Not thread-safe except `kill()`, which may be called from anywhere.
final class ToolProcess {
    /// The file the tool works on, for errors.
    let path: String
    /// The write end of the child's stdin, when piped.
    private(set) var input: FileHandle?
    /// The read end of the child's stdout, when piped.
    private(set) var output: FileHandle?

    private let process: Process
    private let errors: StderrCollector
    private var waited = false

    /// Starts `executable` with `arguments`.
    /// - Parameter stderrLines: called on the draining thread with each complete stderr line;
    ///   a line for which it returns true is consumed (not kept for error messages).
    /// - Throws: `.ffmpegNotFound` when the executable cannot be started.
    init(executable: String, arguments: [String], pipeInput: Bool, pipeOutput: Bool, path: String,
         stderrLines: (@Sendable (Substring) -> Bool)? = nil) throws(MediaError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdinPipe = pipeInput ? Pipe() : nil
        let stdoutPipe = pipeOutput ? Pipe() : nil
        let stderrPipe = Pipe()
        process.standardInput = stdinPipe ?? FileHandle.nullDevice
        process.standardOutput = stdoutPipe ?? FileHandle.nullDevice
        process.standardError = stderrPipe
        do {
            try TemporaryFiles.launch(process)
        } catch {
            throw .ffmpegNotFound(path: path, searched: "\(executable) could not be started: \(error.localizedDescription)")
        }
        self.path = path
        self.process = process
        self.input = stdinPipe?.fileHandleForWriting
        if let input { FileIO.enlargePipeBuffer(input.fileDescriptor) }
        self.output = stdoutPipe?.fileHandleForReading
        self.errors = StderrCollector(stderrPipe.fileHandleForReading, lines: stderrLines)
    }

    deinit {
        // Owners wait explicitly; this only stops a child that would otherwise be orphaned.
        if !waited {
            kill()
            _ = wait()
        }
    }

    /// The child's process id.
    var pid: Int32 { process.processIdentifier }

    /// Writes all of `bytes` to the child's stdin.
    /// - Returns: nil, or the errno that stopped the write (`EPIPE` when the child has exited).
    func write(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard let input else { return EBADF }
        return FileIO.writeAll(input.fileDescriptor, bytes)
    }

    /// Reads exactly `count` bytes from the child's stdout into `buffer`.
    /// - Returns: the number of bytes read: `count`, or fewer at end of output.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let output else { return 0 }
        return FileIO.readFully(output.fileDescriptor, buffer)
    }

    /// Closes the child's stdin, so it sees end of input.
    func closeInput() {
        try? input?.close()
        input = nil
    }

    /// Kills the child at once.
    func kill() {
        if process.isRunning { FileIO.send(SIGKILL, to: process.processIdentifier) }
    }

    /// Waits for the child to exit (closing its stdin and stdout first).
    /// - Returns: its exit status (or 128 + signal), and the tail of its stderr.
    func wait() -> (status: Int32, stderr: String) {
        closeInput()
        try? output?.close()
        output = nil
        process.waitUntilExit()
        waited = true
        TemporaryFiles.unregister(process: process.processIdentifier)
        let status = process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
        return (status, errors.tail())
    }

    /// Runs a tool to completion, collecting stdout (for `ffprobe`).
    static func run(executable: String, arguments: [String], path: String) throws(MediaError) -> (status: Int32, stdout: [UInt8], stderr: String) {
        let tool = try ToolProcess(executable: executable, arguments: arguments, pipeInput: false, pipeOutput: true, path: path)
        var collected = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { tool.read(into: $0) }
            collected += chunk[0..<n]
            if n < chunk.count { break }
        }
        let (status, stderr) = tool.wait()
        return (status, collected, stderr)
    }
}

/// Drains a pipe on a background thread, keeping the last bytes. With a line handler, each
/// complete line is offered to it first and only the lines it does not consume are kept.
final class StderrCollector: Sendable {
    /// How many trailing bytes of stderr are kept.
    static let limit = 16 * 1024

    private let data = Locked([UInt8]())
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle, lines handler: (@Sendable (Substring) -> Bool)? = nil) {
        let data = self.data, done = self.done
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            var partial = [UInt8]()
            func keep(_ bytes: ArraySlice<UInt8>) {
                data.withLock { stored in
                    stored += bytes
                    if stored.count > StderrCollector.limit { stored.removeFirst(stored.count - StderrCollector.limit) }
                }
            }
            while true {
                let n = chunk.withUnsafeMutableBytes { FileIO.readSome(handle.fileDescriptor, $0) }
                guard n > 0 else { break }
                guard let handler else { keep(chunk[0..<n]); continue }
                partial += chunk[0..<n]
                var start = 0
                while let newline = partial[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: partial[start..<newline], as: UTF8.self)
                    if !handler(line[...]) { keep(partial[start...newline]) }
                    start = newline + 1
                }
                partial.removeFirst(start)
            }
            if let handler, !partial.isEmpty {
                let line = String(decoding: partial, as: UTF8.self)
                if !handler(line[...]) { keep(partial[...]) }
            }
            try? handle.close()
            done.signal()
        }
    }

    /// Waits for end of stream and returns the last `lines` non-empty lines.
    func tail(lines: Int = 12) -> String {
        done.wait()
        done.signal()  // later calls return at once
        let text = data.withLock { String(decoding: $0, as: UTF8.self) }
        let kept = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return kept.suffix(lines).joined(separator: "\n")
    }
}
