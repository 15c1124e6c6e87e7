"""Transitions and effects on NumPy frames: `Transition` and `Effect`.

Frames are ``uint8`` arrays of shape (height, width, 4) (RGBA, straight alpha) or
(height, width, 3) (RGB: rendered as opaque RGBA; the result is composited over black, as Segue
writes frames to formats without alpha). A render returns a new array of the input's shape.
"""
from __future__ import annotations

import math
import numbers
import os
import threading
from typing import Any, Dict, Optional, Sequence, Tuple, TypeVar, Union

import numpy as np
import numpy.typing as npt

from ._library import (DeviceLostError, InvalidArgumentError, InvalidArgumentTypeError, call, context,
                       forget_context, library, name_text, path_text)

__all__ = ["Transition", "Effect", "Frame", "ParamValue", "parameter_text", "array_parameter_text", "ARRAY_TYPES"]

#: A frame: a uint8 array of shape (height, width, 4) (RGBA, straight alpha) or (height, width, 3).
Frame = npt.NDArray[np.uint8]

#: A parameter's value: a number or bool, a sequence or array of them (vectors; matrices
#: column-major; array arguments), bytes (a data argument), or text as the command line takes it
#: ("#ff8800", "0.5", an image path, "0.1,0.5,0.9", "@file.bin").
ParamValue = Union[str, os.PathLike[str], float, bool, bytes, bytearray, memoryview, np.generic, npt.NDArray[Any],
                   Sequence[Any]]

#: The array types of stitchable arguments (SwiftUI's floatArray, colorArray, data) as
#: `segue.describe` spells them.
ARRAY_TYPES = ("float[]", "color[]", "bytes")


def array_parameter_text(value: ParamValue, type_name: str, name: str) -> str:
    """A value for an array argument (`type_name` one of ARRAY_TYPES) in the C API's text form.

    ``float[]``: a sequence or 1-D array of numbers; ``color[]``: a sequence of colours (each
    "#rrggbb[aa]" or 4 numbers r,g,b,a as the shader reads them) or an (n, 4) array, flattened
    row by row; ``bytes``: bytes, bytearray or memoryview, a NumPy array (its bytes, C order, as
    Swift's Data of an array is: a float32 array gives 4 bytes per float) or a sequence of ints
    0…255. Text is passed on unchanged (the C API's forms: "0.1,0.5", "@file.bin", "0x00ff").
    Raises InvalidArgumentTypeError (a TypeError) for a value of another kind and
    InvalidArgumentError (a ValueError) for an array of the wrong shape; lengths and values are
    the library's to check."""
    if isinstance(value, (str, os.PathLike)):
        return path_text(value, "a parameter value")
    if type_name == "bytes":
        if isinstance(value, (bytes, bytearray, memoryview)):
            data = bytes(value)
        elif isinstance(value, np.ndarray):
            data = np.ascontiguousarray(value).tobytes()
        elif isinstance(value, (tuple, list)):
            return parameter_text(value)
        else:
            raise InvalidArgumentTypeError("parameter '%s' takes bytes, a NumPy array or a list of ints 0-255, not %s"
                                           % (name, type(value).__name__))
        return "0x" + data.hex() if data else ""
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise InvalidArgumentTypeError("parameter '%s' is a %s: give numbers, not bytes" % (name, type_name))
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            raise InvalidArgumentTypeError("parameter '%s': an array of numbers, not of %s" % (name, value.dtype))
        if type_name == "color[]":
            if value.ndim not in (1, 2) or (value.ndim == 2 and value.shape[1] != 4):
                raise InvalidArgumentError("parameter '%s' takes colours: an array of shape (n, 4), got %s"
                                           % (name, value.shape))
        elif value.ndim != 1:
            raise InvalidArgumentError("parameter '%s' takes a 1-D array of floats, got shape %s" % (name, value.shape))
        return ",".join(_number(v) for v in value.astype(np.float64).ravel(order="C").tolist())
    if isinstance(value, (tuple, list)):
        parts = []
        for item in value:
            if type_name == "color[]" and isinstance(item, str):
                parts.append(item)
            elif isinstance(item, (tuple, list, np.ndarray)) and type_name == "color[]":
                parts.append(parameter_text(item))
            elif isinstance(item, (numbers.Number, np.bool_)) and not isinstance(item, (bool, np.bool_)):
                parts.append(_number(item))
            else:
                raise InvalidArgumentTypeError("parameter '%s': items must be numbers%s, not %s"
                                               % (name, " or colours" if type_name == "color[]" else "", type(item).__name__))
        return ",".join(parts)
    raise InvalidArgumentTypeError("parameter '%s' is a %s: give a list or array, not %s" % (name, type_name, type(value).__name__))


def _number(value: Any) -> str:
    """A finite or non-finite number as the C API reads it (repr keeps every digit)."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    return repr(float(value))


def parameter_text(value: ParamValue) -> str:
    """A Python value in the C API's text form: numbers as they are, bools as true/false,
    tuples, lists and arrays as "a,b,c" (matrices flattened column-major as given), strings
    (``"#ff8800"``, ``"0.5"``, an image path) and paths unchanged (ValueError when they hold a NUL
    character, which C would cut them at). Raises InvalidArgumentTypeError (a TypeError and a
    SegueError) for a value of another type."""
    if isinstance(value, (str, os.PathLike)):
        return path_text(value, "a parameter value")
    if isinstance(value, (numbers.Number, np.bool_)):
        return _number(value)
    if isinstance(value, np.ndarray):
        value = value.ravel(order="F").tolist()
    if isinstance(value, (tuple, list)):
        flat = []
        for item in value:
            if isinstance(item, (tuple, list, np.ndarray)):
                flat.extend(parameter_text(item).split(","))
            elif isinstance(item, (numbers.Number, np.bool_)):
                flat.append(_number(item))
            else:
                raise InvalidArgumentTypeError("parameter value %r: components must be numbers or bools, not %s"
                                               % (value, type(item).__name__))
        return ",".join(flat)
    raise InvalidArgumentTypeError("parameter value %r: use a number, a bool, a tuple of numbers or a string, "
                                   "not %s" % (value, type(value).__name__))


def _real(value: Any, what: str) -> float:
    """`value` as a float: InvalidArgumentTypeError unless it is a number (text is refused, though
    float() would read it). Whether it is finite and in range is the library's to check."""
    if not isinstance(value, (str, bytes, bytearray)):
        try:
            return float(value)
        except OverflowError:
            raise InvalidArgumentError("%s must be a finite number, got %r" % (what, value)) from None
        except TypeError:
            pass
    raise InvalidArgumentTypeError("%s must be a number, not %s" % (what, type(value).__name__))


def _frame(array: Any, what: str) -> Tuple[Frame, int]:
    """`array` as a C-contiguous (h, w, 4) uint8 frame and its channel count (3 or 4)."""
    if not isinstance(array, np.ndarray):
        raise InvalidArgumentTypeError("%s must be a NumPy array, got %s" % (what, type(array).__name__))
    if array.dtype != np.uint8:
        raise InvalidArgumentTypeError("%s must be a uint8 array (0…255), got dtype %s" % (what, array.dtype))
    if array.ndim != 3 or array.shape[2] not in (3, 4):
        raise InvalidArgumentError("%s must have shape (height, width, 3) or (height, width, 4), got %s"
                                   % (what, tuple(array.shape)))
    channels = array.shape[2]
    if channels == 3:
        rgba = np.empty(array.shape[:2] + (4,), dtype=np.uint8)
        rgba[..., :3] = array
        rgba[..., 3] = 255
        return rgba, 3
    return np.ascontiguousarray(array), 4


def _address(array: Frame) -> int:
    """The address of a frame's pixels; a 4-byte placeholder for an empty one, so that Segue
    reports the size rather than a missing buffer."""
    if array.size == 0:
        return int(_EMPTY.ctypes.data)
    return int(array.ctypes.data)


_EMPTY = np.zeros(4, dtype=np.uint8)


def _result(rgba: Frame, channels: int) -> Frame:
    """The rendered RGBA frame in the caller's channel count: RGB is the colour over black."""
    if channels == 4:
        return rgba
    alpha = rgba[..., 3:4].astype(np.uint32)
    if np.all(alpha == 255):
        return np.ascontiguousarray(rgba[..., :3])
    # Premultiplied colour, rounded as Segue premultiplies: (c·a + 127) / 255.
    return ((rgba[..., :3].astype(np.uint32) * alpha + 127) // 255).astype(np.uint8)


def _size(array: Frame) -> Tuple[int, int]:
    """(width, height) of a frame whose shape has been checked."""
    return array.shape[1], array.shape[0]


MAX_SIDE = 16384                 # segue.h's SEGUE_MAX_SIDE
MAX_PIXELS = 64 * 1024 * 1024    # and SEGUE_MAX_PIXELS


def _fill_size(size: Any) -> Tuple[int, int]:
    """`size` as (width, height), checked before anything is allocated by it."""
    if not isinstance(size, (tuple, list)) or len(size) != 2 \
            or not all(isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)) for v in size):
        raise InvalidArgumentTypeError("size must be (width, height), two integers, got %r" % (size,))
    width, height = int(size[0]), int(size[1])
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE and width * height <= MAX_PIXELS):
        raise InvalidArgumentError("size (%d, %d): each side must be 1 to %d pixels and the frame at most %d pixels"
                                   % (width, height, MAX_SIDE, MAX_PIXELS))
    return width, height


# Guards a handle's change of process (see `_Handle._lock_here`); a child gets a new one, as the
# inherited one may have been held by another thread of the parent when it forked.
_adopting = threading.Lock()


def _after_fork_in_child() -> None:
    global _adopting
    _adopting = threading.Lock()


if hasattr(os, "register_at_fork"):   # POSIX; Windows has no fork()
    os.register_at_fork(after_in_child=_after_fork_in_child)


_Self = TypeVar("_Self", bound="_Handle")


class _Handle:
    """A C handle with its functions, destroyed with the object; one thread at a time.

    A handle belongs to the process that made it: GPU objects do not survive fork(), and a child
    that used its parent's would wait forever on a device it does not have. So the object keeps
    what made its handle (the effect, each parameter's value and the duration set since) and, the
    first time it is used in another process, makes a new handle there from that process's
    context and sets them again; the parent's handle is dropped there, never destroyed (that
    would call into the parent's GPU objects too).
    """

    _prefix = ""

    #: The effect as it was given: a name, a ``.glsl`` path or ``FILE.metal:FUNCTION``.
    effect: str

    def __init__(self, effect: Union[str, os.PathLike[str]], **params: ParamValue) -> None:
        self._handle: Optional[int] = None
        self._context: int = 0       # the context the handle was made in (see `_render`)
        self._pid = os.getpid()
        self._closed = False
        self._lock = threading.Lock()
        self.effect = path_text(effect, "the effect")
        for name in params:
            name_text(name, "a parameter name")
        # What the handle was told since it was made, replayed on a new one in a forked child:
        # ("param", name) → the value's text, ("duration",) → seconds, in the order last set
        # (a parameter set again moves to the end: its last value is the one that counts, and
        # setting one each frame keeps this from growing).
        self._settings: Dict[Tuple[str, ...], Union[str, float]] = {}
        lib = library()
        self._lib = lib
        self._destroy = getattr(lib, "segue_%s_destroy" % self._prefix)
        self._handle = self._create()
        for name, value in params.items():
            self.set_param(name, value)

    def _array_types(self) -> Dict[str, str]:
        """The effect's array parameters (name → type), looked up once: their values have forms
        of their own (see `array_parameter_text`). Empty for an effect `describe` cannot read."""
        types = getattr(self, "_arrays", None)
        if types is None:
            from ._info import describe
            try:
                types = {p.name: p.type for p in describe(self.effect).parameters if p.type in ARRAY_TYPES}
            except Exception:   # the C API reported the effect when the handle was made
                types = {}
            self._arrays = types
        return types

    def _function(self, what: str) -> Any:
        return getattr(self._lib, "segue_%s_%s" % (self._prefix, what))

    def _create(self) -> int:
        """A new C handle for the effect in this process's context (not yet told any setting)."""
        self._context = context()
        return int(call(self._function("create"), self._context, self.effect.encode()))

    def _render(self, *args: Any) -> None:
        """Calls segue_*_render with `args`; after a lost device (the C context can never render
        again) the handle and the process's context are dropped, so the next use makes both anew
        (with the settings) and renders; the DeviceLostError is raised. Called holding the lock."""
        try:
            call(self._function("render"), *args)
        except DeviceLostError:
            handle, self._handle = self._handle, None
            if handle:
                self._destroy(handle)
            forget_context(self._context)
            raise

    def _lock_here(self) -> threading.Lock:
        """The object's lock in this process, checked before taking it: in a forked child the
        inherited lock may be held (by a thread of the parent that the child does not have), so
        the first use there gives the object a new lock and drops the parent's handle."""
        pid = os.getpid()
        if self._pid != pid:
            with _adopting:
                if self._pid != pid:
                    self._lock = threading.Lock()
                    self._handle = None      # the parent's: dropped, never destroyed here
                    self._pid = pid
        return self._lock

    def _remember(self, key: Tuple[str, ...], value: Union[str, float]) -> None:
        self._settings.pop(key, None)
        self._settings[key] = value

    def set_param(self, name: str, value: ParamValue) -> None:
        """Sets parameter `name` to `value`, from the next render on.

        `value` is a number, a bool, a tuple, list or array of numbers (vectors; matrices
        column-major) or text as ``segue frame --param`` takes it (``"#ff8800"``, ``"0.5"``, an
        image path for a ``sampler2D``). Raises InvalidArgumentError (a ValueError) for an
        unknown parameter or a value of the wrong type for it (the old value is kept),
        SegueIOError (an OSError) for an image that cannot be read, InvalidArgumentTypeError (a
        TypeError) for a value with no text form, TypeError for a name that is not a str and
        ValueError for a name or text value holding a NUL character."""
        name = name_text(name, "a parameter name")
        type_name = self._array_types().get(name)
        text = array_parameter_text(value, type_name, name) if type_name else parameter_text(value)
        with self._lock_here():
            call(self._function("set_param"), self._live(), name.encode(), text.encode())
            self._remember(("param", name), text)

    @property
    def duration(self) -> float:
        """The effect's duration in seconds (its own default until set, e.g. fade 1, doom-melt 2).

        Shaders see it as their ``duration`` uniform; `Transition.render` without a `time` uses
        progress × duration, and an `Effect`'s progress is time / duration. Set it to a finite
        number of seconds > 0 (else InvalidArgumentError, a ValueError; a value that is not a
        number is InvalidArgumentTypeError, a TypeError)."""
        with self._lock_here():
            return float(self._function("duration")(self._live()))

    @duration.setter
    def duration(self, seconds: float) -> None:
        seconds = _real(seconds, "the duration")
        with self._lock_here():
            call(self._function("set_duration"), self._live(), seconds)
            self._remember(("duration",), seconds)

    def _live(self) -> int:
        """The C handle of this process (made again, with the settings, in a forked child);
        called holding the lock."""
        if self._closed:
            raise InvalidArgumentError("the %s '%s' is closed" % (self._prefix, self.effect))
        if not self._handle:
            handle = self._create()
            try:
                for key, value in self._settings.items():
                    if key[0] == "param":
                        call(self._function("set_param"), handle, key[1].encode(), str(value).encode())
                    else:
                        call(self._function("set_duration"), handle, value)
            except BaseException:
                self._destroy(handle)
                raise
            self._handle = handle
        return self._handle

    def close(self) -> None:
        """Frees the GPU resources now (also done when the object is collected, and by ``with``).
        A render after it raises InvalidArgumentError."""
        with self._lock_here():
            handle, self._handle = self._handle, None
            self._closed = True
            if handle:
                self._destroy(handle)

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        handle = getattr(self, "_handle", None)
        if handle:
            self._handle = None
            if getattr(self, "_pid", None) != os.getpid():
                return                       # the parent's handle, inherited through fork()
            try:
                self._destroy(handle)
            except Exception:  # interpreter shutdown
                pass

    def __repr__(self) -> str:
        return "segue.%s(%r)" % (type(self).__name__, self.effect)


class Transition(_Handle):
    """A transition between two frames, rendered on the GPU by Segue.

    The effect is a built-in (``fade``, ``doom-melt``, ``wipe``, ``cube``, ``page-curl``, …; see
    `segue.effects()`), an ffmpeg xfade name (``wipeleft``, ``circleopen``, …), a ``.glsl`` file in
    the gl-transitions format or ``FILE.metal:FUNCTION``, with parameters as keyword arguments::

        melt = segue.Transition("doom-melt", spread=0.5)
        frame = melt.render(a, b, 0.5)      # a, b: uint8 arrays (h, w, 4) or (h, w, 3)

    One object is used by one thread at a time (others wait for it); use ``with`` or `close()`
    to free its GPU resources early. It works in the children of a fork() too.
    """

    _prefix = "transition"

    def __init__(self, effect: Union[str, os.PathLike[str]], **params: ParamValue) -> None:
        """Makes the transition `effect` (a str or an os.PathLike without NUL characters) with
        each keyword argument set as a parameter (see `set_param`); the duration starts at the
        effect's own. A ``.glsl`` file is read and parsed here; a shader that does not compile is
        reported by the first render, as ShaderCompileError.

        Raises UnknownEffectError for an unknown name, EffectFileError for a missing or
        malformed file, UnsupportedEffectError for an effect on one image (a mesh such as
        curtain: use `Effect`), InvalidArgumentError (a ValueError) for an unknown parameter or
        a bad value, NoDeviceError when there is no GPU (the first object made opens the
        process's device), TypeError for an effect that is not a str or an os.PathLike and
        ValueError for one holding a NUL character."""
        super().__init__(effect, **params)

    def render(self, a: Frame, b: Frame, progress: float, time: Optional[float] = None) -> Frame:
        """The frame at `progress` from `a` to `b`, as a new array of their shape.

        `a` and `b` are uint8 arrays of one shape, (h, w, 4) RGBA with straight alpha or
        (h, w, 3) RGB (rendered opaque; the result is composited over black). `progress` 0 shows
        `a` exactly and 1 shows `b`; values outside 0…1 (a spring's overshoot) are passed to the
        effect. `time` is the seconds since the transition began, which time-based effects such
        as doom-melt move with (None: progress × duration).

        Raises InvalidArgumentTypeError (a TypeError) for a frame that is not a NumPy array or
        not uint8, or a progress or time that is not a number; InvalidArgumentError (a
        ValueError) for a wrong or mismatched shape, an empty or too large frame, a progress
        that is NaN or infinite, or a time that is negative or not finite; ShaderCompileError
        for a shader that does not compile; DeviceLostError when the GPU is lost or does not
        finish in time."""
        from_rgba, channels = _frame(a, "the from frame")
        to_rgba, _ = _frame(b, "the to frame")
        if a.shape != b.shape:
            raise InvalidArgumentError("the from and to frames differ in shape: %s and %s"
                                       % (tuple(a.shape), tuple(b.shape)))
        progress = _real(progress, "progress")
        seconds = None if time is None else _real(time, "time")
        out = np.empty_like(from_rgba)
        width, height = _size(from_rgba)
        with self._lock_here():
            handle = self._live()
            if seconds is None:
                seconds = progress * self._lib.segue_transition_duration(handle)
            self._render(handle, _address(from_rgba), _address(to_rgba), width, height, width * 4, progress, seconds,
                         _address(out))
        return _result(out, channels)

    def progress_at(self, seconds: float) -> float:
        """The progress `seconds` into the transition by its timing: the effect's own curve or
        spring (ios-push follows UIKit's spring, cube eases in and out, fade is linear) over its
        `duration`, as ``segue render`` and ``segue concat`` time it; 0 at the start and 1 from
        the end on.

        Raises InvalidArgumentTypeError (a TypeError) for seconds that are not a number and
        InvalidArgumentError (a ValueError) for NaN or an infinity."""
        seconds = _real(seconds, "seconds")
        if not math.isfinite(seconds):
            raise InvalidArgumentError("seconds must be a finite number, got %r" % seconds)
        with self._lock_here():
            return float(self._lib.segue_transition_progress_at(self._live(), seconds))


class Effect(_Handle):
    """An effect on one frame, rendered on the GPU by Segue.

    The effect is a single-image mesh (``curtain``, ``bulge``, ``jelly``, ``ripple``, …), a
    stitchable ``FILE.metal:FUNCTION``, or a ``.glsl`` file or built-in shader transition applied
    to one image, with parameters as keyword arguments::

        bulge = segue.Effect("bulge", radius=20, touch=(0.3, 0.6))
        frame = bulge.render(image)

    One object is used by one thread at a time (others wait for it); use ``with`` or `close()`
    to free its GPU resources early. It works in the children of a fork() too.
    """

    _prefix = "effect"

    def __init__(self, effect: Union[str, os.PathLike[str]], **params: ParamValue) -> None:
        """Makes the effect `effect` (a str or an os.PathLike without NUL characters) with each
        keyword argument set as a parameter (see `set_param`); the duration starts at the
        effect's own.

        Raises UnknownEffectError for an unknown name, EffectFileError for a missing or
        malformed file, UnsupportedEffectError for a mesh transition between two images (such
        as cube: use `Transition`), InvalidArgumentError (a ValueError) for an unknown parameter
        or a bad value, NoDeviceError when there is no GPU (the first object made opens the
        process's device), TypeError for an effect that is not a str or an os.PathLike and
        ValueError for one holding a NUL character."""
        super().__init__(effect, **params)

    def render(self, image: Optional[Frame] = None, time: float = 0.0, size: Optional[Tuple[int, int]] = None) -> Frame:
        """`image` through the effect at `time` seconds, as a new array of its shape; or, for a
        fill (a stitchable ``half4 f(float2 position, …)``, SwiftUI's Shader as a ShapeStyle)
        without an image, the fill alone: ``render(size=(width, height), time=t)`` gives an
        (height, width, 4) RGBA array, and with an image the fill is drawn over it. A ``float
        time`` or ``iTime`` argument follows `time`.

        `image` is a uint8 array, (h, w, 4) RGBA with straight alpha or (h, w, 3) RGB. A shader's
        progress is time / duration, clamped to 0…1; meshes ignore the time. Raises as
        `Transition.render` does (InvalidArgumentError for a negative or non-finite time)."""
        seconds = _real(time, "time")
        if image is None:
            # A fill drawn alone (SwiftUI's Shader as a ShapeStyle): the C API takes no input.
            if size is None:
                raise InvalidArgumentTypeError("give the image, or for a fill (half4 f(float2 position, …)) its size=(width, height)")
            width, height = _fill_size(size)
            out = np.empty((height, width, 4), dtype=np.uint8)
            with self._lock_here():
                self._render(self._live(), None, width, height, width * 4, seconds, _address(out))
            return out
        if size is not None:
            raise InvalidArgumentError("size= is for a fill drawn alone; drawn over an image, a fill takes the image's size")
        rgba, channels = _frame(image, "the image")
        out = np.empty_like(rgba)
        width, height = _size(rgba)
        with self._lock_here():
            self._render(self._live(), _address(rgba), width, height, width * 4, seconds, _address(out))
        return _result(out, channels)
