"""The package refuses a libsegue of another major version (whose C API it would call wrongly),
naming both versions and the library; a library of its own major version loads. The libraries
here are fakes: every segue_* function the package binds, doing nothing, built with the C
compiler, each loaded through SEGUE_LIBRARY in a subprocess."""
import os
import shutil
import subprocess
import sys

import pytest

import segue
import segue._library


def fake_library(directory, version, name):
    """A shared library `directory/name` with every function the package binds (returning 0 or
    NULL) and segue_version() returning `version`."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler (cc) to build a fake libsegue")
    lines = ['const char *segue_version(void) { return "%s"; }' % version]
    for function in segue._library._PROTOTYPES:
        if function != "segue_version":
            lines.append("void *%s(void) { return 0; }" % function)
    source = directory / (name + ".c")
    source.write_text("\n".join(lines) + "\n")
    path = directory / name
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(path), str(source)], check=True, capture_output=True,
                   timeout=120)
    return str(path)


CODE = """
import segue
for use in (segue.version, segue.effects, lambda: segue.Transition("fade")):
    try:
        print(use())
    except segue.SegueError as e:
        print(type(e).__name__, e)
"""


def run_with(library):
    env = dict(os.environ, SEGUE_LIBRARY=library)
    result = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize("version", ["1.0.0", "10.2.3", "", "one"])
def test_a_library_of_another_major_version_is_refused(tmp_path, version):
    path = fake_library(tmp_path, version, "libsegue.so.1")
    expected = ("SegueError the loaded library %s is Segue %s; this segue package (%s) needs Segue 0.x: "
                "install Segue 0.x or set SEGUE_LIBRARY to its libsegue.so"
                % (path, version or "(no version)", segue.__version__))
    assert run_with(path) == [expected] * 3   # every use, not only the first


def test_a_library_of_the_same_major_version_loads(tmp_path):
    # A later 0.x keeps the API: the fake loads (and, doing nothing, lists no effects).
    path = fake_library(tmp_path, "0.7.2", "libsegue.so.0")
    assert run_with(path)[:2] == ["0.7.2", "[]"]


def test_the_package_expects_its_own_major_version():
    assert segue.__version__ == "0.2.0" and segue._library.MAJOR == 0
    assert segue.version().split(".")[0] == "0"   # the library under test passes the check
