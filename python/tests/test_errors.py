"""Bad input raises segue.SegueError carrying Segue's message; nothing crashes the interpreter.
Names and paths that are not text (or hold a NUL, which C would cut them at) are TypeError and
ValueError before Segue sees them."""
import ctypes.util
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import segue
from conftest import GL_FIXTURES, frames
from segue._render import parameter_text


def raises(call, *fragments):
    with pytest.raises(segue.SegueError) as caught:
        call()
    for fragment in fragments:
        assert fragment in str(caught.value), str(caught.value)
    return str(caught.value)


def test_unknown_effect():
    # The library's message names no command (a C or Python host has no `segue list`).
    assert "segue list" not in raises(lambda: segue.Transition("nope"), "unknown effect 'nope'")
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
    raises(lambda: fade.render(a, b, float("nan")), "progress must be a finite number, got NaN")
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
    assert result.stdout == "0.2.0 True\n"


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


class BytesPath:
    """An os.PathLike whose path is bytes (Segue's names and paths are text)."""

    def __fspath__(self):
        return b"fade"


def refused(call, error, *fragments):
    with pytest.raises(error) as caught:
        call()
    assert not isinstance(caught.value, segue.SegueError)
    for fragment in fragments:
        assert fragment in str(caught.value), str(caught.value)


NOT_TEXT = [b"fade", None, 3, BytesPath()]


@pytest.mark.parametrize("make", [segue.Transition, segue.Effect, segue.describe])
def test_effect_names_that_are_not_text_or_hold_a_nul_are_refused(make):
    for name in NOT_TEXT:
        refused(lambda: make(name), TypeError, "the effect must be a str or an os.PathLike")
    refused(lambda: make("fa\0de"), ValueError, "the effect 'fa\\x00de' contains a NUL character")
    refused(lambda: make(pathlib.Path("/tmp/x\0.glsl")), ValueError, "contains a NUL character")
    # Text and paths still name effects.
    assert make("fade") is not None and make(GL_FIXTURES / "all-types.glsl") is not None


def test_parameter_names_and_values_that_are_not_text_or_hold_a_nul_are_refused():
    refused(lambda: segue.Transition("doom-melt", **{"spr\0ead": 0.5}), ValueError, "a parameter name",
            "NUL character")
    refused(lambda: segue.Effect("bulge", **{"radius\0": 3}), ValueError, "NUL character")
    refused(lambda: segue.Transition("doom-melt", spread="0.5\0"), ValueError, "a parameter value",
            "NUL character")
    melt = segue.Transition("doom-melt")
    bulge = segue.Effect("bulge")
    for obj, name in ((melt, "spread"), (bulge, "radius")):
        for key in (name.encode(), None, 1, pathlib.Path(name)):
            refused(lambda: obj.set_param(key, 1), TypeError, "a parameter name must be a str")
        refused(lambda: obj.set_param(name + "\0x", 1), ValueError, "NUL character")
        refused(lambda: obj.set_param(name, "1\0"), ValueError, "NUL character")
    refused(lambda: parameter_text("#ff8800\0"), ValueError, "NUL character")
    refused(lambda: parameter_text(pathlib.Path("/tmp/image\0.png")), ValueError, "NUL character")
    refused(lambda: parameter_text(BytesPath()), TypeError, "a parameter value")
    melt.set_param("spread", 0.5)      # still set after the refusals


def test_moviepy_transition_names_that_are_not_text_or_hold_a_nul_are_refused():
    import segue.moviepy
    from moviepy import ColorClip
    clips = [ColorClip((8, 4), color=(255, 0, 0), duration=1).with_fps(5),
             ColorClip((8, 4), color=(0, 0, 255), duration=1).with_fps(5)]
    for name in (b"fade", 3, BytesPath()):
        refused(lambda: segue.moviepy.concatenate(clips, name, 0.5), TypeError,
                "the transition must be an effect name or path (str or os.PathLike), a segue.Transition or None")
        refused(lambda: segue.moviepy.transition(clips[0], clips[1], name, 0.5), TypeError, "the transition must be")
    refused(lambda: segue.moviepy.concatenate(clips, "fa\0de", 0.5), ValueError, "NUL character")
    refused(lambda: segue.moviepy.transition(clips[0], clips[1], "fa\0de", 0.5), ValueError, "NUL character")
    # Even where no transition is made (one clip, or no duration).
    refused(lambda: segue.moviepy.concatenate(clips[:1], "fa\0de", 0.5), ValueError, "NUL character")
    refused(lambda: segue.moviepy.concatenate(clips, "doom-melt", 0, **{"spr\0ead": 1}), ValueError,
            "a parameter name")
    refused(lambda: segue.moviepy.concatenate(clips, "doom-melt", 0.5, spread="1\0"), ValueError, "NUL character")
    assert segue.moviepy.concatenate(clips, pathlib.Path(GL_FIXTURES / "all-types.glsl"), 0.5).duration == 1.5


def test_distributed_paths_that_are_not_text_or_hold_a_nul_are_refused(tmp_path):
    import segue.distributed as distributed
    plan = tmp_path / "plan.json"
    plan.write_text('{"version": 1, "jobs": [{"kind": "sound", "seconds": 1}]}')
    out = tmp_path / "out.mp4"
    for bad in (b"plan.json", None, BytesPath()):
        refused(lambda: distributed.job_count(bad), TypeError, "the plan must be a str or an os.PathLike")
        refused(lambda: distributed.job_command(bad, 0), TypeError, "the plan must be")
        refused(lambda: distributed.join_command(bad, out), TypeError, "the plan must be")
        refused(lambda: distributed.run(bad, out, scheduler="tcp://127.0.0.1:1"), TypeError, "the plan must be")
        refused(lambda: distributed.run(plan, bad, scheduler="tcp://127.0.0.1:1"), TypeError, "the output must be")
        refused(lambda: distributed.join_command(plan, bad), TypeError, "the output must be")
    for bad in (b"dir", 3):
        refused(lambda: distributed.run(plan, out, scheduler="tcp://127.0.0.1:1", work_dir=bad), TypeError,
                "the work directory must be")
        refused(lambda: distributed.job_command(plan, 0, work_dir=bad), TypeError, "the work directory must be")
        refused(lambda: distributed.run(plan, out, scheduler="tcp://127.0.0.1:1", segue=bad), TypeError,
                "the segue command must be")
        refused(lambda: distributed.join_command(plan, out, segue=bad), TypeError, "the segue command must be")
    refused(lambda: distributed.run(plan, out, scheduler=b"tcp://127.0.0.1:1"), TypeError,
            "the scheduler address must be a str")
    nul = str(tmp_path / "pl\0an.json")
    refused(lambda: distributed.job_count(nul), ValueError, "the plan", "NUL character")
    refused(lambda: distributed.job_command(nul, 0), ValueError, "NUL character")
    refused(lambda: distributed.run(nul, out, scheduler="tcp://127.0.0.1:1"), ValueError, "NUL character")
    refused(lambda: distributed.run(plan, str(out) + "\0", scheduler="tcp://127.0.0.1:1"), ValueError,
            "the output", "NUL character")
    refused(lambda: distributed.run(plan, out, scheduler="tcp://127.0.0.1:1", work_dir="d\0"), ValueError,
            "the work directory", "NUL character")
    refused(lambda: distributed.run(plan, out, scheduler="tcp://127.0.0.1:1", segue="segue\0"), ValueError,
            "the segue command", "NUL character")
    refused(lambda: distributed.run(plan, out, scheduler="tcp://127.0.0.1:1\0"), ValueError,
            "the scheduler address", "NUL character")
    assert distributed.job_command(pathlib.Path("p.json"), 2, pathlib.Path("w"), pathlib.Path("/bin/segue")) == \
        ["/bin/segue", "concat", "--job", "p.json", "2", "--work-dir", "w"]
    assert not out.exists()


def test_a_library_that_is_not_segue_names_itself_and_the_missing_function():
    # A real shared library that is not Segue; loaded in a subprocess, so this one keeps its own.
    other = ctypes.util.find_library("z") or ctypes.util.find_library("c")
    assert other, "no libz or libc found to load as a wrong library"
    code = "import segue\ntry:\n    segue.version()\nexcept segue.SegueError as e:\n    print(e)"
    expected = ("the loaded library %s is not a libsegue of this version: it lacks segue_version; "
                "install a matching Segue or set SEGUE_LIBRARY to its libsegue.so\n")
    result = run_python(code, SEGUE_LIBRARY=other)
    assert result.returncode == 0, result.stderr
    assert "undefined symbol" not in result.stdout, result.stdout
    match = re.fullmatch(re.escape(expected).replace("%s", "(.+)"), result.stdout)
    assert match, result.stdout
    # A name the dynamic linker searched for reads as the file it found.
    path = match.group(1)
    assert os.path.isabs(path) and os.path.basename(path) == os.path.basename(other) and os.path.exists(path), path
    result = run_python(code, SEGUE_LIBRARY=path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected % path
