"""Transitions and effects on NumPy frames: `Transition` and `Effect`.

Frames are ``uint8`` arrays of shape (height, width, 4) (RGBA, straight alpha) or
(height, width, 3) (RGB: rendered as opaque RGBA; the result is composited over black, as Segue
writes frames to formats without alpha). A render returns a new array of the input's shape.
"""
import numbers
import os
import threading

import numpy as np

from ._library import SegueError, call, context, library, name_text, path_text

__all__ = ["Transition", "Effect", "parameter_text"]


def _number(value):
    """A finite or non-finite number as the C API reads it (repr keeps every digit)."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    return repr(float(value))


def parameter_text(value):
    """A Python value in the C API's text form: numbers as they are, bools as true/false,
    tuples, lists and arrays as "a,b,c" (matrices flattened column-major as given), strings
    (``"#ff8800"``, ``"0.5"``, an image path) and paths unchanged (ValueError when they hold a NUL
    character, which C would cut them at)."""
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
                raise SegueError("parameter value %r: components must be numbers or bools" % (value,))
        return ",".join(flat)
    raise SegueError("parameter value %r: use a number, a bool, a tuple of numbers or a string" % (value,))


def _frame(array, what):
    """`array` as a C-contiguous (h, w, 4) uint8 frame and its channel count (3 or 4)."""
    if not isinstance(array, np.ndarray):
        raise SegueError("%s must be a NumPy array, got %s" % (what, type(array).__name__))
    if array.dtype != np.uint8:
        raise SegueError("%s must be a uint8 array (0…255), got dtype %s" % (what, array.dtype))
    if array.ndim != 3 or array.shape[2] not in (3, 4):
        raise SegueError("%s must have shape (height, width, 3) or (height, width, 4), got %s"
                         % (what, tuple(array.shape)))
    channels = array.shape[2]
    if channels == 3:
        rgba = np.empty(array.shape[:2] + (4,), dtype=np.uint8)
        rgba[..., :3] = array
        rgba[..., 3] = 255
        return rgba, 3
    return np.ascontiguousarray(array), 4


def _address(array):
    """The address of a frame's pixels; a 4-byte placeholder for an empty one, so that Segue
    reports the size rather than a missing buffer."""
    if array.size == 0:
        return _EMPTY.ctypes.data
    return array.ctypes.data


_EMPTY = np.zeros(4, dtype=np.uint8)


def _result(rgba, channels):
    """The rendered RGBA frame in the caller's channel count: RGB is the colour over black."""
    if channels == 4:
        return rgba
    alpha = rgba[..., 3:4].astype(np.uint32)
    if np.all(alpha == 255):
        return np.ascontiguousarray(rgba[..., :3])
    # Premultiplied colour, rounded as Segue premultiplies: (c·a + 127) / 255.
    return ((rgba[..., :3].astype(np.uint32) * alpha + 127) // 255).astype(np.uint8)


def _size(array):
    """(width, height) of a frame whose shape has been checked."""
    return array.shape[1], array.shape[0]


# Guards a handle's change of process (see `_Handle._lock_here`); a child gets a new one, as the
# inherited one may have been held by another thread of the parent when it forked.
_adopting = threading.Lock()


def _after_fork_in_child():
    global _adopting
    _adopting = threading.Lock()


if hasattr(os, "register_at_fork"):   # POSIX; Windows has no fork()
    os.register_at_fork(after_in_child=_after_fork_in_child)


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

    def __init__(self, effect, **params):
        self._handle = None
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
        self._settings = {}
        lib = library()
        self._lib = lib
        self._destroy = getattr(lib, "segue_%s_destroy" % self._prefix)
        self._handle = self._create()
        for name, value in params.items():
            self.set_param(name, value)

    def _function(self, what):
        return getattr(self._lib, "segue_%s_%s" % (self._prefix, what))

    def _create(self):
        """A new C handle for the effect in this process's context (not yet told any setting)."""
        return call(self._function("create"), context(), self.effect.encode())

    def _lock_here(self):
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

    def _remember(self, key, value):
        self._settings.pop(key, None)
        self._settings[key] = value

    def set_param(self, name, value):
        """Sets parameter `name` to `value` (see `parameter_text`); raises SegueError for an
        unknown parameter or a value of the wrong type, TypeError for a name that is not a str and
        ValueError for a name or text value holding a NUL character."""
        name = name_text(name, "a parameter name")
        value = parameter_text(value)
        with self._lock_here():
            call(self._function("set_param"), self._live(), name.encode(), value.encode())
            self._remember(("param", name), value)

    @property
    def duration(self):
        """The duration in seconds the shader sees (its own default until set)."""
        with self._lock_here():
            return self._function("duration")(self._live())

    @duration.setter
    def duration(self, seconds):
        seconds = float(seconds)
        with self._lock_here():
            call(self._function("set_duration"), self._live(), seconds)
            self._remember(("duration",), seconds)

    def _live(self):
        """The C handle of this process (made again, with the settings, in a forked child);
        called holding the lock."""
        if self._closed:
            raise SegueError("the %s '%s' is closed" % (self._prefix, self.effect))
        if not self._handle:
            handle = self._create()
            try:
                for key, value in self._settings.items():
                    if key[0] == "param":
                        call(self._function("set_param"), handle, key[1].encode(), value.encode())
                    else:
                        call(self._function("set_duration"), handle, value)
            except BaseException:
                self._destroy(handle)
                raise
            self._handle = handle
        return self._handle

    def close(self):
        """Frees the GPU resources now (also done when the object is collected)."""
        with self._lock_here():
            handle, self._handle = self._handle, None
            self._closed = True
            if handle:
                self._destroy(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle:
            self._handle = None
            if getattr(self, "_pid", None) != os.getpid():
                return                       # the parent's handle, inherited through fork()
            try:
                self._destroy(handle)
            except Exception:  # interpreter shutdown
                pass

    def __repr__(self):
        return "segue.%s(%r)" % (type(self).__name__, self.effect)


class Transition(_Handle):
    """A transition between two frames: a built-in (``fade``, ``doom-melt``, ``cube``, …), an
    ffmpeg xfade name, a ``.glsl`` file in the gl-transitions format or ``FILE.metal:FUNCTION``,
    with parameters as keyword arguments (``Transition("doom-melt", spread=0.5)``). The effect is
    a str or an os.PathLike (else TypeError) without NUL characters (else ValueError)."""

    _prefix = "transition"

    def render(self, a, b, progress, time=None):
        """The frame at `progress` (0 is `a`, 1 is `b`) and `time` seconds since the transition
        began (None: progress × duration). `a` and `b`: uint8 arrays of one shape, (h, w, 4)
        RGBA with straight alpha or (h, w, 3) RGB. Returns a new array of that shape."""
        from_rgba, channels = _frame(a, "the from frame")
        to_rgba, to_channels = _frame(b, "the to frame")
        if a.shape != b.shape:
            raise SegueError("the from and to frames differ in shape: %s and %s" % (tuple(a.shape), tuple(b.shape)))
        out = np.empty_like(from_rgba)
        width, height = _size(from_rgba)
        progress = float(progress)
        with self._lock_here():
            handle = self._live()
            seconds = progress * self._lib.segue_transition_duration(handle) if time is None else float(time)
            call(self._lib.segue_transition_render, handle, _address(from_rgba), _address(to_rgba),
                 width, height, width * 4, progress, seconds, _address(out))
        return _result(out, channels)


class Effect(_Handle):
    """An effect on one frame: a single-image mesh (``curtain``, ``bulge``, …), a stitchable
    ``FILE.metal:FUNCTION``, or a ``.glsl`` file or built-in shader transition applied to one
    image, with parameters as keyword arguments. The effect is a str or an os.PathLike (else
    TypeError) without NUL characters (else ValueError)."""

    _prefix = "effect"

    def render(self, image, time=0.0):
        """`image` through the effect at `time` seconds (a shader's progress is time / duration,
        clamped to 0…1; meshes ignore it). Returns a new array of the input's shape."""
        rgba, channels = _frame(image, "the image")
        out = np.empty_like(rgba)
        width, height = _size(rgba)
        with self._lock_here():
            call(self._lib.segue_effect_render, self._live(), _address(rgba), width, height, width * 4,
                 float(time), _address(out))
        return _result(out, channels)
