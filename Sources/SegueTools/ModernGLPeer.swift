import FoundationEssentials
import Segue
import SegueMedia

// The OpenGL peer of `segue bench`: the same cross-fade rendered through OpenGL on the same driver
// by a small Python script (moderngl, headless EGL), read back and written as raw RGBA8 into a
// pipe. The script's text is kept here, so that an installed `segue` can run it (it is written to
// a temporary file for each run). It times its own frame loop
// after a warm-up frame, so Python's start and the EGL set-up are not counted against it.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The moderngl fade peer: availability and frames per second.
public enum ModernGLPeer {
    /// The most frames the script renders (more are refused, and `segue bench` skips the peer).
    public static let maximumFrames = 100_000

    /// What to run to make the peer available.
    public static let installHint = "pip install moderngl"

    /// The `python3` on `PATH`, or nil.
    public static func python() -> String? { FileIO.findExecutable("python3") }

    /// True when `python3 -c 'import moderngl'` succeeds (run under `cancellation`, whose
    /// `cancel()` kills it: then false).
    public static func isAvailable(cancellation: Cancellation? = nil) -> Bool {
        guard let python = python() else { return false }
        return (try? ProgramRun(python, ["-c", "import moderngl"], timeout: 60, cancellation: cancellation))?.status == 0
    }

    /// Parses the script's `frames=N seconds=S` line (the last one on its stderr).
    static func parseTiming(_ stderr: String) -> (frames: Int, seconds: Double)? {
        for line in stderr.split(separator: "\n").reversed() where line.hasPrefix("frames=") {
            let fields = line.split(separator: " ").map { $0.split(separator: "=", maxSplits: 1) }
            guard fields.count == 2, fields.allSatisfy({ $0.count == 2 }),
                let frames = Int(fields[0][1]), let seconds = Double(fields[1][1]), seconds > 0
            else { return nil }
            return (frames, seconds)
        }
        return nil
    }

    /// The peer script (Python), as `segue bench` runs it.
    public static let script = #"""
        #!/usr/bin/env python3
        """The OpenGL peer of `segue bench`: a cross-fade rendered through OpenGL on the same Mesa
        driver (headless EGL through moderngl), read back and written as raw RGBA8 to stdout.

            moderngl_fade.py FROM.rgba TO.rgba WIDTH HEIGHT FRAMES > frames.rgba

        FROM and TO are raw RGBA8 files of WIDTH x HEIGHT (rows top to bottom). Frame i shows
        mix(from, to, i / (FRAMES - 1)), rows top to bottom, as `segue render fade -o -` writes them.
        Prints the renderer, then `frames=N seconds=S` (the frame loop's wall time, after one untimed
        warm-up frame, so Python's start and EGL's set-up are not counted) on stderr. Needs `pip install moderngl` and EGL (libegl1, libegl-mesa0,
        libgl1-mesa-dri on Debian).
        """
        import sys
        import time

        import moderngl

        VERTEX = """
        #version 330
        out vec2 uv;
        void main() {
            // One full-screen triangle; uv is the window position in [0,1] (see the note in main).
            vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
            uv = p;
            gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
        }
        """

        FRAGMENT = """
        #version 330
        uniform sampler2D from_tex;
        uniform sampler2D to_tex;
        uniform float progress;
        in vec2 uv;
        out vec4 color;
        void main() {
            color = mix(texture(from_tex, uv), texture(to_tex, uv), progress);
        }
        """


        def main() -> int:
            if len(sys.argv) != 6:
                print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
                return 2
            from_path, to_path = sys.argv[1], sys.argv[2]
            width, height, frames = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
            if not (0 < width <= \#(Image.maximumSide) and 0 < height <= \#(Image.maximumSide) and 2 <= frames <= \#(maximumFrames)):
                print("error: size or frame count out of range", file=sys.stderr)
                return 2
            size = width * height * 4
            with open(from_path, "rb") as f:
                from_bytes = f.read()
            with open(to_path, "rb") as f:
                to_bytes = f.read()
            if len(from_bytes) != size or len(to_bytes) != size:
                print(f"error: inputs must be {size} bytes of RGBA8", file=sys.stderr)
                return 2

            ctx = moderngl.create_standalone_context(backend="egl")
            print(f"moderngl: {ctx.info['GL_RENDERER']}, {ctx.info['GL_VERSION']}", file=sys.stderr)
            # Rows top to bottom in memory go in as texture rows 0.. (GL's bottom), and the framebuffer's
            # row 0 is read first, so sampling at uv = window position keeps the picture upright.
            textures = [ctx.texture((width, height), 4, data) for data in (from_bytes, to_bytes)]
            for t in textures:
                t.filter = (moderngl.LINEAR, moderngl.LINEAR)
                t.repeat_x = t.repeat_y = False
            program = ctx.program(vertex_shader=VERTEX, fragment_shader=FRAGMENT)
            program["from_tex"] = 0
            program["to_tex"] = 1
            vao = ctx.vertex_array(program, [])
            target = ctx.renderbuffer((width, height), 4)
            fbo = ctx.framebuffer(color_attachments=[target])
            fbo.use()
            textures[0].use(0)
            textures[1].use(1)
            out = bytearray(size)
            stdout = sys.stdout.buffer
            program["progress"] = 0.5
            vao.render(moderngl.TRIANGLES, vertices=3)
            fbo.read_into(out, components=4)
            start = time.perf_counter()
            for i in range(frames):
                program["progress"] = i / (frames - 1)
                vao.render(moderngl.TRIANGLES, vertices=3)
                fbo.read_into(out, components=4)
                stdout.write(out)
            stdout.flush()
            print(f"frames={frames} seconds={time.perf_counter() - start:.6f}", file=sys.stderr)
            return 0


        if __name__ == "__main__":
            sys.exit(main())

        """#
}

extension TransitionBenchmark {
    /// Frames per second of the moderngl peer: the fade between the same inputs at the same size
    /// and frame count, rendered through OpenGL on the same driver, read back and written as raw
    /// RGBA8 into a pipe (median of `runs`; the script's own timing of its frame loop).
    /// - Throws: `RenderError.invalidValue` when python3 is missing or the script fails;
    ///   `SystemError.cancelled` when `cancellation` stops it.
    public func modernGLFadeFramesPerSecond() throws -> Double {
        guard let python = ModernGLPeer.python() else { throw RenderError.invalidValue("python3 is not on PATH") }
        return try withScratchDirectory { dir in
            for (name, image) in [("from", from), ("to", to)] { try StagedOutput.write(image.pixels, to: dir + "/\(name).rgba") }
            let scriptPath = dir + "/moderngl_fade.py"
            try StagedOutput.write(Array(ModernGLPeer.script.utf8), to: scriptPath)
            let seconds = try median {
                let run = try Self.runProgram(
                    python, [scriptPath, dir + "/from.rgba", dir + "/to.rgba", String(width), String(height), String(frames)],
                    what: "the moderngl peer", cancellation: cancellation)
                guard let timing = ModernGLPeer.parseTiming(run.stderr), timing.frames == frames else {
                    let last = run.stderr.split(separator: "\n").last.map(String.init) ?? "no message"
                    throw RenderError.invalidValue("the moderngl peer reported no timing of \(frames) frames: \(last)")
                }
                return timing.seconds
            }
            return Double(frames) / seconds
        }
    }
}
