// Children started by ToolProcess (posix_spawn): only stdin, stdout and stderr are inherited, the
// child leads a process group of its own, no signal is blocked in it, and a missing executable is
// reported as such.
import Foundation
@testable import SegueMedia
import Testing

@Suite("Tool processes")
struct ToolProcessTests {
    @Test("a child has no descriptor but its three standard ones, its own process group and no blocked signal")
    func childEnvironment() throws {
        // An open descriptor of ours without close-on-exec must not reach the child either. The
        // shell reads its own mask with builtins only: while it forks a command (grep) it blocks
        // every signal for a moment, which a command reading /proc/PPID/status could catch.
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked) }
        let result = try ToolProcess.run(executable: "/bin/sh", arguments: ["-c", """
            for n in $(seq 3 4096); do [ -e /proc/$$/fd/$n ] && printf '%s ' $n; done; echo "fds \(leaked)"
            echo "$$ $(cut -d' ' -f5 /proc/$$/stat)"
            while read -r key value; do if [ "$key" = SigBlk: ]; then printf 'SigBlk:\t%s\n' "$value"; fi; done < /proc/$$/status
            """], path: "x")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "fds \(leaked)", "no descriptor above 2: \(lines)")
        let ids = lines.count > 1 ? lines[1].split(separator: " ") : []
        #expect(ids.count == 2 && ids[0] == ids[1], "the child leads its own process group: \(lines)")
        #expect(lines.last == "SigBlk:\t0000000000000000")
    }

    @Test("an executable that is not there is reported as not found, with why")
    func missingExecutable() {
        let error = mediaError { () throws(MediaError) in
            try ToolProcess.run(executable: "/nonexistent/ffprobe", arguments: [], path: "clip.mp4")
        }
        #expect(error == .ffmpegNotFound(path: "clip.mp4", searched: "/nonexistent/ffprobe could not be started: No such file or directory"))
    }
}
