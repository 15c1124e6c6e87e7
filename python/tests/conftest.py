"""Shared helpers of the Python binding's tests: test frames, PNG files and the `segue` CLI of the
same build (found on PATH, as python/run-tests.sh sets it) for reference frames."""
import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
GL_FIXTURES = REPOSITORY / "Tests" / "Fixtures" / "gl-transitions"


def frames(width=40, height=24, translucent=False):
    """Two RGBA frames with gradients and edges (so transitions and meshes move visible detail);
    with `translucent`, alpha varies across the first."""
    y, x = np.mgrid[0:height, 0:width]
    a = np.stack([(x * 255 // max(width - 1, 1)), (y * 255 // max(height - 1, 1)),
                  ((x // 5 + y // 5) % 2) * 200 + 30, np.full_like(x, 255)], axis=-1).astype(np.uint8)
    b = np.stack([255 - (y * 255 // max(height - 1, 1)), np.full_like(x, 90), (x * 7 % 256),
                  np.full_like(x, 255)], axis=-1).astype(np.uint8)
    if translucent:
        a[..., 3] = (60 + x * 190 // max(width - 1, 1)).astype(np.uint8)
    return a, b


def write_png(path, array):
    Image.fromarray(np.ascontiguousarray(array)).save(path)
    return str(path)


def read_png(path):
    return np.asarray(Image.open(path).convert("RGBA"))


def largest_difference(ours, reference):
    """The largest per-channel difference and where ((y, x, channel))."""
    d = np.abs(ours.astype(np.int16) - reference.astype(np.int16))
    where = np.unravel_index(int(np.argmax(d)), d.shape)
    return int(d.max()), where


@pytest.fixture(scope="session")
def segue_cli():
    """The `segue` binary that belongs to the library under test."""
    path = shutil.which("segue")
    if path is None:
        pytest.fail("the segue CLI is not on PATH (python/run-tests.sh puts the build's there)")
    return path


@pytest.fixture
def cli(segue_cli, tmp_path):
    """Runs `segue ARGS…`; returns the PNG it wrote to `out.png` in tmp_path as RGBA."""
    def run(*args):
        out = tmp_path / "cli-out.png"
        result = subprocess.run([segue_cli, *map(str, args), "-o", str(out)], capture_output=True, text=True,
                                timeout=300, env=dict(os.environ))
        assert result.returncode == 0, "segue %s: %s" % (" ".join(map(str, args)), result.stderr)
        return read_png(out)
    return run
