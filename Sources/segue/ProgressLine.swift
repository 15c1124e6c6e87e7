// The progress line of the commands that render many frames; the one place the CLI asks whether
// stderr is a terminal.
import FoundationEssentials
import Segue

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a progress line to stderr when stderr is a terminal.
struct ProgressLine {
    let total: Int
    let enabled = isatty(STDERR_FILENO) != 0
    let watch = Stopwatch()

    func update(_ done: Int) {
        guard enabled else { return }
        let elapsed = watch.elapsed
        let fps = elapsed > 0 ? Double(done) / elapsed : 0
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        let remaining = fps > 0 ? Int((Double(total - done) / fps).rounded()) : 0
        let eta = done < total && fps > 0 ? String(cFormat: "  ETA %d:%02d", remaining / 60, remaining % 60) : "        "
        FileIO.writeStandardError("\r[\(bar)] " + String(cFormat: "%d/%d frames  %.1f fps", done, total, fps) + eta)
    }

    func finish() {
        guard enabled else { return }
        FileIO.writeStandardError("\n")
    }
}
