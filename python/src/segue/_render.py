"""Transitions and effects on NumPy frames: `Transition` and `Effect`.

Frames are ``uint8`` arrays of shape (height, width, 4) (RGBA, straight alpha) or
(height, width, 3) (RGB: rendered as opaque RGBA; the result is composited over black, as Segue
writes frames to formats without alpha). A render returns a new array of the input's shape.
"""
from __future__ import annotations

import math
import numbers
import os
import sys
import threading
from typing import Any, Dict, Optional, Set, Tuple, TypeVar, Union

import numpy as np
import numpy.typing as npt

from ._library import (Context, DeviceLostError, InvalidArgumentError, InvalidArgumentTypeError, SegueError, call,
                       context, forget_context, library, name_text, path_text)
from ._values import ARRAY_TYPES, ParamValue, _finite_text, _real, array_parameter_text, parameter_text

__all__ = ["Transition", "Effect", "Frame", "ParamValue", "parameter_text", "array_parameter_text", "ARRAY_TYPES"]

#: A frame: a uint8 array of shape (height, width, 4) (RGBA, straight alpha) or (height, width, 3).
Frame = npt.NDArray[np.uint8]

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


def _effect_file(effect: str) -> Optional[Tuple[str, str]]:
    """The file an effect name reads and the rest of the name (``(FILE.metal, ":FUNCTION")``), as
    the C API decides it: ``FILE.metal[:FUNCTION]``, else a ``.glsl`` file or any name holding a
    '/'; None for a built-in or xfade name."""
    if effect.endswith(".metal"):
        return effect, ""
    colon = effect.rfind(":")
    if colon >= 0 and effect[:colon].endswith(".metal"):
        return effect[:colon], effect[colon:]
    if effect.endswith(".glsl") or "/" in effect:
        return effect, ""
    return None


def _absolute_effect(effect: str) -> str:
    """`effect` with a relative file made absolute against the current directory (unchanged for
    a built-in), so that what a handle was made from names the same file after a chdir()."""
    file = _effect_file(effect)
    if file is None or os.path.isabs(file[0]):
        return effect
    try:
        return os.path.join(os.getcwd(), file[0]) + file[1]
    except OSError:     # the current directory is gone: nothing relative can be read again
        return effect


class _Handle:
    """A C handle with its functions, destroyed with the object; one thread at a time.

    A handle belongs to the process that made it: GPU objects do not survive fork(), and a child
    that used its parent's would wait forever on a device it does not have. So the object keeps
    what made its handle (the effect, each parameter's value and the duration set since) and, the
    first time it is used in another process, makes a new handle there from that process's
    context and sets them again; the parent's handle is dropped there, never destroyed (that
    would call into the parent's GPU objects too).

    The object cannot be copied or pickled: a copy would share the handle (and destroy it
    twice), and another process cannot use it (make a new object there).
    """

    _prefix = ""

    #: The effect as it was given: a name, a ``.glsl`` path or ``FILE.metal:FUNCTION``.
    effect: str

    _handle: Optional[int]
    _context: Optional[Context]          # the context the handle was made in (see `_create`)
    _arrays: Optional[Dict[str, str]]    # see `_describe_arrays`

    def __init__(self, effect: Union[str, os.PathLike[str]], **params: ParamValue) -> None:
        self._handle = None
        text = path_text(effect, "the effect")
        for name in params:
            name_text(name, "a parameter name")
        self._setup(text)
        # Made from the effect as given (the library's messages name it so), then remembered with
        # a relative file made absolute here, where it was read: a handle made again (in a forked
        # child, after a lost device) and the description of its parameters read the same file
        # wherever the current directory has gone since.
        self._handle = self._create()
        self._source = _absolute_effect(self.effect)
        self._arrays = self._describe_arrays()
        for name, value in params.items():
            self.set_param(name, value)

    def _setup(self, effect: str) -> None:
        """The object's state without a handle, for the effect `effect` (checked text)."""
        self._handle = None
        self._context = None
        self._pid = os.getpid()
        self._closed = False
        self._lock = threading.Lock()
        self.effect = effect
        self._source = effect      # what handles are made from (see __init__)
        self._arrays = None
        # What the handle was told since it was made, replayed on a new one in a forked child:
        # ("param", name) → the value's text, ("duration",) → seconds, in the order last set
        # (a parameter set again moves to the end: its last value is the one that counts, and
        # setting one each frame keeps this from growing).
        self._settings: Dict[Tuple[str, ...], Union[str, float]] = {}
        lib = library()
        self._lib = lib
        self._destroy = getattr(lib, "segue_%s_destroy" % self._prefix)

    def _describe_arrays(self) -> Optional[Dict[str, str]]:
        """The effect's array parameters (name → type), remembered once read: their values have
        forms of their own (see `array_parameter_text`). Only a stitchable ``.metal`` function
        has them. None (and nothing remembered, so the next call reads again) when the file
        cannot be described now."""
        file = _effect_file(self._source)
        if file is None or not file[0].endswith(".metal"):
            types: Dict[str, str] = {}
        else:
            from ._info import describe
            try:
                types = {p.name: p.type for p in describe(self._source).parameters if p.type in ARRAY_TYPES}
            except SegueError:
                return None
        self._arrays = types
        return types

    def _array_types(self) -> Dict[str, str]:
        types = self._arrays
        if types is None:
            types = self._describe_arrays()
        return types or {}

    def _function(self, what: str) -> Any:
        return getattr(self._lib, "segue_%s_%s" % (self._prefix, what))

    def _create(self) -> int:
        """A new C handle for the effect in this process's context (not yet told any setting).
        The context object is held through the call (and by the object after it), so that it is
        not destroyed while the library uses it (see `Context`)."""
        made_in = context()
        handle = int(call(self._function("create"), made_in.pointer, self._source.encode()))
        self._context = made_in
        return handle

    def _render(self, *args: Any) -> None:
        """Calls segue_*_render with `args`; after a lost device (the C context can never render
        again) the handle is destroyed and the process stops handing out its context, so the
        next use makes both anew (with the settings) and renders; the DeviceLostError is raised.
        The lost context itself goes with its last user. Called holding the lock."""
        try:
            call(self._function("render"), *args)
        except DeviceLostError:
            handle, self._handle = self._handle, None
            lost, self._context = self._context, None
            if handle:
                self._destroy(handle)
            forget_context(lost)
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
                    self._context = None     # likewise (see Context.__del__)
                    self._pid = pid
        return self._lock

    def _remember(self, key: Tuple[str, ...], value: Union[str, float]) -> None:
        self._settings.pop(key, None)
        self._settings[key] = value

    def set_param(self, name: str, value: ParamValue) -> None:
        """Sets parameter `name` to `value`, from the next render on.

        `value` is a number, a bool, a tuple, list or array of numbers (vectors; matrices
        column-major) or text as ``segue frame --param`` takes it (``"#ff8800"``, ``"0.5"``, an
        image path for a ``sampler2D``, ``""`` to unset it again). Raises InvalidArgumentError (a ValueError) for an
        unknown parameter or a value of the wrong type for it (the old value is kept),
        SegueIOError (an OSError) for an image that cannot be read, InvalidArgumentTypeError (a
        TypeError) for a value with no text form (a complex number, an object, a list that
        contains itself), TypeError for a name that is not a str and ValueError for a name or
        text value holding a NUL character or a lone surrogate."""
        name = name_text(name, "a parameter name")
        type_name = self._array_types().get(name)
        text = array_parameter_text(value, type_name, name) if type_name else parameter_text(value, name)
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
        """The C handle of this process (made again, with the settings, in a forked child or
        after a lost device); called holding the lock."""
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

    def _renewed(self: _Self) -> _Self:
        """A new object of the same effect with the same settings and a GPU handle of its own
        (what a copy cannot be): for a user of this object that must not change it, or be
        changed by what is done to it later."""
        with self._lock_here():
            if self._closed:
                raise InvalidArgumentError("the %s '%s' is closed" % (self._prefix, self.effect))
            settings = dict(self._settings)
        other = type(self).__new__(type(self))
        other._setup(self.effect)
        other._source, other._arrays, other._settings = self._source, self._arrays, settings
        with other._lock_here():
            other._live()
        return other

    def _not_copyable(self) -> TypeError:
        return TypeError("%r owns a GPU handle: it cannot be copied or pickled, nor sent to another process; make a "
                         "new segue.%s(%r) where it is needed (in that process)"
                         % (self, type(self).__name__, getattr(self, "effect", "")))

    def __copy__(self) -> Any:
        raise self._not_copyable()

    def __deepcopy__(self, memo: Any) -> Any:
        raise self._not_copyable()

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise self._not_copyable()

    def __reduce__(self) -> Any:
        raise self._not_copyable()

    def close(self) -> None:
        """Frees the GPU resources now (also done when the object is collected, and by ``with``).
        A render after it raises InvalidArgumentError."""
        with self._lock_here():
            handle, self._handle = self._handle, None
            self._closed = True
            self._context = None
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
        return "segue.%s(%r)" % (type(self).__name__, getattr(self, "effect", "?"))


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
        as doom-melt move with (None: progress × duration, and 0 for a progress below 0).

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
        if not math.isfinite(progress):
            raise InvalidArgumentError("progress must be a finite number, got %s" % _finite_text(progress))
        seconds = None if time is None else _real(time, "time")
        out = np.empty_like(from_rgba)
        width, height = _size(from_rgba)
        with self._lock_here():
            handle = self._live()
            if seconds is None:
                # progress × duration, from 0 (a spring's undershoot before the start is at its
                # start) and finite (an overshoot of 1e308).
                seconds = min(max(progress * self._lib.segue_transition_duration(handle), 0.0), sys.float_info.max)
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
                try:
                    self._render(self._live(), None, width, height, width * 4, seconds, _address(out))
                except InvalidArgumentError as e:
                    # The library names its C argument ("in is NULL (only a fill draws without
                    # an input)"); here there is no `in`, only the image this call left out.
                    if not str(e).startswith("in is NULL"):
                        raise
                    raise InvalidArgumentError(
                        "the effect '%s' needs an image: render(image, …); only a fill (a stitchable "
                        "half4 f(float2 position, …)) draws without one, from size=(width, height)"
                        % self.effect) from None
            return out
        if size is not None:
            raise InvalidArgumentError("size= is for a fill drawn alone; drawn over an image, a fill takes the image's size")
        rgba, channels = _frame(image, "the image")
        out = np.empty_like(rgba)
        width, height = _size(rgba)
        with self._lock_here():
            self._render(self._live(), _address(rgba), width, height, width * 4, seconds, _address(out))
        return _result(out, channels)
