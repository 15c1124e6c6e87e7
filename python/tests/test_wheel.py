"""The wheel (scripts/wheel.py) installed into a fresh virtual environment, with no SEGUE_LIBRARY
and no installed Segue: `import segue` finds the libsegue inside the package, renders what
`segue frame` renders, and refuses a library of another major version put in its place."""
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest
from PIL import Image

from test_version_check import fake_library

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

RENDER = """
    import sys
    import numpy as np, segue, segue._library as lib
    a = np.zeros((24, 32, 4), np.uint8); a[..., 0] = 200; a[..., 3] = 255
    b = np.zeros((24, 32, 4), np.uint8); b[..., 2] = 250; b[..., 3] = 255
    print(lib._loaded_path(lib.library()), file=sys.stderr)
    sys.stdout.buffer.write(segue.Transition("wipe").render(a, b, 0.4).tobytes())
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A wheel of the build's library, installed with pip into a new venv (numpy from PyPI)."""
    library = os.environ.get("SEGUE_LIBRARY")
    if not library:
        pytest.skip("SEGUE_LIBRARY (the build's libSegueC.so) is not set: run through python/run-tests.sh")
    work = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "wheel.py"), "--library", library, "--out", str(work)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    wheels = [f for f in os.listdir(work) if f.endswith(".whl")]
    assert wheels == ["segue-0.2.0-py3-none-linux_x86_64.whl"], wheels
    names = zipfile.ZipFile(os.path.join(work, wheels[0])).namelist()
    assert "segue/libsegue.so.0" in names and "segue/py.typed" in names and "segue-0.2.0.dist-info/RECORD" in names
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    # pip too sees nothing of this process's Python path (a source tree on PYTHONPATH would look
    # like segue installed already).
    pip_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    pip = subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                          os.path.join(work, wheels[0])], capture_output=True, text=True, timeout=600, env=pip_env)
    assert pip.returncode == 0, pip.stderr
    return work, python


def clean_environment(work):
    """This process's environment without any way to a libsegue but the wheel's."""
    env = {k: v for k, v in os.environ.items() if k not in ("SEGUE_LIBRARY", "PYTHONPATH", "LD_LIBRARY_PATH")}
    env["PATH"] = "/usr/bin:/bin"
    env["SEGUE_CACHE_DIR"] = str(work / "cache")
    return env


def test_the_wheel_renders_what_segue_frame_renders(installed, tmp_path):
    work, python = installed
    run = subprocess.run([python, "-c", textwrap.dedent(RENDER)], capture_output=True, timeout=300, cwd=str(tmp_path),
                         env=clean_environment(work))
    assert run.returncode == 0, run.stderr.decode()
    loaded = run.stderr.decode().strip().splitlines()[-1]
    assert loaded.startswith(str(work / "venv")) and loaded.endswith("/segue/libsegue.so.0"), loaded
    frame = np.frombuffer(run.stdout, np.uint8).reshape(24, 32, 4)
    # The same frame from the CLI, on the same inputs as PNG files.
    a = np.zeros((24, 32, 4), np.uint8); a[..., 0] = 200; a[..., 3] = 255
    b = np.zeros((24, 32, 4), np.uint8); b[..., 2] = 250; b[..., 3] = 255
    Image.fromarray(a).save(tmp_path / "a.png")
    Image.fromarray(b).save(tmp_path / "b.png")
    cli = subprocess.run([shutil.which("segue"), "frame", "--from", str(tmp_path / "a.png"), "--to", str(tmp_path / "b.png"),
                          "--effect", "wipe", "--progress", "0.4", "-o", str(tmp_path / "mid.png")], capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    expected = np.asarray(Image.open(tmp_path / "mid.png").convert("RGBA"))
    assert np.array_equal(frame, expected)
    assert 0 < (frame[..., 2] > 200).mean() < 1, "the wipe is part-way"


def test_the_wheel_refuses_a_library_of_another_major_version(installed, tmp_path):
    work, python = installed
    package = subprocess.run([python, "-c", "import os, segue; print(os.path.dirname(segue.__file__))"], capture_output=True,
                             text=True, env=clean_environment(work)).stdout.strip()
    bundled = os.path.join(package, "libsegue.so.0")
    saved = str(tmp_path / "saved.so")
    shutil.copy2(bundled, saved)
    try:
        shutil.copy2(fake_library(tmp_path, "1.0.0", "libsegue.so.0"), bundled)
        run = subprocess.run([python, "-c", "import segue; segue.Transition('fade')"], capture_output=True, text=True,
                             timeout=120, env=clean_environment(work))
        assert run.returncode != 0
        assert "is Segue 1.0.0" in run.stderr and "0.2.0" in run.stderr and bundled in run.stderr, run.stderr
    finally:
        shutil.copy2(saved, bundled)
