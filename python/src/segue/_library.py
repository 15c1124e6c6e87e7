"""Loading libsegue.so with ctypes, its function prototypes, errors, and the shared GPU context.

The library is found, on first use (never at import): the one a wheel carries inside the package
(``segue/libsegue.so.0``, scripts/wheel.py), else through the ``SEGUE_LIBRARY`` environment
variable (a path), then the system's library path (``libsegue.so.0``, its SONAME, then
``ctypes.util.find_library("segue")``, then a plain ``libsegue.so`` as the dynamic linker searches
it), and refused unless its major version is this package's. One context is opened per process,
on the first render, and shared by every transition and effect: the C API serialises GPU work on
it.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import enum
import os
import threading
from typing import Any, Dict, Optional, Type

__all__ = ["__version__", "ErrorCode", "SegueError", "InvalidArgumentError", "InvalidArgumentTypeError",
           "UnknownEffectError", "EffectFileError", "ShaderCompileError", "UnsupportedEffectError",
           "OutOfMemoryError", "DeviceLostError", "NoDeviceError", "SegueIOError", "BusyError", "ForkedError",
           "error_class", "library", "Context", "context", "forget_context", "device_name", "version", "call",
           "name_text", "path_text"]

#: This package's version; it binds the C API of libsegue of the same major version.
__version__ = "0.2.0"
MAJOR = int(__version__.split(".")[0])

NOT_FOUND = "libsegue.so not found; install Segue (scripts/install.sh) or set SEGUE_LIBRARY"


class ErrorCode(enum.IntEnum):
    """What kind of failure a `SegueError` is: the values of ``segue_code`` in segue.h."""

    OK = 0                  #: no error
    INVALID_ARGUMENT = 1    #: a size, number or value out of range, an unknown parameter
    UNKNOWN_EFFECT = 2      #: no built-in effect has that name
    BAD_EFFECT_FILE = 3     #: a .glsl or .metal file missing, unreadable or malformed
    COMPILE = 4             #: a shader that does not compile (the message has its log)
    UNSUPPORTED = 5         #: an effect used as what it is not, or a device that cannot run it
    OUT_OF_MEMORY = 6       #: the GPU or the host ran out of memory
    DEVICE_LOST = 7         #: the GPU was lost or did not finish in time
    NO_DEVICE = 8           #: no Vulkan driver, or no device matches the selector
    IO = 9                  #: a file (an image parameter, the shader cache) cannot be read or written
    BUSY = 10               #: the handle is in use by another thread
    FORKED = 11             #: the handle was made before fork(), in the parent
    INTERNAL = 12           #: anything else (a bug: please report it with the message)


class SegueError(Exception):
    """A failure Segue reports. ``str()`` is Segue's message, unchanged; ``code`` (an `ErrorCode`)
    says what kind of failure it is, and the subclass matches it (`UnknownEffectError`,
    `ShaderCompileError`, …). A plain SegueError is an internal error (``ErrorCode.INTERNAL``, also
    a code newer than this package) or a failure of the package itself: no libsegue found, or one
    of another major version."""

    code: ErrorCode = ErrorCode.INTERNAL


class InvalidArgumentError(SegueError, ValueError):
    """A value out of range (a frame's shape or size, a progress or time that is not finite, a
    duration ≤ 0), an unknown parameter or a value of the wrong kind for it; also a ValueError."""

    code = ErrorCode.INVALID_ARGUMENT


class InvalidArgumentTypeError(SegueError, TypeError):
    """An argument of the wrong type (a frame that is not a NumPy array or not uint8, a progress
    that is not a number); also a TypeError. Its code is ``ErrorCode.INVALID_ARGUMENT``."""

    code = ErrorCode.INVALID_ARGUMENT


class UnknownEffectError(SegueError):
    """No built-in effect has that name (the message may suggest close ones)."""

    code = ErrorCode.UNKNOWN_EFFECT


class EffectFileError(SegueError):
    """A .glsl or .metal effect file is missing, unreadable or malformed."""

    code = ErrorCode.BAD_EFFECT_FILE


class ShaderCompileError(SegueError):
    """A shader does not compile (reported by the first render); the message has the compiler's log."""

    code = ErrorCode.COMPILE


class UnsupportedEffectError(SegueError):
    """An effect used as what it is not (a one-image mesh as a `Transition`, a mesh transition as
    an `Effect`), or a device that cannot run it."""

    code = ErrorCode.UNSUPPORTED


class OutOfMemoryError(SegueError, MemoryError):
    """The GPU or the host ran out of memory; also a MemoryError."""

    code = ErrorCode.OUT_OF_MEMORY


class DeviceLostError(SegueError):
    """The GPU was lost (a driver reset, a shader that runs too long) or a frame did not finish in
    time (``SEGUE_GPU_TIMEOUT``); every later render in this process fails the same way."""

    code = ErrorCode.DEVICE_LOST


class NoDeviceError(SegueError):
    """No Vulkan driver, or no device matches ``SEGUE_DEVICE``."""

    code = ErrorCode.NO_DEVICE


class SegueIOError(SegueError, OSError):
    """A file cannot be read or written (an image given to a ``sampler2D`` parameter, the shader
    cache); also an OSError (whose ``errno`` is None)."""

    code = ErrorCode.IO


class BusyError(SegueError):
    """The handle is in use by another thread (the package's own lock normally prevents this)."""

    code = ErrorCode.BUSY


class ForkedError(SegueError):
    """The handle was made before fork(), in the parent (the package makes new handles in a child,
    so this comes only from handles used past it)."""

    code = ErrorCode.FORKED


_CLASSES: Dict[int, Type[SegueError]] = {
    cls.code: cls for cls in (InvalidArgumentError, UnknownEffectError, EffectFileError, ShaderCompileError,
                              UnsupportedEffectError, OutOfMemoryError, DeviceLostError, NoDeviceError,
                              SegueIOError, BusyError, ForkedError)}

for _cls in (SegueError, InvalidArgumentTypeError, *_CLASSES.values()):
    _cls.__module__ = "segue"   # tracebacks name them as users import them
del _cls


def error_class(code: int) -> Type[SegueError]:
    """The exception class of a ``segue_code`` value: plain `SegueError` for INTERNAL and for codes
    this package does not know (a later library's), as segue.h asks."""
    return _CLASSES.get(code, SegueError)


_P = ctypes.c_void_p
_ERR = ctypes.POINTER(ctypes.c_void_p)
_STR = ctypes.c_char_p
_U8 = ctypes.c_void_p  # frames are passed as addresses (NumPy's ctypes.data)
_SIZE = ctypes.c_size_t
_D = ctypes.c_double
_I = ctypes.c_int
_U32 = ctypes.c_uint32

# name: (restype, argtypes), as segue.h declares them.
_PROTOTYPES = {
    "segue_version": (_STR, []),
    "segue_error_message": (_STR, [_P]),
    "segue_error_free": (None, [_P]),
    "segue_error_code": (_I, [_P]),
    "segue_context_create_default": (_P, [_ERR]),
    "segue_context_device_name": (_STR, [_P]),
    "segue_context_destroy": (None, [_P]),
    "segue_transition_create": (_P, [_P, _STR, _ERR]),
    "segue_transition_set_param": (_I, [_P, _STR, _STR, _ERR]),
    "segue_transition_duration": (_D, [_P]),
    "segue_transition_set_duration": (_I, [_P, _D, _ERR]),
    "segue_transition_progress_at": (_D, [_P, _D]),
    "segue_transition_render": (_I, [_P, _U8, _U8, _U32, _U32, _SIZE, _D, _D, _U8, _ERR]),
    "segue_transition_destroy": (None, [_P]),
    "segue_effect_create": (_P, [_P, _STR, _ERR]),
    "segue_effect_set_param": (_I, [_P, _STR, _STR, _ERR]),
    "segue_effect_duration": (_D, [_P]),
    "segue_effect_set_duration": (_I, [_P, _D, _ERR]),
    "segue_effect_render": (_I, [_P, _U8, _U32, _U32, _SIZE, _D, _U8, _ERR]),
    "segue_effect_destroy": (None, [_P]),
    "segue_builtin_count": (_SIZE, []),
    "segue_builtin_name": (_STR, [_SIZE]),
    "segue_info_create": (_P, [_STR, _ERR]),
    "segue_info_destroy": (None, [_P]),
    "segue_info_name": (_STR, [_P]),
    "segue_info_summary": (_STR, [_P]),
    "segue_info_kind": (_I, [_P]),
    "segue_info_duration": (_D, [_P]),
    "segue_info_param_count": (_SIZE, [_P]),
    "segue_info_param_name": (_STR, [_P, _SIZE]),
    "segue_info_param_type": (_STR, [_P, _SIZE]),
    "segue_info_param_summary": (_STR, [_P, _SIZE]),
    "segue_info_param_default": (_I, [_P, _SIZE, ctypes.POINTER(_D), _SIZE]),
    "segue_info_param_range": (_I, [_P, _SIZE, ctypes.POINTER(_D), ctypes.POINTER(_D)]),
}

_lock = threading.Lock()
_library: Optional[ctypes.CDLL] = None
_context: Optional["Context"] = None      # the process's (see `context`); a child of fork() opens its own


def _after_fork_in_child() -> None:
    """A fork()ed child gets a new module lock: another thread of the parent may have held the
    inherited one when the process forked, and no thread of the child would ever release it."""
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):   # POSIX; Windows has no fork()
    os.register_at_fork(after_in_child=_after_fork_in_child)


def name_text(value: object, what: str) -> str:
    """`value` checked as a name Segue reads as a C string: TypeError unless it is a `str` (bytes
    would otherwise read as "b'fade'", None as "None"), ValueError when it holds a NUL character
    (C would cut it there) or a lone surrogate (which has no UTF-8 form: a name decoded from bytes
    that are not UTF-8, "\\udcff")."""
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s" % (what, type(value).__name__))
    if "\0" in value:
        raise ValueError("%s %r contains a NUL character" % (what, value))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError("%s %r is not valid Unicode text: it holds the lone surrogate %r at index %d, which "
                         "has no UTF-8 form" % (what, value, value[e.start], e.start)) from None
    return value


def path_text(value: object, what: str) -> str:
    """`value` checked as a name or a path (`str` or `os.PathLike` giving `str`), as `name_text`
    checks names; returns the text."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
        if not isinstance(value, str):
            raise TypeError("%s must be a str or an os.PathLike giving str, not a path of %s"
                            % (what, type(value).__name__))
    elif not isinstance(value, str):
        raise TypeError("%s must be a str or an os.PathLike, not %s" % (what, type(value).__name__))
    return name_text(value, what)


BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libsegue.so.0")


def _load() -> ctypes.CDLL:
    """Opens the library the wheel carries (segue/libsegue.so.0), else the one SEGUE_LIBRARY
    names, else the system's; raises SegueError when none loads."""
    if os.path.isfile(BUNDLED):
        try:
            return ctypes.CDLL(BUNDLED)
        except OSError as e:
            raise SegueError("the libsegue inside this package (%s) could not be loaded: %s" % (BUNDLED, e)) from None
    path = os.environ.get("SEGUE_LIBRARY")
    if path:
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            raise SegueError("SEGUE_LIBRARY=%s could not be loaded: %s" % (path, e)) from None
    candidates = ["libsegue.so.0", ctypes.util.find_library("segue"), "libsegue.so"]   # the SONAME first
    for name in candidates:
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise SegueError(NOT_FOUND)


def _loaded_path(lib: ctypes.CDLL) -> str:
    """The file `lib` was loaded from, as the dynamic linker records it (so a name it searched
    for reads as the path it found); the name it was opened with where that is unknown."""
    try:
        class LinkMap(ctypes.Structure):   # the head of glibc's struct link_map
            _fields_ = [("l_addr", ctypes.c_size_t), ("l_name", ctypes.c_char_p)]

        dlinfo = ctypes.CDLL(None).dlinfo
        dlinfo.restype = ctypes.c_int
        dlinfo.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
        link_map = ctypes.POINTER(LinkMap)()
        RTLD_DI_LINKMAP = 2
        if dlinfo(lib._handle, RTLD_DI_LINKMAP, ctypes.byref(link_map)) == 0 and link_map \
                and link_map.contents.l_name:
            return os.fsdecode(link_map.contents.l_name)
    except (AttributeError, OSError, ValueError):   # no dlinfo (not glibc)
        pass
    return str(lib._name)


def _check_version(lib: ctypes.CDLL) -> None:
    """Raises SegueError unless `lib`'s major version (segue_version()) is this package's: the C
    API and ABI hold within a major version only, and another one's would be called wrongly."""
    found = text(lib.segue_version())
    major_text = found.split(".", 1)[0]
    if major_text.isdigit() and int(major_text) == MAJOR:
        return
    raise SegueError("the loaded library %s is Segue %s; this segue package (%s) needs Segue %d.x: install "
                     "Segue %d.x or set SEGUE_LIBRARY to its libsegue.so"
                     % (_loaded_path(lib), found or "(no version)", __version__, MAJOR, MAJOR))


def library() -> ctypes.CDLL:
    """The loaded library with its prototypes set (loaded on the first call); raises SegueError
    when none is found, when it lacks a function or when its major version is not this package's."""
    global _library
    if _library is not None:
        return _library
    with _lock:
        if _library is None:
            lib = _load()
            for name, (restype, argtypes) in _PROTOTYPES.items():
                try:
                    function = getattr(lib, name)
                except AttributeError:
                    # The exception's text is dlsym's ("/lib/…/libc.so.6: undefined symbol: …"),
                    # which names neither the library meant nor what to do.
                    raise SegueError("the loaded library %s is not a libsegue of this version: it lacks %s; "
                                     "install a matching Segue or set SEGUE_LIBRARY to its libsegue.so"
                                     % (_loaded_path(lib), name)) from None
                function.restype = restype
                function.argtypes = argtypes
            _check_version(lib)
            _library = lib
    return _library


def text(value: Optional[bytes]) -> str:
    """A C string from the library as Python text ('' for NULL)."""
    return value.decode("utf-8", "replace") if value else ""


# The C functions the library's messages name, as Python spells them (libsegue speaks to C
# callers: "set it to an image path with segue_transition_set_param").
_PYTHON_WORDS = (
    ("segue_transition_set_param", "set_param"),
    ("segue_effect_set_param", "set_param"),
    ("segue_transition_create", "segue.Transition"),
    ("segue_effect_create", "segue.Effect"),
)


def python_words(message: str) -> str:
    """`message` from libsegue with the C functions it names replaced by Python's."""
    for c_name, python_name in _PYTHON_WORDS:
        message = message.replace(c_name, python_name)
    return message


def call(function: Any, *args: Any) -> Any:
    """Calls a library function whose last argument is `segue_error **`; returns its result, or
    raises the `SegueError` subclass of the error's code (see `error_class`) with the library's
    message, in Python's words (`python_words`), when it fails (NULL or -1)."""
    error = ctypes.c_void_p()
    result = function(*args, ctypes.byref(error))
    if result is None or (function.restype is _I and result == -1):
        lib = library()
        if error:
            message = python_words(text(lib.segue_error_message(error)))
            code = lib.segue_error_code(error)
            lib.segue_error_free(error)
        else:
            message, code = "", ErrorCode.INTERNAL
        raise error_class(code)(message or "%s failed" % function.__name__)
    return result


class Context:
    """A GPU context (``segue_context *``) owned by Python: destroyed when the last reference to
    this object goes, never before. The module holds one (`context`) and every transition or
    effect holds the one it made its handle from, so a context is never destroyed while a call
    that takes it (``segue_*_create``) may still be running in another thread: after a lost
    device, `forget_context` only drops the module's reference."""

    def __init__(self, pointer: int, device_name: str) -> None:
        self.pointer = pointer
        self.device_name = device_name
        self.pid = os.getpid()

    def __copy__(self) -> "Context":
        raise TypeError("a segue GPU context cannot be copied")

    def __deepcopy__(self, memo: Any) -> "Context":
        raise TypeError("a segue GPU context cannot be copied")

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise TypeError("a segue GPU context cannot be pickled or sent to another process")

    def __del__(self) -> None:
        pointer, self.pointer = getattr(self, "pointer", 0), 0
        # A context inherited through fork() is the parent's: dropped in the child, never destroyed.
        if pointer and getattr(self, "pid", None) == os.getpid() and _library is not None:
            try:
                _library.segue_context_destroy(pointer)
            except Exception:  # interpreter shutdown
                pass


def context() -> Context:
    """The process's GPU context, opened on the first call (the preferred device, or the one the
    ``SEGUE_DEVICE`` environment variable names as ``segue --device`` takes it); raises
    NoDeviceError when there is no such device. Keep the object while its pointer is in use."""
    global _context
    pid = os.getpid()
    current = _context
    if current is not None and current.pid == pid:
        return current
    lib = library()
    with _lock:
        current = _context
        if current is None or current.pid != pid:
            # The device and shader cache of the environment, as the CLI chooses them.
            pointer = int(call(lib.segue_context_create_default))
            current = Context(pointer, text(lib.segue_context_device_name(pointer)))
            _context = current
        return current


def forget_context(lost: Optional[Context]) -> None:
    """Stops handing out `lost` (after a lost device: the C context can never render again), so
    the next `context()` opens a new one. The context itself is destroyed when its last user
    lets go of it (see `Context`), not here: other threads may be making handles from it."""
    global _context
    with _lock:
        if lost is not None and _context is lost:
            _context = None


def device_name() -> str:
    """The name of the GPU device renders run on, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)" (opens
    the context: raises NoDeviceError when there is none)."""
    return context().device_name


def version() -> str:
    """libsegue's version, e.g. '0.2.0' (loads the library)."""
    return text(library().segue_version())
