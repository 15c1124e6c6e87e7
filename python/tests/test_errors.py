"""Bad input raises segue.SegueError carrying Segue's message; nothing crashes the interpreter."""
import os
import subprocess
import sys

import numpy as np
import pytest

import segue
from conftest import GL_FIXTURES, frames


def raises(call, *fragments):
    with pytest.raises(segue.SegueError) as caught:
        call()
    for fragment in fragments:
        assert fragment in str(caught.value), str(caught.value)
    return str(caught.value)


def test_unknown_effect():
    raises(lambda: segue.Transition("nope"), "unknown effect 'nope'", "segue list")
    raises(lambda: segue.Effect("nope"), "unknown effect 'nope'")
    raises(lambda: segue.describe("nope"), "unknown effect 'nope'")
    raises(lambda: segue.Transition("/no/such/dir/x.glsl"), "/no/such/dir/x.glsl")


def test_effect_of_the_wrong_kind():
    raises(lambda: segue.Transition("curtain"), "curtain")


def test_bad_parameters():
    raises(lambda: segue.Transition("fade", nope=1), "effect 'fade' has no parameter 'nope'")
    raises(lambda: segue.Transition("cube", nope=1), "has no parameter 'nope'", "pop, eyeDistance")
    raises(lambda: segue.Transition("doom-melt", spread="x"), "parameter 'spread' is a float", "'x'")
    raises(lambda: segue.Transition("doom-melt", spread=(1, 2)), "parameter 'spread'", "got 2")
    raises(lambda: segue.Transition("doom-melt", spread=float("nan")), "spread")
    raises(lambda: segue.Transition("doom-melt", spread={"a": 1}), "parameter value")
    melt = segue.Transition("doom-melt")
    raises(lambda: melt.set_param("spread", "x"), "parameter 'spread' is a float")
    with pytest.raises(segue.SegueError):
        melt.duration = 0


def test_shader_that_does_not_compile_is_reported_by_the_first_render():
    t = segue.Transition(GL_FIXTURES / "syntax-error.glsl")   # parses; compiles on the first render
    a, b = frames(8, 4)
    raises(lambda: t.render(a, b, 0.5), "does not compile", "syntax-error.glsl:7: error:", "syntax error")


@pytest.mark.parametrize("shape", [(0, 5, 4), (5, 0, 4), (0, 0, 3)])
def test_zero_sized_frames(shape):
    empty = np.zeros(shape, np.uint8)
    raises(lambda: segue.Transition("fade").render(empty, empty, 0.5), "image size %dx%d is empty" % (shape[1], shape[0]))
    raises(lambda: segue.Effect("bulge").render(empty), "is empty")


def test_wrong_dtype_shape_and_type():
    a, b = frames(8, 4)
    fade = segue.Transition("fade")
    raises(lambda: fade.render(a.astype(np.float32), b, 0.5), "the from frame must be a uint8 array", "float32")
    raises(lambda: fade.render(a, b.astype(np.uint16), 0.5), "the to frame must be a uint8 array", "uint16")
    raises(lambda: fade.render(a[..., 0], b[..., 0], 0.5), "shape (height, width, 3) or (height, width, 4)", "(4, 8)")
    raises(lambda: fade.render(a[..., :2], b[..., :2], 0.5), "(4, 8, 2)")
    raises(lambda: fade.render(a.tolist(), b, 0.5), "must be a NumPy array", "list")
    raises(lambda: fade.render(a, b[:2], 0.5), "differ in shape", "(4, 8, 4)", "(2, 8, 4)")
    raises(lambda: fade.render(a, b[..., :3], 0.5), "differ in shape")
    raises(lambda: segue.Effect("bulge").render(a.astype(np.int64)), "the image must be a uint8 array")


def test_bad_progress_and_time():
    a, b = frames(8, 4)
    fade = segue.Transition("fade")
    raises(lambda: fade.render(a, b, float("nan")), "progress must be a finite number, got nan")
    raises(lambda: fade.render(a, b, 0.5, time=-1), "time")
    raises(lambda: segue.Effect("fade").render(a, float("inf")), "time")


def test_closed_handle():
    fade = segue.Transition("fade")
    fade.close()
    a, b = frames(8, 4)
    raises(lambda: fade.render(a, b, 0.5), "is closed")


def run_python(code, **environment):
    env = dict(os.environ)
    env.pop("SEGUE_LIBRARY", None)
    env.update(environment)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_missing_library_is_a_segue_error_at_first_use_not_at_import():
    # No SEGUE_LIBRARY, and neither find_library nor the dynamic linker knows a libsegue.
    code = """
import ctypes, ctypes.util
ctypes.util.find_library = lambda name: None
class NoSegue(ctypes.CDLL):
    def __init__(self, name, *args, **kwargs):
        if name and "segue" in str(name):
            raise OSError(str(name) + ": cannot open shared object file: No such file or directory")
        super().__init__(name, *args, **kwargs)
ctypes.CDLL = NoSegue
import segue
try:
    segue.effects()
except segue.SegueError as e:
    print(type(e).__name__, e)
"""
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("SegueError libsegue.so not found; install Segue (scripts/install.sh) "
                             "or set SEGUE_LIBRARY\n")


def test_segue_library_naming_a_missing_file():
    result = run_python("import segue\ntry:\n    segue.Transition('fade')\nexcept segue.SegueError as e:\n    print(e)",
                        SEGUE_LIBRARY="/nonexistent/libsegue.so")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("SEGUE_LIBRARY=/nonexistent/libsegue.so could not be loaded: ")


def test_library_found_on_the_system_library_path(tmp_path):
    # As scripts/install.sh installs it: lib/libsegue.so, found without SEGUE_LIBRARY.
    (tmp_path / "libsegue.so").symlink_to(os.environ["SEGUE_LIBRARY"])
    result = run_python("import segue\nprint(segue.version(), len(segue.effects()) > 70)",
                        LD_LIBRARY_PATH=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "0.1.0 True\n"


def test_segue_moviepy_without_moviepy_says_what_to_install():
    code = """
import sys
sys.modules["moviepy"] = None   # as if MoviePy were not installed
try:
    import segue.moviepy
except ImportError as e:
    print(e)
"""
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("segue.moviepy needs MoviePy 2: pip install 'moviepy>=2,<3'")
