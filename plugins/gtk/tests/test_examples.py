"""Examples/gtk and the installed widget library: scripts/install.sh puts libsegue-gtk, its header,
pkg-config file and typelib under a prefix; the C example builds with `pkg-config segue-gtk` alone and
runs; the Python example finds SegueGtk through the installed typelib alone and holds a transition
part-way (its window then shows neither page at rest); GJS uses the same typelib, Vala the installed gir."""
import os
import selectors
import subprocess
import tempfile
import time
import unittest

import gtktest
from gtktest import ROOT

BUILD_DIR = os.environ.get("SEGUE_BUILD_DIR", os.path.join(ROOT, ".build", "debug"))


def setUpModule():
    global SERVER, PREFIX_DIR, PREFIX
    PREFIX_DIR = tempfile.TemporaryDirectory(prefix="segue-gtk-install-")
    PREFIX = os.path.join(PREFIX_DIR.name, "usr")
    run = subprocess.run([os.path.join(ROOT, "scripts", "install.sh"), "--prefix", PREFIX,
                          "--build-dir", BUILD_DIR, "--no-build"], capture_output=True, text=True)
    if run.returncode != 0:
        PREFIX_DIR.cleanup()
        raise AssertionError(f"install.sh failed:\n{run.stdout}{run.stderr}")
    SERVER = gtktest.XServer()   # last: nothing after it can fail and leave it running


def tearDownModule():
    SERVER.close()
    PREFIX_DIR.cleanup()


def wait_for_line(process, expected, timeout=60):
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    buffer = b""
    while time.monotonic() < deadline:
        if not selector.select(max(deadline - time.monotonic(), 0)):
            break
        chunk = os.read(process.stdout.fileno(), 4096)
        if not chunk:
            break
        buffer += chunk
        if expected.encode() in buffer:
            return True
    return False


class Installed(unittest.TestCase):
    def test_layout(self):
        lib = os.path.join(PREFIX, "lib")
        for path in ("libsegue-gtk.so", "libsegue-gtk.so.0", "pkgconfig/segue-gtk.pc",
                     "girepository-1.0/SegueGtk-1.0.typelib"):
            self.assertTrue(os.path.exists(os.path.join(lib, path)), path)
        self.assertTrue(os.path.exists(os.path.join(PREFIX, "share", "gir-1.0", "SegueGtk-1.0.gir")))
        with open(os.path.join(PREFIX, "include", "segue-gtk.h")) as installed, \
                open(os.path.join(ROOT, "plugins", "gtk", "segue-gtk.h")) as source:
            self.assertEqual(installed.read(), source.read())
        soname = subprocess.run(["readelf", "-d", os.path.join(lib, "libsegue-gtk.so")],
                                capture_output=True, text=True).stdout
        self.assertIn("[libsegue-gtk.so.0]", soname)
        self.assertIn("[libsegue.so.0]", soname)

    def test_c_example_builds_with_pkg_config_and_runs(self):
        with tempfile.TemporaryDirectory() as work:
            env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(PREFIX, "lib", "pkgconfig"))
            flags = subprocess.run(["pkg-config", "--cflags", "--libs", "segue-gtk"], env=env,
                                   capture_output=True, text=True, check=True).stdout.split()
            program = os.path.join(work, "navigation")
            subprocess.run(["cc", "-Wall", "-Wextra", "-Werror", os.path.join(ROOT, "Examples", "gtk", "navigation.c"),
                            "-o", program, *flags], check=True)
            process = subprocess.Popen([program, os.path.join(ROOT, "Examples", "gtk")], env=SERVER.env(),
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(3)
            alive = process.poll() is None
            process.terminate()
            _, errors = process.communicate(timeout=20)
            self.assertTrue(alive, errors.decode())
            self.assertNotIn(b"CRITICAL", errors)
            self.assertNotIn(b"WARNING", errors.replace(b"Gtk-WARNING", b""))

    def test_python_example_through_the_installed_typelib(self):
        env = SERVER.env(GI_TYPELIB_PATH=os.path.join(PREFIX, "lib", "girepository-1.0"))
        env.pop("LD_LIBRARY_PATH", None)
        process = subprocess.Popen(["/usr/bin/python3", os.path.join(ROOT, "Examples", "gtk", "navigation.py"),
                                    "--hold", "list:cube:0.4"], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            self.assertTrue(wait_for_line(process, "holding"), "the Python example did not start")
            time.sleep(0.5)
            with tempfile.TemporaryDirectory() as work:
                shot = SERVER.screenshot(os.path.join(work, "held.png"), 800, 600)
                width, height, pixels = gtktest.load_rgb(shot)
                # The cube leaves the window's corners to the background and shows two faces: many colours.
                self.assertGreater(len(set(pixels[i:i + 3] for i in range(0, len(pixels), 3 * 7))), 50)
                if process.poll() is not None:
                    self.fail(process.stderr.read().decode())
        finally:
            process.terminate()
            _, errors = process.communicate(timeout=20)
        self.assertNotIn(b"CRITICAL", errors)

    def test_gjs_through_the_installed_typelib(self):
        """GJS too: properties, push and a GError thrown as an exception."""
        script = (
            "imports.gi.versions.Gtk = '4.0';"
            "const { Gtk, SegueGtk } = imports.gi; Gtk.init();"
            "const stack = new SegueGtk.Stack({ effect: 'cube' });"
            "stack.add_named(new Gtk.Label({ label: 'a' }), 'a');"
            "stack.add_named(new Gtk.Label({ label: 'b' }), 'b');"
            "print(stack.push('b'), stack.visible_child_name, stack.depth, stack.effect);"
            "try { stack.set_effect('no-such-effect'); } catch (e) { print('error', e.code, e.message); }")
        env = SERVER.env(GI_TYPELIB_PATH=os.path.join(PREFIX, "lib", "girepository-1.0"))
        env.pop("LD_LIBRARY_PATH", None)
        run = subprocess.run(["gjs", "-c", script], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        self.assertEqual(lines[0], "true b 2 cube")
        self.assertTrue(lines[1].startswith("error 2 unknown effect 'no-such-effect'"), lines[1])


    def test_vala_through_the_installed_gir(self):
        """Vala too: vapigen makes the bindings from the installed gir, valac builds with the
        installed segue-gtk.pc; the same properties, push and GError as from GJS."""
        with tempfile.TemporaryDirectory() as work:
            env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(PREFIX, "lib", "pkgconfig"))
            subprocess.run(["vapigen", "--library", "segue-gtk", "--pkg", "gtk4", "--directory", work,
                            os.path.join(PREFIX, "share", "gir-1.0", "SegueGtk-1.0.gir")],
                           env=env, capture_output=True, text=True, check=True)
            program = os.path.join(work, "stack_check")
            build = subprocess.run(["valac", "--vapidir", work, "--pkg", "gtk4", "--pkg", "segue-gtk",
                                    os.path.join(ROOT, "plugins", "gtk", "tests", "stack_check.vala"), "-o", program],
                                   env=env, capture_output=True, text=True)
            self.assertEqual(build.returncode, 0, build.stdout + build.stderr)
            run = subprocess.run([program], env=SERVER.env(), capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        self.assertEqual(lines[0], "true b 2 cube")
        self.assertTrue(lines[1].startswith("error 2 unknown effect 'no-such-effect'"), lines[1])

if __name__ == "__main__":
    unittest.main()
