"""Loading libsegue.so with ctypes, its function prototypes, errors, and the shared GPU context.

The library is found, on first use (never at import), through the ``SEGUE_LIBRARY`` environment
variable (a path), then the system's library path (``ctypes.util.find_library("segue")``, then a
plain ``libsegue.so`` as the dynamic linker searches it). One context is opened per process, on
the first render, and shared by every transition and effect: the C API serialises GPU work on it.
"""
import ctypes
import ctypes.util
import os
import threading

__all__ = ["SegueError", "library", "context", "device_name", "version", "call", "name_text", "path_text"]

NOT_FOUND = "libsegue.so not found; install Segue (scripts/install.sh) or set SEGUE_LIBRARY"


class SegueError(Exception):
    """A failure Segue reports: bad input (an unknown effect or parameter, a wrong value, a frame
    of the wrong type or size), a shader that does not compile, no library or no GPU. ``str()``
    is Segue's message."""


SegueError.__module__ = "segue"   # tracebacks name it as users import it


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
    "segue_context_create_cached": (_P, [_STR, _STR, _ERR]),
    "segue_context_device_name": (_STR, [_P]),
    "segue_context_destroy": (None, [_P]),
    "segue_transition_create": (_P, [_P, _STR, _ERR]),
    "segue_transition_set_param": (_I, [_P, _STR, _STR, _ERR]),
    "segue_transition_duration": (_D, [_P]),
    "segue_transition_set_duration": (_I, [_P, _D, _ERR]),
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
_library = None
_context = None      # (pid, handle): a context is not carried across fork()
_device_name = None


def _after_fork_in_child():
    """A fork()ed child gets a new module lock: another thread of the parent may have held the
    inherited one when the process forked, and no thread of the child would ever release it."""
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):   # POSIX; Windows has no fork()
    os.register_at_fork(after_in_child=_after_fork_in_child)


def name_text(value, what):
    """`value` checked as a name Segue reads as a C string: TypeError unless it is a `str` (bytes
    would otherwise read as "b'fade'", None as "None"), ValueError when it holds a NUL character
    (C would cut it there)."""
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s" % (what, type(value).__name__))
    if "\0" in value:
        raise ValueError("%s %r contains a NUL character" % (what, value))
    return value


def path_text(value, what):
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


def _load():
    """Opens the library the environment or the system names; raises SegueError when none loads."""
    path = os.environ.get("SEGUE_LIBRARY")
    if path:
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            raise SegueError("SEGUE_LIBRARY=%s could not be loaded: %s" % (path, e)) from None
    candidates = [ctypes.util.find_library("segue"), "libsegue.so"]
    for name in candidates:
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise SegueError(NOT_FOUND)


def _loaded_path(lib):
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
    return lib._name


def library():
    """The loaded library with its prototypes set (loaded on the first call)."""
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
            _library = lib
    return _library


def text(value):
    """A C string from the library as Python text ('' for NULL)."""
    return value.decode("utf-8", "replace") if value else ""


def call(function, *args):
    """Calls a library function whose last argument is `segue_error **`; returns its result, or
    raises SegueError with the library's message when it fails (NULL or -1)."""
    error = ctypes.c_void_p()
    result = function(*args, ctypes.byref(error))
    if result is None or (function.restype is _I and result == -1):
        lib = library()
        message = text(lib.segue_error_message(error)) if error else ""
        if error:
            lib.segue_error_free(error)
        raise SegueError(message or "%s failed" % function.__name__)
    return result


def _cache_directory():
    """Where compiled shaders are kept between runs, as the CLI keeps them."""
    directory = os.environ.get("SEGUE_CACHE_DIR")
    if directory:
        return directory
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "segue", "spirv")


def context():
    """The process's GPU context, opened on the first call (the preferred device, or the one the
    ``SEGUE_DEVICE`` environment variable names as ``segue --device`` takes it)."""
    global _context, _device_name
    pid = os.getpid()
    current = _context
    if current is not None and current[0] == pid:
        return current[1]
    lib = library()
    with _lock:
        if _context is None or _context[0] != pid:
            device = os.environ.get("SEGUE_DEVICE") or None
            handle = call(lib.segue_context_create_cached,
                          device.encode() if device else None, _cache_directory().encode())
            _device_name = text(lib.segue_context_device_name(handle))
            _context = (pid, handle)
        return _context[1]


def device_name():
    """The name of the GPU device renders run on (opens the context)."""
    context()
    return _device_name


def version():
    """libsegue's version, e.g. '0.1.0'."""
    return text(library().segue_version())
