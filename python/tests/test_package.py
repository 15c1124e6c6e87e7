"""The package as Python users expect it: type hints on the public API with a py.typed marker
(in the wheel too), runnable on the oldest Python it supports; segue.moviepy and
segue.distributed imported on first use (never by `import segue`); help() that explains."""
import ast
import importlib.resources
import inspect
import os
import pathlib
import pydoc
import shutil
import subprocess
import sys
import textwrap
import typing
import zipfile

import pytest

import segue

SOURCE = pathlib.Path(segue.__file__).parent
PROJECT = pathlib.Path(__file__).resolve().parents[1]


def run_python(code):
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                            env=dict(os.environ), timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


# MARK: - Type hints


def public_callables():
    """Every function, class and public method the package exports (segue, segue.moviepy,
    segue.distributed), with its qualified name."""
    import segue.distributed
    import segue.moviepy
    for module in (segue, segue.moviepy, segue.distributed):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                yield "%s.%s" % (module.__name__, name), obj
            elif inspect.isclass(obj) and not issubclass(obj, BaseException) and obj.__module__.startswith("segue"):
                for attribute, value in inspect.getmembers(obj):
                    if attribute.startswith("_") and attribute != "__init__":
                        continue
                    if isinstance(value, property):
                        yield "%s.%s.%s" % (module.__name__, name, attribute), value.fget
                        if value.fset is not None:
                            yield "%s.%s.%s (setter)" % (module.__name__, name, attribute), value.fset
                    elif inspect.isfunction(value) and value.__module__.startswith("segue"):
                        yield "%s.%s.%s" % (module.__name__, name, attribute), value


def test_the_public_api_is_annotated_completely():
    checked = []
    for name, function in public_callables():
        hints = typing.get_type_hints(function)   # every annotation resolves at run time too
        parameters = [p for p in inspect.signature(function).parameters if p != "self"]
        missing = [p for p in parameters if p not in hints] + ([] if "return" in hints else ["return"])
        assert not missing, "%s lacks annotations for %s" % (name, ", ".join(missing))
        checked.append(name)
    for expected in ("segue.Transition.__init__", "segue.Transition.render", "segue.Transition.set_param",
                     "segue.Transition.duration", "segue.Transition.duration (setter)", "segue.Effect.render",
                     "segue.describe", "segue.effects", "segue.version", "segue.device_name",
                     "segue.moviepy.concatenate", "segue.moviepy.transition", "segue.distributed.run"):
        assert expected in checked, expected
    hints = typing.get_type_hints(segue.Transition.render)
    assert hints["a"] == segue.Frame and hints["return"] == segue.Frame
    assert typing.get_type_hints(segue.Parameter)["range"] == typing.Optional[typing.Tuple[float, float]]


def test_the_sources_run_on_python_3_9():
    # pyproject.toml says requires-python >= 3.9: no syntax of later versions, and no `X | Y`
    # annotations (typing.get_type_hints would fail on them there).
    assert 'requires-python = ">=3.9"' in (PROJECT / "pyproject.toml").read_text()
    for path in sorted(SOURCE.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path), feature_version=(3, 9))
        for node in ast.walk(tree):
            annotation = getattr(node, "annotation", None) or getattr(node, "returns", None)
            if annotation is not None:
                for part in ast.walk(annotation):
                    assert not (isinstance(part, ast.BinOp) and isinstance(part.op, ast.BitOr)), \
                        "%s:%d: an `X | Y` annotation needs Python 3.10" % (path.name, node.lineno)


def test_the_package_has_a_py_typed_marker():
    marker = importlib.resources.files("segue") / "py.typed"
    assert marker.is_file()
    assert "segue = [\"py.typed\"]" in (PROJECT / "pyproject.toml").read_text()


def test_the_wheel_carries_the_py_typed_marker(tmp_path):
    # Built from a clean copy of the project: a previous build's segue.egg-info (whose file list
    # setuptools reuses) would put py.typed in without the package data that names it.
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(PROJECT / name, project / name)
    shutil.copytree(PROJECT / "src" / "segue", project / "src" / "segue",
                    ignore=shutil.ignore_patterns("__pycache__"))
    wheels = tmp_path / "wheels"
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                             "--disable-pip-version-check", "-w", str(wheels), str(project)],
                            capture_output=True, text=True, timeout=300)
    if result.returncode != 0 and "No module named pip" in result.stderr:
        pytest.skip("no pip to build a wheel with")
    assert result.returncode == 0, result.stderr
    built = list(wheels.glob("segue-*.whl"))
    assert len(built) == 1, built
    names = zipfile.ZipFile(built[0]).namelist()
    assert "segue/py.typed" in names and "segue/__init__.py" in names, names
    metadata = zipfile.ZipFile(built[0]).read([n for n in names if n.endswith("METADATA")][0]).decode()
    assert "Classifier: Typing :: Typed" in metadata


def test_mypy_accepts_the_package_and_a_typed_user(tmp_path):
    pytest.importorskip("mypy")   # run-tests.sh installs it; elsewhere the test is skipped
    user = textwrap.dedent("""
        import numpy as np
        import segue

        def blend(a: segue.Frame, b: segue.Frame) -> segue.Frame:
            with segue.Transition("fade") as t:
                t.duration = 2
                return t.render(a, b, 0.5, time=1.0)

        try:
            frame = blend(np.zeros((4, 4, 4), np.uint8), np.zeros((4, 4, 4), np.uint8))
        except segue.UnknownEffectError as e:
            code: segue.ErrorCode = e.code
        info: segue.EffectInfo = segue.describe("fade")
        seconds: float = info.duration
    """)
    # The installed package as a user's mypy finds it (through py.typed), run outside it: run
    # inside site-packages, its typing_extensions.py would shadow the stub mypy ships.
    for target in (["-p", "segue"], ["-c", user]):
        result = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--strict",
                                 "--cache-dir", str(tmp_path / "mypy"), *target],
                                capture_output=True, text=True, timeout=600, cwd=str(tmp_path))
        assert result.returncode == 0, result.stdout + result.stderr


# MARK: - Lazy submodules


def test_importing_segue_imports_neither_moviepy_nor_dask():
    out = run_python("""
        import sys
        import segue
        assert "moviepy" not in sys.modules and "segue.moviepy" not in sys.modules, "moviepy imported by segue"
        assert "distributed" not in sys.modules and "segue.distributed" not in sys.modules
        import pydoc   # help(segue) neither imports them nor fails without MoviePy
        sys.modules["moviepy"] = None
        text = pydoc.render_doc(segue, renderer=pydoc.plaintext)
        assert "moviepy" in text and "distributed" in text, text
        assert "segue.moviepy" not in sys.modules and "distributed" not in sys.modules
        print("ok")
    """)
    assert out == "ok\n"


def test_segue_moviepy_is_imported_on_first_use():
    out = run_python("""
        import sys
        import segue
        assert "moviepy" not in sys.modules
        concatenate = segue.moviepy.concatenate          # no `import segue.moviepy`
        assert "moviepy" in sys.modules and segue.moviepy is sys.modules["segue.moviepy"]
        from moviepy import ColorClip
        clip = ColorClip((8, 4), color=(255, 0, 0), duration=1).with_fps(5)
        print(concatenate([clip, clip], "fade", 0.5).duration)
    """)
    assert out == "1.5\n"


def test_segue_moviepy_imports_as_before():
    out = run_python("""
        import segue.moviepy
        from segue import moviepy
        from segue.moviepy import transition
        import segue
        assert moviepy is segue.moviepy and transition is segue.moviepy.transition
        print("ok")
    """)
    assert out == "ok\n"


def test_segue_distributed_is_imported_on_first_use_without_dask():
    out = run_python("""
        import sys
        import segue
        command = segue.distributed.job_command("plan.json", 3)
        assert segue.distributed is sys.modules["segue.distributed"]
        assert "distributed" not in sys.modules, "Dask imported before a run"
        print(command)
    """)
    assert out == "['segue', 'concat', '--job', 'plan.json', '3']\n"


def test_segue_moviepy_without_moviepy_says_what_to_install_on_first_use():
    out = run_python("""
        import sys
        sys.modules["moviepy"] = None   # as if MoviePy were not installed
        import segue
        try:
            segue.moviepy
        except ImportError as e:
            print(e)
    """)
    assert out.startswith("segue.moviepy needs MoviePy 2: pip install 'moviepy>=2,<3'")


def test_other_attributes_are_still_attribute_errors():
    with pytest.raises(AttributeError, match="module 'segue' has no attribute 'nope'"):
        segue.nope
    assert not hasattr(segue, "numpy") and not hasattr(segue, "_render_not_there")


# MARK: - help()


def test_help_explains_transition():
    text = pydoc.render_doc(segue.Transition, renderer=pydoc.plaintext)
    for phrase in [
        "A transition between two frames",                        # the class
        "Transition(\"doom-melt\", spread=0.5)",
        "__init__(self, effect: ",                                 # __init__, with its types
        "with\n |      each keyword argument set as a parameter",
        "UnknownEffectError for an unknown name",
        "UnsupportedEffectError for an effect on one image",
        "render(self, a: ",                                        # render
        "-> 'Frame'",
        "progress × duration",
        "InvalidArgumentTypeError (a TypeError)",
        "a progress\n |      that is NaN or infinite",
        "ShaderCompileError",
        "set_param(self, name: 'str', value: 'ParamValue') -> 'None'",   # set_param
        "Sets parameter `name` to `value`",
        "SegueIOError (an OSError)",
        "duration\n |      The effect's duration in seconds",              # the property
        "finite\n |      number of seconds > 0",
        "close(self) -> 'None'",
    ]:
        assert phrase in text, "help(segue.Transition) lacks %r:\n%s" % (phrase, text)


def test_help_explains_effect_and_the_exceptions():
    text = pydoc.render_doc(segue.Effect, renderer=pydoc.plaintext)
    for phrase in ["An effect on one frame",
                   "render(self, image: 'Optional[Frame]' = None, time: 'float' = 0.0, size: 'Optional[Tuple[int, int]]' = None) -> 'Frame'",
                   "UnsupportedEffectError for a mesh transition", "progress is time / duration", "render(size=(width, height), time=t)"]:
        assert phrase in text, phrase
    text = pydoc.render_doc(segue, renderer=pydoc.plaintext)
    for phrase in ["class ErrorCode", "class SegueIOError(SegueError, builtins.OSError)",
                   "class InvalidArgumentError(SegueError, builtins.ValueError)", "imported on first use"]:
        assert phrase in text, phrase
    for name in segue.__all__:
        obj = getattr(segue, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert inspect.getdoc(obj), "segue.%s has no docstring" % name
