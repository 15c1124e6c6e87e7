"""Exceptions as Python users expect them: TypeError and ValueError for arguments of the wrong type
or out of range, and a SegueError subclass for each segue_code (segue_error_code), produced here by
real bad calls; every one is still a segue.SegueError, with Segue's message unchanged."""
import ctypes
import math
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import segue
import segue._library
from conftest import GL_FIXTURES, frames
from segue import ErrorCode
from segue._render import parameter_text

SUBCLASSES = {
    ErrorCode.INVALID_ARGUMENT: (segue.InvalidArgumentError, ValueError),
    ErrorCode.UNKNOWN_EFFECT: (segue.UnknownEffectError, None),
    ErrorCode.BAD_EFFECT_FILE: (segue.EffectFileError, None),
    ErrorCode.COMPILE: (segue.ShaderCompileError, None),
    ErrorCode.UNSUPPORTED: (segue.UnsupportedEffectError, None),
    ErrorCode.OUT_OF_MEMORY: (segue.OutOfMemoryError, MemoryError),
    ErrorCode.DEVICE_LOST: (segue.DeviceLostError, None),
    ErrorCode.NO_DEVICE: (segue.NoDeviceError, None),
    ErrorCode.IO: (segue.SegueIOError, OSError),
    ErrorCode.BUSY: (segue.BusyError, None),
    ErrorCode.FORKED: (segue.ForkedError, None),
}


def caught(call, error, code, *fragments):
    """Runs `call`, which must raise `error` (a SegueError subclass) with `code` and a message
    holding every fragment; returns the exception."""
    with pytest.raises(error) as info:
        call()
    e = info.value
    assert type(e) is error, "%s raised %s, not %s" % (e, type(e).__name__, error.__name__)
    assert isinstance(e, segue.SegueError)
    assert e.code == code and type(e.code) is ErrorCode
    for fragment in fragments:
        assert fragment in str(e), str(e)
    return e


# MARK: - The error codes and their classes


def test_error_code_mirrors_segue_code():
    assert [(c.name, int(c)) for c in ErrorCode] == [
        ("OK", 0), ("INVALID_ARGUMENT", 1), ("UNKNOWN_EFFECT", 2), ("BAD_EFFECT_FILE", 3), ("COMPILE", 4),
        ("UNSUPPORTED", 5), ("OUT_OF_MEMORY", 6), ("DEVICE_LOST", 7), ("NO_DEVICE", 8), ("IO", 9),
        ("BUSY", 10), ("FORKED", 11), ("INTERNAL", 12)]


def test_each_code_has_its_class_and_the_builtin_exception_it_also_is():
    for code, (cls, builtin) in SUBCLASSES.items():
        assert segue._library.error_class(code) is cls and cls.code == code
        assert issubclass(cls, segue.SegueError) and cls.__module__ == "segue"
        assert cls.__name__ in segue.__all__ and getattr(segue, cls.__name__) is cls
        if builtin is not None:
            assert issubclass(cls, builtin)
    assert issubclass(segue.InvalidArgumentTypeError, TypeError)
    assert issubclass(segue.InvalidArgumentTypeError, segue.SegueError)
    assert segue.InvalidArgumentTypeError.code == ErrorCode.INVALID_ARGUMENT
    # Internal, and codes a later library may add, are plain SegueError.
    for code in (ErrorCode.INTERNAL, 13, 99, -1):
        assert segue._library.error_class(code) is segue.SegueError
    assert segue.SegueError.code == ErrorCode.INTERNAL


def test_exceptions_survive_pickling_as_multiprocessing_and_dask_carry_them():
    for cls in [segue.SegueError, segue.InvalidArgumentTypeError] + [c for c, _ in SUBCLASSES.values()]:
        e = pickle.loads(pickle.dumps(cls("what went wrong")))
        assert type(e) is cls and str(e) == "what went wrong" and e.code == cls.code


def raw_error(create):
    """The message and code of the error the C function `create(error_pointer)` reports, read with
    ctypes here (not through the package)."""
    lib = segue._library.library()
    error = ctypes.c_void_p()
    assert not create(ctypes.byref(error))
    try:
        return segue._library.text(lib.segue_error_message(error)), lib.segue_error_code(error)
    finally:
        lib.segue_error_free(error)


def test_messages_are_the_librarys_unchanged():
    lib = segue._library.library()
    message, code = raw_error(lambda e: lib.segue_info_create(b"no-such-effect", e))
    assert code == ErrorCode.UNKNOWN_EFFECT
    e = caught(lambda: segue.describe("no-such-effect"), segue.UnknownEffectError, ErrorCode.UNKNOWN_EFFECT)
    assert str(e) == message and e.args == (message,)


# MARK: - Each reachable code, from a real bad call


def test_invalid_argument():
    a, b = frames(8, 4)
    e = caught(lambda: segue.Transition("fade", nope=1), segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT,
               "has no parameter 'nope'")
    assert isinstance(e, ValueError)
    melt = segue.Transition("doom-melt")
    caught(lambda: melt.set_param("spread", "x"), segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT,
           "parameter 'spread' is a float")
    caught(lambda: setattr(melt, "duration", -1), segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT,
           "duration", "-1")
    empty = np.zeros((0, 4, 4), np.uint8)
    caught(lambda: melt.render(empty, empty, 0.5), segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT,
           "is empty")
    with pytest.raises(ValueError):   # as plain Python code catches it
        melt.set_param("nope", 1)
    assert melt.render(a, b, 0.5).shape == a.shape   # the object still works after them


def test_unknown_effect():
    for make in (segue.Transition, segue.Effect, segue.describe):
        caught(lambda: make("no-such-effect"), segue.UnknownEffectError, ErrorCode.UNKNOWN_EFFECT,
               "unknown effect 'no-such-effect'")


def test_bad_effect_file(tmp_path):
    for make in (segue.Transition, segue.Effect, segue.describe):
        caught(lambda: make(tmp_path / "missing.glsl"), segue.EffectFileError, ErrorCode.BAD_EFFECT_FILE,
               str(tmp_path / "missing.glsl"))
    malformed = tmp_path / "malformed.glsl"
    malformed.write_text("uniform float amount; // = abc\n"
                         "vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }\n")
    caught(lambda: segue.Transition(malformed), segue.EffectFileError, ErrorCode.BAD_EFFECT_FILE,
           "invalid default 'abc'")
    caught(lambda: segue.Transition(GL_FIXTURES / "unknown-type.glsl"), segue.EffectFileError,
           ErrorCode.BAD_EFFECT_FILE, "unknown parameter type 'float3'")


def test_shader_compile_error():
    t = segue.Transition(GL_FIXTURES / "syntax-error.glsl")   # parses; compiles on the first render
    a, b = frames(8, 4)
    caught(lambda: t.render(a, b, 0.5), segue.ShaderCompileError, ErrorCode.COMPILE,
           "does not compile", "syntax-error.glsl:7: error:")


def test_unsupported_effect():
    e = caught(lambda: segue.Transition("curtain"), segue.UnsupportedEffectError, ErrorCode.UNSUPPORTED,
               "'curtain' is a mesh effect on one image")
    assert str(e).endswith("create it with segue.Effect"), str(e)
    caught(lambda: segue.Effect("cube"), segue.UnsupportedEffectError, ErrorCode.UNSUPPORTED,
           "'cube' is a mesh transition")


def test_io_error_for_an_image_parameter(tmp_path):
    luma = segue.Transition(GL_FIXTURES / "luma-mask.glsl")
    missing = str(tmp_path / "no-such.png")
    e = caught(lambda: luma.set_param("luma", missing), segue.SegueIOError, ErrorCode.IO, missing)
    assert isinstance(e, OSError) and e.errno is None and str(e).startswith(missing)
    with pytest.raises(OSError):
        segue.Transition(GL_FIXTURES / "luma-mask.glsl", luma=missing)


def run_python(code, **environment):
    """`code` in a new interpreter with these environment variables added (this process's stay as
    they are)."""
    env = dict(os.environ)
    env.update(environment)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                          timeout=120)


# 512×512 frames: with a 1 ns limit, uploading and drawing them never finishes in time on any
# device (a frame of a few pixels might, on a fast one).
REPORT = """
    import numpy as np, segue
    a = np.zeros((512, 512, 4), np.uint8)
    for attempt in range(2):
        try:
            segue.Transition("fade").render(a, a, 0.5)
            print("rendered")
        except segue.SegueError as e:
            print(type(e).__name__, int(e.code), e)
"""


def test_device_lost_when_the_gpu_does_not_finish_in_time():
    # Every wait for the GPU times out: the render fails, and so does every later one (in a new
    # transition too: the process's context is lost).
    result = run_python(REPORT, SEGUE_GPU_TIMEOUT="0.000000001")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2, result.stdout
    for line in lines:
        assert line.startswith("DeviceLostError 7 the GPU did not finish rendering 'fade'"), line


RECOVER = """
    import os, sys
    import numpy as np, segue
    a = (np.arange(512 * 512 * 4) % 251).astype(np.uint8).reshape(512, 512, 4)
    b = 255 - a
    fade = segue.Transition("fade")
    try:
        fade.render(a, b, 0.5)
        print("rendered with a 1 ns limit")
    except segue.DeviceLostError as e:
        print("lost:", e)
    # The limit is read when a context is made: the object makes a new context and handle.
    os.environ["SEGUE_GPU_TIMEOUT"] = "60"
    sys.stdout.buffer.write(fade.render(a, b, 0.5).tobytes())
"""


def test_after_a_lost_device_the_same_object_renders_on_a_new_context():
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(RECOVER)], capture_output=True, timeout=120,
                            env=dict(os.environ, SEGUE_GPU_TIMEOUT="0.000000001"))
    assert result.returncode == 0, result.stderr.decode()
    head, _, pixels = result.stdout.partition(b"\n")
    assert head.startswith(b"lost: the GPU did not finish rendering 'fade'"), head
    a = (np.arange(512 * 512 * 4) % 251).astype(np.uint8).reshape(512, 512, 4)
    expected = segue.Transition("fade").render(a, 255 - a, 0.5)
    assert pixels == expected.tobytes()


def test_no_device_for_a_selector_that_matches_none():
    result = run_python(REPORT, SEGUE_DEVICE="no-such-device-xyz")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2, result.stdout
    for line in lines:
        assert line.startswith("NoDeviceError 8 SEGUE_DEVICE=no-such-device-xyz: no Vulkan device name contains"), line


def test_busy_when_two_threads_render_with_one_handle_at_once():
    # Unreachable through the objects (each takes its lock around a render, so a second thread
    # waits); the C handle of one, rendered with from two threads at once, reports BUSY.
    import threading
    from segue._render import _address
    lib = segue._library.library()
    t = segue.Transition("fade")
    with t._lock_here():
        handle = t._live()
    width = height = 512
    a, b = frames(width, height)
    outs = [np.empty_like(a) for _ in range(2)]
    stop = threading.Event()
    seen = []

    def render(k):
        while not stop.is_set():
            try:
                segue._library.call(lib.segue_transition_render, handle, _address(a), _address(b), width, height,
                                    width * 4, 0.5, 0.5, _address(outs[k]))
            except segue.SegueError as e:
                seen.append(e)
                stop.set()

    threads = [threading.Thread(target=render, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    stop.wait(60)
    stop.set()
    for thread in threads:
        thread.join()
    assert seen, "two threads rendering with one handle for 60 s never met"
    assert type(seen[0]) is segue.BusyError and seen[0].code == ErrorCode.BUSY, seen[0]
    assert "in use by another thread" in str(seen[0])
    assert np.array_equal(t.render(a, b, 1.0), b)   # the object renders after it


def test_forked_for_a_parents_handle_used_in_a_child():
    # Unreachable through the objects (they make new handles in a child); the parent's C handle,
    # used in a child, reports FORKED at once.
    code = """
        import os, segue, segue._library
        t = segue.Transition("fade")
        handle = t._live()
        lib = segue._library.library()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                segue._library.call(lib.segue_transition_set_duration, handle, 2.0)
                report = "no error"
            except segue.SegueError as e:
                report = "%s %d %s" % (type(e).__name__, e.code, e)
            os.write(write, report.encode())
            os._exit(0)
        os.close(write)
        os.waitpid(pid, 0)
        print(os.read(read, 4096).decode())
        print(t.duration)   # the parent's handle still works
    """
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    report, duration = result.stdout.splitlines()
    assert report.startswith("ForkedError 11 the transition was created in process "), report
    assert "fork()" in report and duration == "1.0"


@pytest.mark.parametrize("code, cls", [(ErrorCode.OUT_OF_MEMORY, segue.OutOfMemoryError),
                                       (ErrorCode.INTERNAL, segue.SegueError), (13, segue.SegueError),
                                       (1000, segue.SegueError)])
def test_codes_no_call_can_produce_map_too(monkeypatch, code, cls):
    # Out of memory and internal errors are not reachable on purpose, and codes above 12 come
    # from later libraries: the library's answer is replaced for a real failure.
    lib = segue._library.library()
    monkeypatch.setattr(lib, "segue_error_code", lambda error: int(code))
    e = caught(lambda: segue.describe("no-such-effect"), cls,
               ErrorCode.INTERNAL if cls is segue.SegueError else code, "unknown effect 'no-such-effect'")
    if cls is segue.OutOfMemoryError:
        assert isinstance(e, MemoryError)


# MARK: - TypeError and ValueError for arguments (also SegueError, as they were)


def test_frames_of_the_wrong_type_or_dtype_are_type_errors():
    a, b = frames(8, 4)
    fade = segue.Transition("fade")
    bulge = segue.Effect("bulge")
    for call, fragments in [
        (lambda: fade.render(a.tolist(), b, 0.5), ("the from frame must be a NumPy array", "list")),
        (lambda: fade.render(a, None, 0.5), ("the to frame must be a NumPy array", "NoneType")),
        (lambda: bulge.render(memoryview(a)), ("the image must be a NumPy array", "memoryview")),
        (lambda: fade.render(a.astype(np.float32), b, 0.5), ("the from frame must be a uint8 array", "float32")),
        (lambda: fade.render(a, b.astype(np.uint16), 0.5), ("the to frame must be a uint8 array", "uint16")),
        (lambda: bulge.render(a.astype(np.int64)), ("the image must be a uint8 array", "int64")),
    ]:
        e = caught(call, segue.InvalidArgumentTypeError, ErrorCode.INVALID_ARGUMENT, *fragments)
        assert isinstance(e, TypeError) and not isinstance(e, ValueError)


def test_frames_of_the_wrong_shape_are_value_errors():
    a, b = frames(8, 4)
    fade = segue.Transition("fade")
    for call, fragments in [
        (lambda: fade.render(a[..., 0], b[..., 0], 0.5), ("shape (height, width, 3) or (height, width, 4)", "(4, 8)")),
        (lambda: fade.render(a[..., :2], b[..., :2], 0.5), ("(4, 8, 2)",)),
        (lambda: fade.render(a[None], b[None], 0.5), ("(1, 4, 8, 4)",)),
        (lambda: segue.Effect("bulge").render(a[..., :1]), ("the image must have shape", "(4, 8, 1)")),
        (lambda: fade.render(a, b[:2], 0.5), ("the from and to frames differ in shape", "(4, 8, 4) and (2, 8, 4)")),
        (lambda: fade.render(a, b[..., :3], 0.5), ("differ in shape",)),
    ]:
        e = caught(call, segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT, *fragments)
        assert isinstance(e, ValueError) and not isinstance(e, TypeError)


def test_progress_time_and_duration_out_of_range_are_value_errors():
    a, b = frames(8, 4)
    fade = segue.Transition("fade")
    effect = segue.Effect("fade")
    for call, fragments in [
        (lambda: fade.render(a, b, float("nan")), ("progress must be a finite number, got NaN",)),
        (lambda: fade.render(a, b, math.inf), ("progress", "inf")),
        (lambda: fade.render(a, b, -math.inf, time=0.1), ("progress", "inf")),
        (lambda: fade.render(a, b, np.float32("nan")), ("progress", "NaN")),
        (lambda: fade.render(a, b, 0.5, time=-1), ("time", "-1")),
        (lambda: fade.render(a, b, 0.5, time=math.nan), ("time", "NaN")),
        (lambda: fade.render(a, b, 0.5, time=math.inf), ("time", "inf")),
        (lambda: fade.render(a, b, 0.5, time=10 ** 400), ("time must be a finite number",)),
        (lambda: effect.render(a, -0.5), ("time", "-0.5")),
        (lambda: effect.render(a, math.inf), ("time", "inf")),
        (lambda: setattr(fade, "duration", 0), ("duration", "> 0")),
        (lambda: setattr(fade, "duration", -2), ("duration", "-2")),
        (lambda: setattr(fade, "duration", math.nan), ("duration", "NaN")),
        (lambda: setattr(effect, "duration", math.inf), ("duration", "inf")),
    ]:
        e = caught(call, segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT, *fragments)
        assert isinstance(e, ValueError)
    assert fade.duration == 1.0 and effect.duration == 1.0   # kept


def test_progress_time_and_duration_that_are_not_numbers_are_type_errors():
    a, b = frames(8, 4)
    fade = segue.Transition("fade")
    for call, fragments in [
        (lambda: fade.render(a, b, "0.5"), ("progress must be a number, not str",)),
        (lambda: fade.render(a, b, None), ("progress must be a number, not NoneType",)),
        (lambda: fade.render(a, b, 0.5, time=b"1"), ("time must be a number, not bytes",)),
        (lambda: fade.render(a, b, 0.5, time=[1]), ("time must be a number, not list",)),
        (lambda: segue.Effect("bulge").render(a, "1"), ("time must be a number, not str",)),
        (lambda: setattr(fade, "duration", "2"), ("the duration must be a number, not str",)),
        (lambda: setattr(fade, "duration", None), ("the duration must be a number",)),
    ]:
        e = caught(call, segue.InvalidArgumentTypeError, ErrorCode.INVALID_ARGUMENT, *fragments)
        assert isinstance(e, TypeError)
    # Numbers of every kind still work: ints, NumPy scalars and 0-d arrays.
    assert np.array_equal(fade.render(a, b, 1), b)
    assert np.array_equal(fade.render(a, b, np.float32(0.0), time=np.int64(0)), a)
    fade.duration = np.float64(2)
    assert fade.duration == 2.0


def test_parameter_values_without_a_text_form_are_type_errors():
    e = caught(lambda: parameter_text(object()), segue.InvalidArgumentTypeError, ErrorCode.INVALID_ARGUMENT,
               "parameter value", "object")
    assert isinstance(e, TypeError)
    caught(lambda: parameter_text((1, "a")), segue.InvalidArgumentTypeError, ErrorCode.INVALID_ARGUMENT,
           "components must be numbers or bools", "str")
    caught(lambda: segue.Transition("doom-melt", spread={"a": 1}), segue.InvalidArgumentTypeError,
           ErrorCode.INVALID_ARGUMENT, "parameter value")


def test_a_closed_object_is_a_value_error():
    fade = segue.Transition("fade")
    fade.close()
    a, b = frames(8, 4)
    caught(lambda: fade.render(a, b, 0.5), segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT,
           "the transition 'fade' is closed")


def test_moviepy_arguments_are_type_and_value_errors():
    import segue.moviepy
    from moviepy import ColorClip
    clips = [ColorClip((8, 4), color=(255, 0, 0), duration=1).with_fps(5),
             ColorClip((8, 4), color=(0, 0, 255), duration=1).with_fps(5)]
    small = ColorClip((4, 4), color=(0, 255, 0), duration=1)
    for call, fragments in [
        (lambda: segue.moviepy.concatenate([]), ("at least one clip",)),
        (lambda: segue.moviepy.concatenate(clips, "fade", -1), ("duration must be a finite number", "-1")),
        (lambda: segue.moviepy.concatenate(clips, "fade", math.nan), ("duration", "nan")),
        (lambda: segue.moviepy.concatenate([clips[0], small], "fade", 0.5), ("clip 2 is 4x4, clip 1 is 8x4",)),
        (lambda: segue.moviepy.concatenate(clips, "fade", 1.5), ("shorter than its transitions",)),
        (lambda: segue.moviepy.concatenate([clips[0], ColorClip((8, 4), color=(0, 0, 0))], "fade", 0.5),
         ("clip 2 has no duration",)),
    ]:
        caught(call, segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT, *fragments)
    caught(lambda: segue.moviepy.concatenate(clips, "fade", "0.5"), segue.InvalidArgumentTypeError,
           ErrorCode.INVALID_ARGUMENT, "duration must be a number, not str")
    caught(lambda: segue.moviepy.concatenate(clips, segue.Transition("doom-melt"), 0.5, spread=1),
           segue.InvalidArgumentTypeError, ErrorCode.INVALID_ARGUMENT, "give the parameters to segue.Transition")
    caught(lambda: segue.moviepy.transition(clips[0], clips[1], "no-such-effect", 0.5), segue.UnknownEffectError,
           ErrorCode.UNKNOWN_EFFECT)


def test_distributed_arguments_are_type_and_value_errors(tmp_path):
    import segue.distributed as distributed
    plan = tmp_path / "plan.json"
    plan.write_text('{"version": 1, "jobs": []}')
    out = tmp_path / "out.mp4"
    caught(lambda: distributed.run(plan, out, scheduler="tcp://127.0.0.1:1", join="elsewhere"),
           segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT, 'join must be "local" or "worker"')
    caught(lambda: distributed.run(plan, out, scheduler="tcp://127.0.0.1:1", retries=-1),
           segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT, "retries must be a whole number")
    for retries in (1.5, "2", True):
        caught(lambda: distributed.run(plan, out, scheduler="tcp://127.0.0.1:1", retries=retries),
               segue.InvalidArgumentTypeError, ErrorCode.INVALID_ARGUMENT, "retries must be a whole number")
    assert not out.exists()


# MARK: - Objects that own a GPU handle, and the context under threads


COPIES = """
    import copy, gc, pickle, sys
    import numpy as np, segue
    a = np.zeros((8, 8, 4), np.uint8); b = np.full((8, 8, 4), 255, np.uint8)
    fade, bulge = segue.Transition("fade"), segue.Effect("bulge")
    for obj in (fade, bulge):
        for how, make in (("copy", copy.copy), ("deepcopy", copy.deepcopy), ("pickle", pickle.dumps),
                          ("pickle0", lambda o: pickle.dumps(o, protocol=0)), ("in a list", lambda o: copy.deepcopy([o]))):
            try:
                made = make(obj)
                print(how, "made", repr(made))
            except TypeError as e:
                print(how, type(e).__name__, e)
    print(fade.render(a, b, 1.0)[0, 0].tolist(), bulge.render(a).shape)
    del fade, bulge
    gc.collect()
    print("end")
"""


def test_objects_owning_a_gpu_handle_cannot_be_copied_or_pickled():
    # A copy shared the C handle, and both destroyed it (a double free: SIGSEGV); pickling failed
    # on a lock, saying nothing of why. Run apart: a shared handle would crash this process.
    result = run_python(COPIES)
    assert result.returncode == 0, "exit %d: %s" % (result.returncode, result.stderr)
    lines = result.stdout.splitlines()
    assert lines[-2:] == ["[255, 255, 255, 255] (8, 8, 4)", "end"], result.stdout
    assert len(lines) == 12, result.stdout
    for line, (kind, effect) in zip(lines[:10], [("Transition", "fade")] * 5 + [("Effect", "bulge")] * 5):
        assert " TypeError segue.%s('%s') owns a GPU handle: it cannot be copied or pickled, nor sent to another " \
               "process; make a new segue.%s('%s') where it is needed" % (kind, effect, kind, effect) in line, line


LOST_IN_THREADS = """
    import sys, threading
    import numpy as np, segue
    a = np.zeros((64, 64, 4), np.uint8); b = np.full((64, 64, 4), 255, np.uint8)
    objects = [segue.Transition(name) for name in ("doom-melt", "fade", "cube", "page-curl")]
    lost, other = [], []

    def work(obj):
        for _ in range(25):
            try:
                obj.render(a, b, 0.5)
            except segue.DeviceLostError:
                lost.append(1)
            except Exception as e:
                other.append(repr(e))

    threads = [threading.Thread(target=work, args=(obj,)) for obj in objects]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(len(lost), other)
"""


@pytest.mark.parametrize("attempt", range(3))
def test_a_device_lost_in_one_thread_does_not_destroy_the_context_others_use(attempt):
    # Every wait times out (1 ns): each thread's render loses the context and makes a new one,
    # while the other threads make handles from, and render on, the one just lost. Destroying it
    # there and then crashed the process (SIGSEGV or SIGABRT, 3 runs in 3).
    result = run_python(LOST_IN_THREADS, SEGUE_GPU_TIMEOUT="0.000000001")
    assert result.returncode == 0, "exit %d: %s" % (result.returncode, result.stderr[-2000:])
    assert result.stdout == "100 []\n", result.stdout


def test_a_lost_context_is_destroyed_when_its_last_user_lets_go():
    # The module stops handing out a lost context at once; the C context goes only with the
    # last object made from it, and never in a forked child (the parent's).
    code = """
        import gc, os, numpy as np, segue, segue._library as L
        destroyed = []
        lib = L.library()
        real = lib.segue_context_destroy
        class Spy:
            def __call__(self, pointer):
                destroyed.append(pointer)
                real(pointer)
        lib.segue_context_destroy = Spy()
        a = np.zeros((512, 512, 4), np.uint8)
        fade, melt = segue.Transition("fade"), segue.Transition("doom-melt")
        first = L.context()
        try:
            fade.render(a, a, 0.5)
        except segue.DeviceLostError:
            pass
        print(L.context() is not first, destroyed == [], melt._context is first)
        pointer = first.pointer
        del first
        melt.close()
        gc.collect()
        print(destroyed == [pointer])
    """
    result = run_python(code, SEGUE_GPU_TIMEOUT="0.000000001")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "True True True\nTrue\n", result.stdout


# MARK: - Progress and time as the caller gave them


def test_a_negative_progress_without_a_time_renders_at_time_0():
    # progress × duration is negative below 0: the time the caller did not give was refused
    # ("time must be … ≥ 0, got -0.05"), though the progress is passed on as documented.
    a, b = frames(16, 8)
    for name in ("ios-push", "fade", "doom-melt"):
        t = segue.Transition(name)
        for progress in (-0.1, -3.0):
            assert np.array_equal(t.render(a, b, progress), t.render(a, b, progress, time=0)), (name, progress)
        assert t.render(a, b, 1e308).shape == a.shape       # an overshoot whose time would be infinite
    # A time the caller gives is still checked, and named.
    caught(lambda: t.render(a, b, -0.1, time=-0.05), segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT,
           "time must be a finite number of seconds ≥ 0, got -0.05")
    for bad, text in ((math.nan, "NaN"), (math.inf, "infinity"), (-math.inf, "-infinity")):
        e = caught(lambda: t.render(a, b, bad), segue.InvalidArgumentError, ErrorCode.INVALID_ARGUMENT,
                   "progress must be a finite number, got %s" % text)
        assert "time" not in str(e)


class FloatFails:
    """A number whose __float__ raises."""

    def __float__(self):
        raise RuntimeError("no value today")


class RealFails(float):
    """A numbers.Real whose __float__ raises."""

    def __float__(self):
        raise ArithmeticError("no value today")


def test_values_with_no_text_form_are_the_documented_exceptions():
    import decimal
    import fractions
    a, b = frames(8, 4)
    melt = segue.Transition("doom-melt")
    before = melt.render(a, b, 0.5)
    selfish = [0.5]
    selfish.append(selfish)
    deep = [0.5]
    for _ in range(5000):
        deep = [deep]
    for value, fragments in [
        (1j, ("parameter value 1j for 'spread' is a complex number",)),
        (np.complex64(1), ("for 'spread' is a complex number",)),     # silently 1.0 before
        (np.complex128(0.5), ("for 'spread' is a complex number",)),
        (np.array([1 + 0j]), ("for 'spread' is an array of complex numbers",)),
        ([0.5, 2j], ("for 'spread' is a complex number",)),
        (selfish, ("parameter value [0.5, [...]] for 'spread' contains itself",)),
        (deep, ("for 'spread' nests lists more than 32 deep",)),
        (RealFails(0.5), ("for 'spread' has no value as a number", "ArithmeticError: no value today")),
    ]:
        e = caught(lambda: melt.set_param("spread", value), segue.InvalidArgumentTypeError,
                   ErrorCode.INVALID_ARGUMENT, *fragments)
        assert isinstance(e, TypeError)
    # A signalling NaN is a NaN (float() raises ValueError for it); a Fraction too large for a
    # float is out of range: the library's and the package's ValueErrors.
    caught(lambda: melt.set_param("spread", decimal.Decimal("sNaN")), segue.InvalidArgumentError,
           ErrorCode.INVALID_ARGUMENT, "spread")
    caught(lambda: melt.set_param("spread", fractions.Fraction(10 ** 400)), segue.InvalidArgumentError,
           ErrorCode.INVALID_ARGUMENT, "for 'spread' is too large for a float")
    assert np.array_equal(melt.render(a, b, 0.5), before)    # the old value is kept
    melt.set_param("spread", decimal.Decimal("0.5"))
    melt.set_param("spread", fractions.Fraction(1, 2))
    # Progress, time and duration alike.
    for call, cls, fragments in [
        (lambda: melt.render(a, b, np.complex64(0.5)), segue.InvalidArgumentTypeError,
         ("progress must be a real number, not the complex",)),
        (lambda: melt.render(a, b, 0.5, time=np.array(1j)), segue.InvalidArgumentTypeError, ("time must be a real number",)),
        (lambda: melt.render(a, b, 0.5j), segue.InvalidArgumentTypeError, ("progress must be a real number",)),
        (lambda: melt.render(a, b, FloatFails()), segue.InvalidArgumentTypeError,
         ("progress must be a number: float() of FloatFails raised RuntimeError: no value today",)),
        (lambda: setattr(melt, "duration", FloatFails()), segue.InvalidArgumentTypeError, ("the duration must be a number",)),
        (lambda: melt.render(a, b, decimal.Decimal("sNaN")), segue.InvalidArgumentError,
         ("progress must be a finite number, got NaN",)),
        (lambda: melt.render(a, b, 0.5, time=decimal.Decimal("sNaN")), segue.InvalidArgumentError, ("time", "NaN")),
    ]:
        caught(call, cls, ErrorCode.INVALID_ARGUMENT, *fragments)
    assert np.array_equal(melt.render(a, b, decimal.Decimal("0.5")), melt.render(a, b, 0.5))


def test_text_with_a_lone_surrogate_is_a_value_error_naming_it():
    # No UTF-8 form: encoding it for C raised UnicodeEncodeError, naming neither the argument nor
    # what was wrong with it.
    melt = segue.Transition("doom-melt")
    for call, fragments in [
        (lambda: melt.set_param("spr\ud800ead", 1), ("a parameter name 'spr\\ud800ead' is not valid Unicode text",
                                                     "lone surrogate '\\ud800' at index 3")),
        (lambda: melt.set_param("spread", "0.5\udcff"), ("a parameter value for 'spread'", "not valid Unicode text")),
        (lambda: segue.Transition("wipe\udcff"), ("the effect 'wipe\\udcff' is not valid Unicode text",)),
        (lambda: segue.Effect("x\udcff.glsl"), ("the effect", "not valid Unicode text")),
        (lambda: segue.describe("x\udcff.glsl"), ("the effect", "not valid Unicode text")),
        (lambda: segue.Transition("doom-melt", **{"\udcff": 1}), ("a parameter name", "not valid Unicode text")),
    ]:
        with pytest.raises(ValueError) as info:
            call()
        assert type(info.value) is ValueError, type(info.value)
        for fragment in fragments:
            assert fragment in str(info.value), str(info.value)


def test_an_effect_that_needs_an_image_says_so_in_pythons_terms():
    e = caught(lambda: segue.Effect("bulge").render(size=(8, 8)), segue.InvalidArgumentError,
               ErrorCode.INVALID_ARGUMENT, "the effect 'bulge' needs an image: render(image, …)",
               "only a fill", "draws without one")
    assert "NULL" not in str(e) and "in is" not in str(e)
    caught(lambda: segue.Effect("fade").render(size=(8, 8), time=0.5), segue.InvalidArgumentError,
           ErrorCode.INVALID_ARGUMENT, "the effect 'fade' needs an image")
