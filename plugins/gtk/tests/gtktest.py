"""Support for the GTK widget tests: a private X server, the fixture windows, screenshots and pixel
comparisons. Debian's python3 (python3-gi) runs it; nothing here changes this process's
environment: each child gets its environment explicitly."""
import os
import selectors
import shutil
import subprocess
import tempfile
import time

import gi

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf, GLib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
BUILD = os.environ.get("SEGUE_GTK_BUILD", os.path.join(ROOT, "plugins", "gtk", "build"))
SEGUE = os.environ.get("SEGUE_CLI", os.path.join(ROOT, ".build", "debug", "segue"))
OUTPUT = os.path.join(BUILD, "test-output")


class XServer:
    """An Xvfb of its own on a free display (Xvfb picks it: -displayfd)."""

    def __init__(self, size="1024x768x24"):
        read, write = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", size, "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        number = b""
        deadline = time.monotonic() + 20
        while not number.endswith(b"\n"):
            if time.monotonic() > deadline:
                self.process.kill()
                raise RuntimeError("Xvfb did not start")
            chunk = os.read(read, 16)
            if not chunk:
                raise RuntimeError("Xvfb exited")
            number += chunk
        os.close(read)
        self.display = ":" + number.decode().strip()

    def env(self, **extra):
        """The environment of a child on this display: this process's, with the display and the
        renderer set (GSK_RENDERER as the user has it, else SEGUE_GTK_TEST_RENDERER)."""
        env = dict(os.environ)
        env["DISPLAY"] = self.display
        env["GDK_BACKEND"] = "x11"
        env["NO_AT_BRIDGE"] = "1"
        env.pop("WAYLAND_DISPLAY", None)
        renderer = os.environ.get("SEGUE_GTK_TEST_RENDERER")
        if renderer:
            env["GSK_RENDERER"] = renderer
        env.update(extra)
        return env

    def screenshot(self, path, width, height):
        subprocess.run(["import", "-display", self.display, "-window", "root",
                        "-crop", f"{width}x{height}+0+0", "+repage", path], check=True)
        return path

    def xdotool(self, *args):
        subprocess.run(["xdotool", *[str(a) for a in args]], env=self.env(), check=True)

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Fixture:
    """A fixture window (stack-fixture or stack_fixture.py) driven over its stdin and stdout."""

    def __init__(self, server, command, workdir, env=None):
        self.stderr_path = os.path.join(workdir, f"fixture-{id(self)}.stderr")
        self.stderr = open(self.stderr_path, "w+")
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.stderr, env=env or server.env(), cwd=workdir)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)
        self.buffer = b""
        first = self.read_line(60)
        if first != "ready":
            raise AssertionError(f"the fixture did not start: {first!r}\n{self.errors()}")

    def read_line(self, timeout=30):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                raise AssertionError(f"the fixture did not answer in {timeout} s (frozen?)\n{self.errors()}")
            chunk = os.read(self.process.stdout.fileno(), 4096)
            if not chunk:
                raise AssertionError(f"the fixture exited ({self.process.wait()})\n{self.errors()}")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    def send(self, command, timeout=30):
        self.process.stdin.write((command + "\n").encode())
        self.process.stdin.flush()
        return self.read_line(timeout)

    def ok(self, command, timeout=30):
        answer = self.send(command, timeout)
        if not answer.startswith("ok"):
            raise AssertionError(f"{command!r} answered {answer!r}\n{self.errors()}")
        return answer

    def state(self):
        fields = {}
        for word in self.ok("state").split()[1:]:
            key, _, value = word.partition("=")
            fields[key] = value
        return fields

    def errors(self):
        if not self.stderr.closed:
            self.stderr.flush()
        with open(self.stderr_path) as f:
            return f.read()

    def close(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.write(b"quit\n")
                self.process.stdin.flush()
                self.process.wait(20)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.process.stdin.close()
        self.stderr.close()
        return self.process.returncode


def c_fixture():
    return [os.path.join(BUILD, "stack-fixture")]


def python_fixture():
    return ["/usr/bin/python3", os.path.join(HERE, "stack_fixture.py")]


def python_env(server):
    """The environment in which Python finds SegueGtk through introspection, from the build."""
    typelibs = os.environ.get("GI_TYPELIB_PATH")
    libraries = os.environ.get("LD_LIBRARY_PATH")
    return server.env(GI_TYPELIB_PATH=BUILD + (":" + typelibs if typelibs else ""),
                      LD_LIBRARY_PATH=BUILD + (":" + libraries if libraries else ""))


def make_pages(directory, width, height):
    """Two pages' images of known content: a gradient with a disc, and a tinted checkerboard."""
    a = os.path.join(directory, "page-a.png")
    b = os.path.join(directory, "page-b.png")
    subprocess.run(["convert", "-size", f"{width}x{height}", "gradient:#e04030-#3050e0", "-fill", "#ffe060",
                    "-draw", f"circle {width // 2},{height // 2} {width // 2},{height // 4}",
                    "-depth", "8", "PNG24:" + a], check=True)
    subprocess.run(["convert", "-size", f"{width}x{height}", "pattern:checkerboard", "-fill", "#30a050",
                    "-colorize", "40%", "-depth", "8", "PNG24:" + b], check=True)
    return a, b


def segue_frame(from_png, to_png, effect, progress, output, params=()):
    """`segue frame` of two PNGs; `params` as NAME=VALUE strings (--param)."""
    extra = [arg for param in params for arg in ("--param", param)]
    subprocess.run([SEGUE, "frame", "--from", from_png, "--to", to_png, "--effect", effect,
                    "--progress", str(progress), "-o", output, *extra], check=True,
                   stdout=subprocess.DEVNULL)
    return output


# The fixtures' window background (CSS), behind what a transition leaves transparent.
BACKGROUND = (128, 128, 128)


def load_rgb(path):
    """(width, height, bytes of RGB rows) of a PNG; a PNG with alpha (straight, as `segue frame`
    writes) is composited over BACKGROUND, as the window shows it (rounded to nearest)."""
    pixbuf = GdkPixbuf.Pixbuf.new_from_file(path)
    width, height = pixbuf.get_width(), pixbuf.get_height()
    channels, stride = pixbuf.get_n_channels(), pixbuf.get_rowstride()
    data = pixbuf.get_pixels()
    rows = bytearray()
    for y in range(height):
        row = data[y * stride: y * stride + width * channels]
        if channels == 4:
            out = bytearray()
            for i in range(0, len(row), 4):
                alpha = row[i + 3]
                if alpha == 255:
                    out += row[i:i + 3]
                else:
                    out += bytes((row[i + c] * alpha + BACKGROUND[c] * (255 - alpha) + 127) // 255
                                 for c in range(3))
            row = out
        rows += row
    return width, height, bytes(rows)


def compare(actual_path, expected_path, name, tolerance=2, fraction=0.99):
    """Compares two images; on failure writes NAME-actual.png, NAME-expected.png and
    NAME-difference.png under build/test-output and returns a message; None when they match:
    at least `fraction` of pixels within `tolerance`/255 in every channel."""
    aw, ah, a = load_rgb(actual_path)
    ew, eh, e = load_rgb(expected_path)
    if (aw, ah) != (ew, eh):
        return f"{name}: sizes differ: {aw}x{ah} against {ew}x{eh}"
    bad = 0
    worst = 0
    difference = bytearray(len(a))
    for i in range(0, len(a), 3):
        d = max(abs(a[i] - e[i]), abs(a[i + 1] - e[i + 1]), abs(a[i + 2] - e[i + 2]))
        if d > tolerance:
            bad += 1
            difference[i] = 255
            difference[i + 1] = min(255, d * 4)
        worst = max(worst, d)
    pixels = aw * ah
    if bad <= pixels * (1 - fraction):
        return None
    os.makedirs(OUTPUT, exist_ok=True)
    shutil.copy(actual_path, os.path.join(OUTPUT, f"{name}-actual.png"))
    shutil.copy(expected_path, os.path.join(OUTPUT, f"{name}-expected.png"))
    GdkPixbuf.Pixbuf.new_from_bytes(GLib.Bytes.new(bytes(difference)), GdkPixbuf.Colorspace.RGB, False, 8,
                                    aw, ah, aw * 3).savev(os.path.join(OUTPUT, f"{name}-difference.png"), "png", [], [])
    return (f"{name}: {bad} of {pixels} pixels ({100.0 * bad / pixels:.2f} %) differ by more than "
            f"{tolerance}/255 (worst {worst}); images in {OUTPUT}")


def same_image(a_path, b_path):
    return load_rgb(a_path) == load_rgb(b_path)


def temporary_directory():
    return tempfile.TemporaryDirectory(prefix="segue-gtk-test-")
